package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mcpeval/mcpeval/internal/builtin"
	"github.com/mcpeval/mcpeval/internal/testkit/wiremodel"
	"github.com/mcpeval/mcpeval/internal/usage"
	"github.com/mcpeval/mcpeval/record"
)

// The real providers, end to end through the CLI, against httptest servers
// speaking their wire formats (package internal/wiremodel) as a model that
// answers every case from its key.

const (
	anthropicKey = "sk-ant-PLANTED-123"
	openaiKey    = "sk-PLANTED-openai-456"
)

var providerSpecs = map[wiremodel.API]string{
	wiremodel.Anthropic: "anthropic:claude-test",
	wiremodel.OpenAI:    "openai:gpt-test",
}

// standIn serves a stand-in for api that answers the household suite's
// cases with their keys, with faults, until the test ends.
func standIn(t *testing.T, api wiremodel.API, faults []wiremodel.Fault) (*wiremodel.Handler, *httptest.Server) {
	t.Helper()
	s, err := builtin.LoadSuite("household")
	if err != nil {
		t.Fatal(err)
	}
	h := &wiremodel.Handler{API: api, Keys: wiremodel.Keys(s), Faults: faults}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return h, srv
}

// wire serves a wire model for api over the household suite, with faults,
// and points the provider's environment at it. Spending is not allowed by
// the environment: each test says --spend itself.
func wire(t *testing.T, api wiremodel.API, faults ...wiremodel.Fault) *wiremodel.Handler {
	t.Helper()
	h, srv := standIn(t, api, faults)
	t.Setenv("MCPEVAL_SPEND", "")
	for _, k := range []string{"ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "OPENAI_API_KEY", "OPENAI_BASE_URL"} {
		t.Setenv(k, "")
	}
	switch api {
	case wiremodel.Anthropic:
		h.APIKey = anthropicKey
		t.Setenv("ANTHROPIC_API_KEY", anthropicKey)
		t.Setenv("ANTHROPIC_BASE_URL", srv.URL)
	case wiremodel.OpenAI:
		h.APIKey = openaiKey
		t.Setenv("OPENAI_API_KEY", openaiKey)
		t.Setenv("OPENAI_BASE_URL", srv.URL+"/v1")
	}
	return h
}

// cli runs mcpeval in process.
func cli(args ...string) (stdout, stderr string, code int) {
	var out, errb bytes.Buffer
	code = Main(context.Background(), args, nil, &out, &errb)
	return out.String(), errb.String(), code
}

// graded is the --json summary as these tests read it.
type graded struct {
	Cases []struct {
		ID       string `json:"id"`
		Attempts []struct {
			N       int    `json:"n"`
			Verdict string `json:"verdict"`
		} `json:"attempts"`
	} `json:"cases"`
	Totals struct{ Passed, Failed, Errors, Graded int } `json:"totals"`
}

// verdicts maps "case #n" to its verdict.
func (g graded) verdicts() map[string]string {
	m := map[string]string{}
	for _, c := range g.Cases {
		for _, a := range c.Attempts {
			m[fmt.Sprintf("%s #%d", c.ID, a.N)] = a.Verdict
		}
	}
	return m
}

// household runs the household suite at 3 attempts a case (60 attempts)
// with the given model and extra flags, and returns the summary and record.
func household(t *testing.T, spec string, extra ...string) (graded, *record.Run) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "run")
	args := append([]string{"run", "--json", "--quiet", "--suite", "household", "--model", spec, "--attempts", "3", "--concurrency", "8", "--out", out}, extra...)
	stdout, stderr, code := cli(args...)
	if code != 0 {
		t.Fatalf("%s: exit %d\n%s", spec, code, stderr)
	}
	var g graded
	if err := json.Unmarshal([]byte(stdout), &g); err != nil {
		t.Fatalf("%s: summary is not JSON: %v\n%s", spec, err, stdout)
	}
	rec, err := record.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	return g, rec
}

var perfect = sync.OnceValues(func() (map[string]string, error) {
	dir, err := os.MkdirTemp("", "mcpeval-perfect")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	stdout, stderr, code := cli("run", "--json", "--quiet", "--model", "fake:perfect", "--attempts", "3", "--concurrency", "8", "--out", filepath.Join(dir, "run"))
	if code != 0 {
		return nil, fmt.Errorf("fake:perfect: exit %d: %s", code, stderr)
	}
	var g graded
	if err := json.Unmarshal([]byte(stdout), &g); err != nil {
		return nil, err
	}
	if g.Totals.Passed != 60 || g.Totals.Graded != 60 {
		return nil, fmt.Errorf("fake:perfect totals %+v, want 60/60", g.Totals)
	}
	return g.verdicts(), nil
})

// samePerfect checks g reached fake:perfect's grades, attempt by attempt.
func samePerfect(t *testing.T, g graded) {
	t.Helper()
	want, err := perfect()
	if err != nil {
		t.Fatal(err)
	}
	if g.Totals.Passed != 60 || g.Totals.Graded != 60 {
		t.Errorf("totals %+v, want 60 passed of 60", g.Totals)
	}
	got := g.verdicts()
	if len(got) != len(want) {
		t.Errorf("%d attempts graded, fake:perfect has %d", len(got), len(want))
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: verdict %q, fake:perfect's %q", k, got[k], v)
		}
	}
}

// turns counts the turns recorded and sums their usage and tries.
func turns(rec *record.Run) (n int, cacheRead int64, tries []int) {
	for _, a := range rec.Attempts {
		for _, tu := range a.Turns {
			if tu.StopReason != "" {
				n++
			}
			cacheRead += tu.Usage.CacheRead
			for _, tr := range tu.Tries {
				tries = append(tries, tr.Status)
			}
		}
	}
	return n, cacheRead, tries
}

// TestProvidersReachFakePerfectGrades runs the household suite (60
// attempts) through each real provider against a wire model that answers
// from the key, and through Anthropic with adaptive thinking (the thinking
// blocks must come back signed, or the wire model refuses the turn): each
// reaches exactly fake:perfect's verdicts, every turn is one request, the
// fixed prefix is read from the cache, and usage.json totals the record.
func TestProvidersReachFakePerfectGrades(t *testing.T) {
	for _, c := range []struct {
		name string
		api  wiremodel.API
		spec string
	}{
		{"anthropic", wiremodel.Anthropic, providerSpecs[wiremodel.Anthropic]},
		{"openai", wiremodel.OpenAI, providerSpecs[wiremodel.OpenAI]},
		{"anthropic-thinking", wiremodel.Anthropic, providerSpecs[wiremodel.Anthropic] + ";thinking=adaptive"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := wire(t, c.api)
			g, rec := household(t, c.spec, "--spend")
			cacheRead := checkCleanRun(t, c.api, c.spec, g, rec, h.Count())
			model := strings.TrimPrefix(strings.Split(c.spec, ";")[0], string(c.api)+":")
			for _, r := range h.Requests() {
				var body struct{ Model string }
				json.Unmarshal(r.Body, &body)
				if body.Model != model || !strings.Contains(r.Header.Get("Authorization")+r.Header.Get("X-Api-Key"), h.APIKey) {
					t.Fatalf("request %d: model %q, key sent: %v", r.N, body.Model, r.Header.Get("Authorization") != "")
				}
			}
			var u usage.Summary
			readJSON(t, filepath.Join(rec.Dir, "usage.json"), &u)
			var sum int64
			for _, a := range rec.Attempts {
				sum += a.Usage().Billed()
			}
			if u.Total.Attempts != 60 || u.Total.Tokens.Billed() != sum || sum == 0 || u.Total.Tokens.CacheRead != cacheRead {
				t.Errorf("usage.json total %+v; record bills %d tokens, reads %d from cache", u.Total, sum, cacheRead)
			}
		})
	}
}

// TestProviderRetryIsNotAGrade: a provider that refuses with 429 (and
// retry-after) or an overload, then answers, costs a recorded retry and
// nothing else: the grades stay fake:perfect's 60 of 60.
//
// The waits are kept short with the provider's own headers (retry-after:
// 0.01, retry-after-ms: 1), since the CLI has no way to shorten the retry
// policy; a "retry-after: 0" is not honoured as "now" but falls back to the
// default backoff (0.5-1s).
func TestProviderRetryIsNotAGrade(t *testing.T) {
	for api, second := range map[wiremodel.API]int{wiremodel.Anthropic: 529, wiremodel.OpenAI: 500} {
		t.Run(string(api), func(t *testing.T) {
			h := wire(t, api,
				wiremodel.Fault{Status: 429, RetryAfter: "0.01"},
				wiremodel.Fault{Status: second, RetryAfterMS: "1"})
			g, rec := household(t, providerSpecs[api], "--spend")
			retriedNotGraded(t, h, g, rec, second)
			for _, a := range rec.Attempts {
				for _, tu := range a.Turns {
					for _, tr := range tu.Tries {
						if want := map[int]int64{429: 10, second: 1}[tr.Status]; tr.WaitMS != want {
							t.Errorf("%s: try %d waited %dms, want %dms (the server's retry-after)", a.Case, tr.Status, tr.WaitMS, want)
						}
					}
				}
			}
			var u usage.Summary
			readJSON(t, filepath.Join(rec.Dir, "usage.json"), &u)
			if u.Total.Retries != 2 {
				t.Errorf("usage.json counts %d retries, want 2", u.Total.Retries)
			}
		})
	}
}

// retriedNotGraded checks a household run whose provider, the stand-in h,
// refused twice (429, then second) before answering: the grades are
// fake:perfect's, the record keeps the two refusals as tries, and h saw one
// request a turn and the two refused.
func retriedNotGraded(t *testing.T, h *wiremodel.Handler, g graded, rec *record.Run, second int) {
	t.Helper()
	samePerfect(t, g)
	n, _, tries := turns(rec)
	slices.Sort(tries)
	if want := []int{429, second}; !slices.Equal(tries, want) {
		t.Fatalf("recorded tries %v, want %v", tries, want)
	}
	if h.Count() != n+2 {
		t.Errorf("%d requests for %d turns and 2 refusals", h.Count(), n)
	}
}

// TestProviderNeedsSpend: without --spend and with MCPEVAL_SPEND unset,
// run and probe exit 2 before sending anything; MCPEVAL_SPEND=yes allows.
func TestProviderNeedsSpend(t *testing.T) {
	for api, spec := range providerSpecs {
		t.Run(string(api), func(t *testing.T) {
			h := wire(t, api)
			for _, args := range [][]string{
				{"run", "--quiet", "--suite", "household", "--model", spec, "--attempts", "1", "--out", filepath.Join(t.TempDir(), "run")},
				{"probe", "--model", spec},
			} {
				_, stderr, code := cli(args...)
				if code != 2 || !strings.Contains(stderr, "--spend") || !strings.Contains(stderr, "MCPEVAL_SPEND=yes") {
					t.Errorf("%s without --spend: exit %d, stderr %q; want 2 and how to allow it", args[0], code, stderr)
				}
				if _, err := os.Stat(args[len(args)-1]); args[0] == "run" && err == nil {
					t.Errorf("run without --spend wrote a record")
				}
			}
			if n := h.Count(); n != 0 {
				t.Fatalf("the server received %d requests without --spend", n)
			}
			t.Setenv("MCPEVAL_SPEND", "yes")
			if stdout, stderr, code := cli("probe", "--model", spec); code != 0 || h.Count() != 1 {
				t.Errorf("MCPEVAL_SPEND=yes: exit %d, %d requests\n%s%s", code, h.Count(), stdout, stderr)
			}
		})
	}
}

// TestProviderBudgetStopsCleanly: a token budget smaller than one attempt
// stops the run before the next attempt: exit 4, End.Reason "budget", the
// attempts not run counted in End.Skipped, every recorded attempt whole,
// and no request beyond the recorded turns.
func TestProviderBudgetStopsCleanly(t *testing.T) {
	h := wire(t, wiremodel.Anthropic)
	out := filepath.Join(t.TempDir(), "run")
	stdout, stderr, code := cli("run", "--json", "--quiet", "--suite", "household", "--model", providerSpecs[wiremodel.Anthropic], "--spend",
		"--budget-tokens", "100", "--attempts", "1", "--concurrency", "1", "--out", out)
	if code != 4 || !strings.Contains(stderr, "budget") || !strings.Contains(stderr, "--resume") {
		t.Fatalf("exit %d, stderr %q; want 4, naming the budget and --resume", code, stderr)
	}
	var g graded
	if err := json.Unmarshal([]byte(stdout), &g); err != nil {
		t.Fatalf("summary is not JSON: %v\n%s", err, stdout)
	}
	rec, err := record.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if rec.End == nil || rec.End.Complete || rec.End.Reason != string(record.KindBudget) {
		t.Fatalf("end %+v, want incomplete for budget", rec.End)
	}
	ran, skipped := len(rec.Attempts), rec.End.Skipped[string(record.KindBudget)]
	if ran == 0 || skipped == 0 || ran+skipped != len(rec.Header.Planned) || len(rec.End.Skipped) != 1 {
		t.Errorf("%d attempts run, skipped %v, %d planned", ran, rec.End.Skipped, len(rec.Header.Planned))
	}
	// Checked before each attempt with one attempt at a time, the budget
	// lets at most the attempt already handed to the worker finish.
	t.Logf("budget 100 tokens: %d attempts run, %d skipped", ran, skipped)
	if ran > 2 {
		t.Errorf("%d attempts ran past a budget the first one spent", ran)
	}
	for _, a := range rec.Attempts {
		if a.End != record.EndAnswered || a.Error != nil || a.Answer == "" {
			t.Errorf("%s: end %q, error %v: an attempt was cut short", a.Case, a.End, a.Error)
		}
	}
	if n, _, _ := turns(rec); n != h.Count() {
		t.Errorf("%d turns recorded, %d requests sent", n, h.Count())
	}
	if g.Totals.Graded != ran {
		t.Errorf("graded %d, ran %d", g.Totals.Graded, ran)
	}
}

// TestPlantedKeyNeverRecorded: the API key from the environment, sent on
// every request and echoed back by the server in error bodies (a 429, a
// 401 and a malformed answer), appears nowhere in the run directory, nor on
// stdout or stderr.
func TestPlantedKeyNeverRecorded(t *testing.T) {
	for api, spec := range providerSpecs {
		t.Run(string(api), func(t *testing.T) {
			key := map[wiremodel.API]string{wiremodel.Anthropic: anthropicKey, wiremodel.OpenAI: openaiKey}[api]
			echo := func(status int, kind string) string {
				msg := fmt.Sprintf("key %s: %s (Authorization: Bearer %s)", key, kind, key)
				if api == wiremodel.Anthropic {
					return fmt.Sprintf(`{"type":"error","error":{"type":%q,"message":%q}}`, kind, msg)
				}
				return fmt.Sprintf(`{"error":{"message":%q,"type":%q,"param":null,"code":null}}`, msg, kind)
			}
			h := wire(t, api,
				wiremodel.Fault{Status: 429, RetryAfterMS: "1", Body: echo(429, "rate_limit_error")},
				wiremodel.Fault{Status: 401, Body: echo(401, "authentication_error")},
				wiremodel.Fault{Malformed: true, Body: `{"id":"x","key":"` + key + `","content":[`},
			)
			out := filepath.Join(t.TempDir(), "run")
			stdout, stderr, code := cli("run", "--json", "--quiet", "--suite", "household", "--model", spec, "--spend", "--attempts", "1", "--concurrency", "1", "--out", out)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if r := h.Requests(); len(r) < 4 || !strings.Contains(r[0].Header.Get("Authorization")+r[0].Header.Get("X-Api-Key"), key) {
				t.Fatalf("the planted key was not sent (%d requests)", len(r))
			}
			rec, err := record.Read(out)
			if err != nil {
				t.Fatal(err)
			}
			if b, _ := os.ReadFile(filepath.Join(out, record.FileName)); !bytes.Contains(b, []byte("[redacted]")) {
				t.Errorf("the record holds no [redacted] mark: the echoed key never reached it")
			}
			checkSecretKept(t, key, rec, out, stdout, stderr)
		})
	}
}

// checkCleanRun checks a run of the household suite through the stand-in of
// api, with no fault, that answered requests requests: a perfect run
// recorded as the real provider's, one turn a request, the cached prefix
// read, no retry, and thinking recorded on every turn exactly when the
// spec asks for it. It returns the tokens read from the cache.
func checkCleanRun(t *testing.T, api wiremodel.API, spec string, g graded, rec *record.Run, requests int) (cacheRead int64) {
	t.Helper()
	samePerfect(t, g)
	if rec.Header.Model.Provider != string(api) || rec.Header.Model.Fake {
		t.Errorf("record model %+v", rec.Header.Model)
	}
	n, cacheRead, tries := turns(rec)
	if n != requests {
		t.Errorf("%d turns recorded, %d requests received", n, requests)
	}
	if cacheRead == 0 {
		t.Error("no turn read the cached system prompt and tools")
	}
	if len(tries) != 0 {
		t.Errorf("retries %v with no fault", tries)
	}
	thinking := 0
	for _, a := range rec.Attempts {
		for _, tu := range a.Turns {
			if tu.Thinking != "" {
				thinking++
			}
		}
	}
	if want := strings.Contains(spec, "thinking"); want != (thinking == n) || (!want && thinking > 0) {
		t.Errorf("%d of %d turns recorded thinking", thinking, n)
	}
	return cacheRead
}

// checkSecretKept checks a run whose stand-in echoed the secret key back in
// a 429, a 401 and a malformed answer: the 401 and the malformed answer
// are recorded as provider errors, and the key appears nowhere in the run
// directory out, nor on stdout or stderr.
func checkSecretKept(t *testing.T, key string, rec *record.Run, out, stdout, stderr string) {
	t.Helper()
	errs := 0
	for _, a := range rec.Attempts {
		if a.Error != nil && a.Error.Kind == record.KindProvider {
			errs++
		}
	}
	if errs != 2 {
		t.Errorf("%d provider errors recorded, want 2 (the 401 and the malformed answer)", errs)
	}
	noSecretIn(t, "stdout", []byte(stdout), key, "PLANTED")
	noSecretIn(t, "stderr", []byte(stderr), key, "PLANTED")
	if files := noFileHolds(t, out, key, "PLANTED"); files < 3 {
		t.Fatalf("read %d files of %s: the check proves little", files, out)
	}
}

// noSecretIn fails the test for each of secrets that text, read from
// where, holds, showing it where it stands.
func noSecretIn(t *testing.T, where string, text []byte, secrets ...string) {
	t.Helper()
	for _, s := range secrets {
		if i := bytes.Index(text, []byte(s)); i >= 0 {
			from := max(0, i-80)
			t.Errorf("%s holds %q: …%s…", where, s, text[from:min(len(text), i+len(s)+80)])
		}
	}
}

// noFileHolds fails the test for each file under dir that holds one of
// secrets (noSecretIn), and returns how many files it read.
func noFileHolds(t *testing.T, dir string, secrets ...string) (files int) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files++
		noSecretIn(t, p, b, secrets...)
		return nil
	})
	if err != nil {
		t.Fatalf("reading %s: %v", dir, err)
	}
	return files
}

// TestProbeAgainstWireModel: mcpeval probe sends one request per model,
// which the provider accepts and answers with a call to probe_echo; with
// --suite the target's real tools go along.
func TestProbeAgainstWireModel(t *testing.T) {
	for api, spec := range providerSpecs {
		t.Run(string(api), func(t *testing.T) {
			h := wire(t, api)
			stdout, stderr, code := cli("probe", "--model", spec, "--spend")
			if code != 0 || !strings.HasPrefix(stdout, spec+": accepted ") || strings.Contains(stdout, "without calling") {
				t.Fatalf("exit %d\nstdout %q\nstderr %q", code, stdout, stderr)
			}
			if h.Count() != 1 {
				t.Errorf("the probe sent %d requests, want 1", h.Count())
			}
			stdout, stderr, code = cli("probe", "--model", spec, "--spend", "--suite", "household", "--json")
			var rows []struct {
				Model            string
				Accepted, Called bool
			}
			if err := json.Unmarshal([]byte(stdout), &rows); err != nil || code != 0 || len(rows) != 1 || !rows[0].Accepted || !rows[0].Called {
				t.Fatalf("--json: exit %d, %v, %q\n%s", code, err, stdout, stderr)
			}
			var body struct{ Tools []json.RawMessage }
			json.Unmarshal(h.Requests()[1].Body, &body)
			if len(body.Tools) < 2 {
				t.Errorf("probe --suite offered %d tools, want the probe's and the target's", len(body.Tools))
			}
		})
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
