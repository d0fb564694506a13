package langfuse_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/builtin"
	"github.com/mcpeval/mcpeval/internal/export/langfuse"
	"github.com/mcpeval/mcpeval/internal/export/otlp"
	"github.com/mcpeval/mcpeval/internal/testkit/langfusetest"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

const (
	publicKey = langfusetest.PublicKey
	secretKey = langfusetest.SecretKey
)

func newFake(t *testing.T) *langfusetest.Server { return langfusetest.New(t) }

// client is a client of the stand-in f whose waits are noted in waits
// rather than waited.
func client(t *testing.T, f *langfusetest.Server, waits *[]time.Duration) *langfuse.Client {
	c, err := langfuse.New(f.URL, publicKey, secretKey)
	if err != nil {
		t.Fatal(err)
	}
	c.Wait = func(_ context.Context, d time.Duration) error {
		if waits != nil {
			*waits = append(*waits, d)
		}
		return nil
	}
	return c
}

// run is a run of the household suite's first four cases, two attempts
// each, graded: a passing answer, a failing one, and on the last case an
// attempt that ended in an error.
func run(t *testing.T) (*suite.Suite, langfuse.Input) {
	s, err := builtin.LoadSuite("household")
	if err != nil {
		t.Fatal(err)
	}
	h := record.Header{RunID: "20261130-run", Start: time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC), Model: model.Info{Spec: "anthropic:claude-x", Provider: "anthropic", Name: "claude-x"}, Suite: record.SuiteInfo{Name: s.Name, Hash: s.Hash}, Preflight: record.Preflight{Valid: true}}
	rec := &record.Run{Header: h}
	for i, c := range s.Cases[:4] {
		for n := 1; n <= 2; n++ {
			a := record.Attempt{Case: c.ID, N: n, Prompt: c.Prompt, Start: h.Start.Add(time.Duration(i*2+n) * time.Minute), DurationMS: 1500, End: record.EndAnswered,
				Turns: []record.Turn{{Text: "It is " + secretKey, LatencyMS: 800, Usage: model.Usage{Input: 100, Output: 10}}}, Answer: "I don't know " + secretKey}
			if n == 1 {
				a.Answer = c.Key.Answer
			}
			if i == 3 && n == 2 {
				a.End, a.Error = record.EndError, &record.Error{Kind: record.KindProvider, Message: "overloaded"}
			}
			rec.Attempts = append(rec.Attempts, a)
		}
	}
	return s, graded(s, rec)
}

// graded is run rec graded against suite s, as Export takes it.
func graded(s *suite.Suite, rec *record.Run) langfuse.Input {
	res := grade.Run(s, rec)
	in := langfuse.Input{Suite: s, Run: rec}
	for i := range rec.Attempts {
		a := &rec.Attempts[i]
		var g *grade.AttemptGrade
		for j := range res.Attempts {
			if res.Attempts[j].Case == a.Case && res.Attempts[j].N == a.N {
				g = &res.Attempts[j]
			}
		}
		c := s.Case(a.Case)
		in.Attempts = append(in.Attempts, otlp.Attempt{Header: &rec.Header, Attempt: a, Grade: g, Group: c.Group, Dataset: s.DatasetOf(c)})
	}
	return in
}

// TestExport sends a graded run to a Langfuse speaking its documented API
// and checks what it holds: the traces, a dataset with every case as an
// item, a dataset run linking each item to its attempts' traces, scores.
func TestExport(t *testing.T) {
	f := newFake(t)
	s, in := run(t)
	st, err := langfuse.Export(context.Background(), client(t, f, nil), in)
	if err != nil {
		t.Fatal(err)
	}
	name := langfuse.DatasetName(s, "")
	checkDataset(t, f, s, name, st)
	checkRun(t, f, in, name)
	checkScores(t, f, in)
	checkSent(t, f)

	// Exporting again updates what is there.
	nItems, nScores := len(f.Items), len(f.Scores)
	if _, err := langfuse.Export(context.Background(), client(t, f, nil), in); err != nil {
		t.Fatal(err)
	}
	if len(f.Items) != nItems || len(f.Scores) != nScores || len(f.Datasets) != 1 {
		t.Errorf("after a second export: %d items, %d scores, %d datasets; want %d, %d, 1", len(f.Items), len(f.Scores), len(f.Datasets), nItems, nScores)
	}
}

// checkDataset checks the one dataset, name: an item for every case, the
// first holding its prompt, kind and group, and the key's figures.
func checkDataset(t *testing.T, f *langfusetest.Server, s *suite.Suite, name string, st langfuse.Stats) {
	t.Helper()
	if len(f.Datasets) != 1 || f.Datasets[name] == nil {
		t.Fatalf("datasets %v, want %s", keys(f.Datasets), name)
	}
	if len(f.Items) != len(s.Cases) || st.Items != len(s.Cases) {
		t.Errorf("%d items (stats %d), want one per case (%d)", len(f.Items), st.Items, len(s.Cases))
	}
	c0 := s.Cases[0]
	it := f.Items[langfuse.ItemID(name, c0.ID)]
	if it == nil {
		t.Fatalf("no item for %s", c0.ID)
	}
	if in := it["input"].(map[string]any)["prompt"]; in != c0.Prompt {
		t.Errorf("item input %v, want the prompt", in)
	}
	meta := it["metadata"].(map[string]any)
	if meta["kind"] != "agent" || meta["group"] != c0.Group {
		t.Errorf("item metadata %v, want kind agent, group %s", meta, c0.Group)
	}
	if exp, _ := it["expectedOutput"].(map[string]any); exp == nil || exp["figures"] == nil {
		t.Errorf("item expected output %v, want the key's figures", it["expectedOutput"])
	}
}

// checkRun checks the dataset run: an item for every attempt, linking
// its case's item and its trace, which Langfuse received, and the run's
// description and model.
func checkRun(t *testing.T, f *langfusetest.Server, in langfuse.Input, name string) {
	t.Helper()
	runItems := f.Runs[name+" / "+in.Run.Header.RunID]
	if len(runItems) != 8 {
		t.Fatalf("dataset run has %d items, want 8 (one per attempt)", len(runItems))
	}
	traces := map[string]bool{}
	for _, sp := range f.OTel.Spans() {
		traces[sp.TraceHex()] = true
	}
	if len(traces) != 8 {
		t.Errorf("Langfuse received %d traces, want 8", len(traces))
	}
	for i, ri := range runItems {
		a := in.Attempts[i].Attempt
		if want := otlp.TraceID(in.Run.Header.RunID, a.Case, a.N).String(); ri["traceId"] != want || !traces[want] {
			t.Errorf("run item %d links trace %v, want %s (received: %v)", i, ri["traceId"], want, traces[want])
		}
		if ri["datasetItemId"] != langfuse.ItemID(name, a.Case) {
			t.Errorf("run item %d links item %v", i, ri["datasetItemId"])
		}
	}
	if runItems[0]["runDescription"] == nil || runItems[0]["metadata"].(map[string]any)["model"] != "anthropic:claude-x" {
		t.Errorf("the dataset run has no description or model: %v", runItems[0])
	}
}

// checkScores checks the scores: the verdict of every attempt; pass and
// checks only where the model was graded.
func checkScores(t *testing.T, f *langfusetest.Server, in langfuse.Input) {
	t.Helper()
	byTrace := map[string]map[string]any{}
	for _, sc := range f.Scores {
		tr := sc["traceId"].(string)
		if byTrace[tr] == nil {
			byTrace[tr] = map[string]any{}
		}
		byTrace[tr][sc["name"].(string)] = sc["value"]
	}
	for _, ia := range in.Attempts {
		a := ia.Attempt
		checkAttemptScores(t, a, ia.Grade, byTrace[otlp.TraceID(in.Run.Header.RunID, a.Case, a.N).String()])
	}
}

// checkAttemptScores checks one attempt's scores, got by name, against
// its grade g.
func checkAttemptScores(t *testing.T, a *record.Attempt, g *grade.AttemptGrade, got map[string]any) {
	t.Helper()
	if got["verdict"] != string(g.Outcome) {
		t.Errorf("%s #%d: verdict score %v, want %s", a.Case, a.N, got["verdict"], g.Outcome)
	}
	if g.Outcome == grade.Error {
		if len(got) != 1 {
			t.Errorf("%s #%d: an error attempt has scores %v, want its verdict alone", a.Case, a.N, got)
		}
		return
	}
	if want := map[bool]float64{true: 1, false: 0}[g.Outcome == grade.Pass]; got["pass"] != want {
		t.Errorf("%s #%d: pass score %v, want %v", a.Case, a.N, got["pass"], want)
	}
	for _, r := range g.Reasons {
		if got["check:"+r.Check] != 0.0 {
			t.Errorf("%s #%d: check:%s = %v, want 0 (it failed: %s)", a.Case, a.N, r.Check, got["check:"+r.Check], r.Message)
		}
	}
	if g.Outcome == grade.Pass && got["check:figures"] != 1.0 {
		t.Errorf("%s #%d: passed, but check:figures = %v", a.Case, a.N, got["check:figures"])
	}
}

// checkSent checks every OTLP request carries the ingestion version and
// no body the secret key.
func checkSent(t *testing.T, f *langfusetest.Server) {
	t.Helper()
	for _, h := range f.OTel.Headers() {
		if h.Get("x-langfuse-ingestion-version") != "4" {
			t.Errorf("OTLP request without the ingestion version header")
		}
	}
	for _, b := range f.Bodies {
		if strings.Contains(b, secretKey) {
			t.Errorf("a body carries the secret key: %s", b)
		}
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestErrors: a 429 is tried again after its Retry-After, a 500 after a
// pause; a refused key stops the export without showing the key; a
// refused payload stops it with what Langfuse said.
func TestErrors(t *testing.T) {
	t.Run("busy then fine", func(t *testing.T) {
		f := newFake(t)
		f.Faults["/api/public/scores"] = []langfusetest.Fault{{Status: 429, RetryAfter: "7"}, {Status: 429, RetryAfter: "Wed, 21 Oct 2015 07:28:00 GMT"}}
		f.Faults["/api/public/dataset-items"] = []langfusetest.Fault{{Status: 500, RetryAfter: ""}, {Status: 503, RetryAfter: ""}}
		f.Faults["/api/public/otel/v1/traces"] = []langfusetest.Fault{{Status: 503, RetryAfter: ""}}
		var waits []time.Duration
		_, in := run(t)
		if _, err := langfuse.Export(context.Background(), client(t, f, &waits), in); err != nil {
			t.Fatal(err)
		}
		if len(waits) != 4 || waits[0] != 500*time.Millisecond || waits[1] != time.Second || waits[2] != 7*time.Second || waits[3] != 0 {
			t.Errorf("waits = %v, want 500ms and 1s after the 5xx, then the 429s' Retry-After: 7s and a date past", waits)
		}
		if len(f.Items) == 0 || len(f.Scores) == 0 {
			t.Errorf("nothing stored after the retries")
		}
	})
	t.Run("always busy", func(t *testing.T) {
		f := newFake(t)
		for range 10 {
			f.Faults["/api/public/v2/datasets"] = append(f.Faults["/api/public/v2/datasets"], langfusetest.Fault{Status: 429, RetryAfter: "1"})
		}
		_, in := run(t)
		_, err := langfuse.Export(context.Background(), client(t, f, nil), in)
		if err == nil || !strings.Contains(err.Error(), "429") || !strings.Contains(err.Error(), "gave up after 5 tries") {
			t.Errorf("err = %v, want a 429 given up after 5 tries", err)
		}
	})
	t.Run("wrong keys", func(t *testing.T) {
		f := newFake(t)
		c, err := langfuse.New(f.URL, publicKey, "sk-lf-wrong-secret-value")
		if err != nil {
			t.Fatal(err)
		}
		_, in := run(t)
		in.OTLP.Timeout = 300 * time.Millisecond
		_, err = langfuse.Export(context.Background(), c, in)
		if err == nil || !strings.Contains(err.Error(), "keys were refused") || strings.Contains(err.Error(), "wrong-secret") || strings.Contains(err.Error(), secretKey) {
			t.Fatalf("err = %v, want a refusal that does not show the key", err)
		}
		if len(f.OTel.Spans()) != 0 || len(f.Bodies) != 0 {
			t.Errorf("something was sent with refused keys")
		}
		if _, err := c.Ping(context.Background()); err == nil || !strings.Contains(err.Error(), "401") || !strings.Contains(err.Error(), "keys were refused") || strings.Contains(err.Error(), "wrong-secret") {
			t.Errorf("ping: %v, want a 401 naming the keys but not showing them", err)
		}
	})
	t.Run("refused payload", func(t *testing.T) {
		f := newFake(t)
		f.Faults["/api/public/dataset-run-items"] = []langfusetest.Fault{{Status: 400, RetryAfter: ""}}
		_, in := run(t)
		st, err := langfuse.Export(context.Background(), client(t, f, nil), in)
		if err == nil || !strings.Contains(err.Error(), "400 Bad Request") || st.RunItems != 0 {
			t.Errorf("err = %v, stats %+v; want a 400 that stops the export", err, st)
		}
	})
}

func TestNew(t *testing.T) {
	for _, tc := range []struct{ host, pk, sk, want string }{
		{"", "", secretKey, "LANGFUSE_PUBLIC_KEY"},
		{"cloud.langfuse.com", publicKey, secretKey, "want an http"},
	} {
		_, err := langfuse.New(tc.host, tc.pk, tc.sk)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), secretKey) {
			t.Errorf("New(%q): %v, want %q", tc.host, err, tc.want)
		}
	}
	c, err := langfuse.New("", publicKey, secretKey)
	if err != nil || c.Host() != langfuse.DefaultHost {
		t.Errorf("New with no host: %v, %v", c, err)
	}
}
