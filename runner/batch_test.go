package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/builtin"
	"github.com/mcpeval/mcpeval/internal/retry"
	"github.com/mcpeval/mcpeval/internal/testkit/wiremodel"
	"github.com/mcpeval/mcpeval/internal/usage"
	"github.com/mcpeval/mcpeval/internal/usage/price"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/anthropic"
	"github.com/mcpeval/mcpeval/model/fake"
	"github.com/mcpeval/mcpeval/model/openai"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
	"github.com/mcpeval/mcpeval/target"
)

// The batch path, end to end: the household CI suite's tool-call dataset
// through stand-ins of Anthropic's Message Batches API and OpenAI's Batch
// API, each answering every request as its own stand-in model answers the
// same request sent alone.

const batchKey = "sk-batch-PLANTED-789"

// batchAPI is one provider's batch API under test.
type batchAPI struct {
	api  wiremodel.API
	spec string
	// create is the request that creates a batch; sends the requests that
	// carry a model request on the ordinary path.
	create, sends string
	open          func(base string, p retry.Policy) (model.Model, error)
}

var batchAPIs = []batchAPI{
	{
		api: wiremodel.Anthropic, spec: "anthropic:claude-test", create: "/v1/messages/batches", sends: "/v1/messages",
		open: func(base string, p retry.Policy) (model.Model, error) {
			return anthropic.New(model.Info{Spec: "anthropic:claude-test", Provider: "anthropic", Name: "claude-test"},
				anthropic.Config{APIKey: batchKey, BaseURL: base, Retry: p})
		},
	},
	{
		api: wiremodel.OpenAI, spec: "openai:gpt-test", create: "/v1/batches", sends: "/v1/chat/completions",
		open: func(base string, p retry.Policy) (model.Model, error) {
			return openai.New(model.Info{Spec: "openai:gpt-test", Provider: "openai", Name: "gpt-test"},
				openai.Config{APIKey: batchKey, BaseURL: base + "/v1", Retry: p})
		},
	},
}

func (b batchAPI) info() model.Info {
	p, n, _ := strings.Cut(b.spec, ":")
	return model.Info{Spec: b.spec, Provider: p, Name: n}
}

func ciSuite(t *testing.T) *suite.Suite {
	t.Helper()
	s, err := suite.Load(filepath.Join("..", "examples", "household-ci"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// sleeps is a retry policy's clock: it records every wait and waits
// none.
type sleeps struct {
	mu   sync.Mutex
	took []time.Duration
}

func (s *sleeps) policy() retry.Policy {
	return retry.Policy{Sleep: func(ctx context.Context, d time.Duration) error {
		s.mu.Lock()
		s.took = append(s.took, d)
		s.mu.Unlock()
		return ctx.Err()
	}}
}

// openOn opens api's model on the stand-in at url, with a retry policy
// that waits none and records its waits in the sleeps returned.
func (b batchAPI) openOn(t *testing.T, url string) (model.Model, *sleeps) {
	t.Helper()
	sl := &sleeps{}
	m, err := b.open(url, sl.policy())
	if err != nil {
		t.Fatal(err)
	}
	return m, sl
}

// runAll runs s batched on m, polling without waiting, and fails the test
// unless the run completes with all 10 of its attempts recorded.
func runAll(t *testing.T, s *suite.Suite, m model.Model, info model.Info) *record.Run {
	t.Helper()
	rec, err := Run(context.Background(), batchConfig(t, s, m, info, fastPoll()))
	if err != nil {
		t.Fatal(err)
	}
	if !rec.Complete() || len(rec.Attempts) != 10 {
		t.Fatalf("complete %v, %d attempts; want all 10 recorded", rec.Complete(), len(rec.Attempts))
	}
	return rec
}

// standIns serves the batch API and, apart, the ordinary API of the same
// stand-in model.
func standIns(t *testing.T, api wiremodel.API, s *suite.Suite) (*wiremodel.Batches, *httptest.Server, *wiremodel.Handler, *httptest.Server) {
	t.Helper()
	bm := &wiremodel.Handler{API: api, Keys: wiremodel.Keys(s), APIKey: batchKey}
	b := wiremodel.NewBatches(bm)
	bs := httptest.NewServer(b)
	t.Cleanup(bs.Close)
	plain := &wiremodel.Handler{API: api, Keys: wiremodel.Keys(s), APIKey: batchKey}
	ps := httptest.NewServer(plain)
	t.Cleanup(ps.Close)
	return b, bs, plain, ps
}

func batchConfig(t *testing.T, s *suite.Suite, m model.Model, info model.Info, opts *BatchOptions) Config {
	return Config{
		Suite: s, Model: m, ModelInfo: info, Dataset: "pr", Attempts: 2, Concurrency: 1,
		Target: target.Config{Builtins: builtin.All()}, OutDir: filepath.Join(t.TempDir(), "run"),
		Batch: opts,
	}
}

func fastPoll() *BatchOptions {
	return &BatchOptions{Poll: time.Millisecond, MaxPoll: 5 * time.Millisecond}
}

// outcomes grades every attempt of rec.
func outcomes(s *suite.Suite, rec *record.Run) map[record.AttemptKey]grade.Outcome {
	out := map[record.AttemptKey]grade.Outcome{}
	for i := range rec.Attempts {
		a := &rec.Attempts[i]
		out[a.Key()] = grade.Attempt(s, s.Case(a.Case), &rec.Header, a).Outcome
	}
	return out
}

// A tool-call dataset sent as one batch is recorded and graded exactly as
// the same dataset sent request by request, every request is the one the
// ordinary path sends, the batch id is in the header, and it costs half.
func TestBatchRoundTrip(t *testing.T) {
	s := ciSuite(t)
	for _, api := range batchAPIs {
		t.Run(string(api.api), func(t *testing.T) {
			b, bs, plain, ps := standIns(t, api.api, s)
			bm, _ := api.openOn(t, bs.URL)
			var status []string
			opts := fastPoll()
			opts.Status = func(line string) { status = append(status, line) }
			brec, err := Run(context.Background(), batchConfig(t, s, bm, api.info(), opts))
			if err != nil {
				t.Fatal(err)
			}
			pm, _ := api.openOn(t, ps.URL)
			prec, err := Run(context.Background(), batchConfig(t, s, pm, api.info(), nil))
			if err != nil {
				t.Fatal(err)
			}

			if n := len(brec.Attempts); n != 10 || !brec.Complete() {
				t.Fatalf("batched run: %d attempts, complete %v; want all 10", n, brec.Complete())
			}
			if got := b.Count(http.MethodPost, api.create); got != 1 {
				t.Errorf("%d batches created, want 1", got)
			}
			if hb := brec.Header.Batches; len(hb) != 1 || hb[0].ID == "" || hb[0].Requests != 10 || hb[0].Provider != api.info().Provider {
				t.Errorf("header batches %+v, want one of 10 requests", hb)
			}
			if len(status) == 0 || !strings.HasPrefix(status[len(status)-1], "batch "+brec.Header.Batches[0].ID+": 10/10 done") {
				t.Errorf("status lines %q, want the last to say 10/10 done", status)
			}
			for _, a := range brec.Attempts {
				if !a.Batch || a.End != record.EndToolCall || len(a.Turns) != 1 || len(a.Turns[0].Calls) == 0 || !a.Turns[0].Calls[0].NotSent {
					t.Errorf("%s: batch %v, end %s, error %+v, turns %+v; want a batched first tool call, not sent", a.Key(), a.Batch, a.End, a.Error, a.Turns)
				}
			}
			if bo, po := outcomes(s, brec), outcomes(s, prec); fmt.Sprint(bo) != fmt.Sprint(po) {
				t.Errorf("batched grades %v\nordinary grades %v", bo, po)
			}
			for k, o := range outcomes(s, brec) {
				if o != grade.Pass {
					t.Errorf("%s: %s, want pass (the stand-in answers with the key)", k, o)
				}
			}
			sameRequests(t, api, b, plain)

			table, err := price.Parse("", []byte(fmt.Sprintf(`{"provider":%q,"read":"2026-11-30","models":[{"model":%q,"input":3,"output":15,"cache_write":3.75,"cache_read":0.3}]}`, api.info().Provider, api.info().Name)))
			if err != nil {
				t.Fatal(err)
			}
			set := price.NewSet(table...)
			bu, pu := usage.Summarize(brec, set), usage.Summarize(prec, set)
			if bu.Total.Tokens != pu.Total.Tokens {
				t.Errorf("batched tokens %+v, ordinary %+v: want the same", bu.Total.Tokens, pu.Total.Tokens)
			}
			if bc, pc := *bu.Total.CostUSD, *pu.Total.CostUSD; pc == 0 || math.Abs(bc-pc/2) > 1e-12 {
				t.Errorf("batched cost %v, ordinary %v: want half", bc, pc)
			} else {
				t.Logf("10 attempts, %d billed tokens: batched $%.6f, ordinary $%.6f", bu.Total.Tokens.Billed(), bc, pc)
			}
		})
	}
}

// sameRequests checks every request in the batch is, byte for byte once
// decoded, the request the ordinary path sent for the same prompt.
func sameRequests(t *testing.T, api batchAPI, b *wiremodel.Batches, plain *wiremodel.Handler) {
	t.Helper()
	ordinary := map[string]string{} // by prompt
	for _, r := range plain.Requests() {
		if r.Path == api.sends {
			ordinary[promptOf(t, api.api, r.Body)] = canon(t, r.Body)
		}
	}
	var batched []json.RawMessage
	for _, r := range b.Requests() {
		switch {
		case api.api == wiremodel.Anthropic && r.Path == api.create:
			var in struct {
				Requests []struct {
					Params json.RawMessage `json:"params"`
				} `json:"requests"`
			}
			if err := json.Unmarshal(r.Body, &in); err != nil {
				t.Fatal(err)
			}
			for _, q := range in.Requests {
				batched = append(batched, q.Params)
			}
		case api.api == wiremodel.OpenAI && r.Path == "/v1/files":
			start := bytes.Index(r.Body, []byte(`{"custom_id"`))
			end := bytes.LastIndex(r.Body, []byte("}\n"))
			for _, line := range bytes.Split(r.Body[start:end+1], []byte("\n")) {
				var l struct {
					Body json.RawMessage `json:"body"`
				}
				if err := json.Unmarshal(line, &l); err != nil {
					t.Fatalf("input file line %q: %v", line, err)
				}
				batched = append(batched, l.Body)
			}
		}
	}
	if len(batched) != 10 {
		t.Fatalf("%d batched requests, want 10", len(batched))
	}
	for _, q := range batched {
		p := promptOf(t, api.api, q)
		if want, ok := ordinary[p]; !ok || canon(t, q) != want {
			t.Errorf("batched request for %q:\n%s\nthe ordinary path sent:\n%s", p, canon(t, q), want)
		}
	}
}

func promptOf(t *testing.T, api wiremodel.API, body []byte) string {
	t.Helper()
	var v struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatal(err)
	}
	for _, m := range v.Messages {
		if m.Role == "user" {
			return string(m.Content)
		}
	}
	return ""
}

func canon(t *testing.T, b []byte) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(v)
	return string(out)
}

// A run killed while it polls resumes on the same batch: the batch is
// submitted once, and the resumed run records every attempt from it.
func TestBatchResumeReattaches(t *testing.T) {
	s := ciSuite(t)
	for _, api := range batchAPIs {
		t.Run(string(api.api), func(t *testing.T) {
			b, bs, _, _ := standIns(t, api.api, s)
			b.PerPoll = 3
			m, _ := api.openOn(t, bs.URL)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			opts := fastPoll()
			opts.Status = func(string) { cancel() } // killed after the first poll
			cfg := batchConfig(t, s, m, api.info(), opts)
			rec, err := Run(ctx, cfg)
			if err == nil || rec == nil || rec.Complete() {
				t.Fatalf("interrupted run: err %v, record %v; want an incomplete record", err, rec != nil)
			}
			if len(rec.Attempts) != 0 || len(rec.Header.Batches) != 1 || rec.End.Skipped["interrupted"] != 10 {
				t.Fatalf("interrupted run recorded %d attempts, batches %+v, end %+v; want none, the batch, 10 interrupted", len(rec.Attempts), rec.Header.Batches, rec.End)
			}
			old, err := record.Read(cfg.OutDir)
			if err != nil {
				t.Fatal(err)
			}
			cfg.Resume, cfg.Batch = old, &BatchOptions{Poll: time.Millisecond, MaxPoll: time.Millisecond}
			rec, err = Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if !rec.Complete() || len(rec.Attempts) != 10 {
				t.Fatalf("resumed run: complete %v, %d attempts; want all 10", rec.Complete(), len(rec.Attempts))
			}
			if got := b.Count(http.MethodPost, api.create); got != 1 {
				t.Errorf("%d batches created across the kill, want 1", got)
			}
			for _, a := range rec.Attempts {
				if !a.Batch || a.End != record.EndToolCall {
					t.Errorf("%s: batch %v end %s, want from the batch", a.Key(), a.Batch, a.End)
				}
			}
		})
	}
}

// A poll the provider refuses for its rate limit is sent again after the
// wait its retry-after asks for, and the run completes.
func TestBatchPollRetriesAfter429(t *testing.T) {
	s := ciSuite(t)
	for _, api := range batchAPIs {
		t.Run(string(api.api), func(t *testing.T) {
			b, bs, _, _ := standIns(t, api.api, s)
			creates := 1 // anthropic: create; openai: upload, create
			if api.api == wiremodel.OpenAI {
				creates = 2
			}
			b.Faults = make([]wiremodel.Fault, creates+1)
			b.Faults[creates] = wiremodel.Fault{Status: http.StatusTooManyRequests, RetryAfter: "7"}
			m, sl := api.openOn(t, bs.URL)
			runAll(t, s, m, api.info())
			reqs := b.Requests()
			if r := reqs[creates]; r.Method != http.MethodGet || r.Status != http.StatusTooManyRequests {
				t.Fatalf("request %d: %s %s answered %d; want the refused poll", creates+1, r.Method, r.Path, r.Status)
			}
			if r := reqs[creates+1]; r.Method != http.MethodGet || r.Path != reqs[creates].Path || r.Status != http.StatusOK {
				t.Errorf("after the 429: %s %s answered %d; want the same poll again", r.Method, r.Path, r.Status)
			}
			if len(sl.took) != 1 || sl.took[0] != 7*time.Second {
				t.Errorf("waits %v, want the 7s retry-after", sl.took)
			}
		})
	}
}

// A batch that expires before all its requests ran records those as
// errored attempts saying so, and a request the provider refused inside
// a batch that went through is an errored attempt with the provider's
// reason; neither is a fail, and the answered ones are recorded as usual.
func TestBatchExpiredAndErroredRequests(t *testing.T) {
	s := ciSuite(t)
	refused := s.Case("pr/get_fx_exposure/foreign-share").Prompt
	for _, api := range batchAPIs {
		t.Run(string(api.api), func(t *testing.T) {
			b, bs, _, _ := standIns(t, api.api, s)
			delete(b.Model.Keys, refused) // the stand-in refuses this request
			b.PerPoll, b.ExpireAt = 6, 2  // 6 end at the first poll, the rest expire at the second
			m, _ := api.openOn(t, bs.URL)
			rec := runAll(t, s, m, api.info())
			var expired, errored, answered int
			for _, a := range rec.Attempts {
				if !a.Batch {
					t.Errorf("%s: not marked batched", a.Key())
				}
				switch {
				case a.End == record.EndToolCall:
					answered++
				case a.End == record.EndError && a.Error.Kind == record.KindProvider && strings.Contains(a.Error.Message, "expired"):
					expired++
				case a.End == record.EndError && a.Error.Kind == record.KindProvider && strings.Contains(a.Error.Message, "errored") && strings.Contains(a.Error.Message, "no case has the prompt"):
					errored++
					if a.Prompt != refused {
						t.Errorf("%s errored, but only %q was refused", a.Key(), refused)
					}
				default:
					t.Errorf("%s: end %s error %+v", a.Key(), a.End, a.Error)
				}
				if a.Error != nil && strings.Contains(a.Error.Message, batchKey) {
					t.Errorf("%s: the API key is in the record", a.Key())
				}
			}
			if expired != 4 || errored != 2 || answered != 4 {
				t.Errorf("expired %d, errored %d, answered %d; want 4, 2, 4", expired, errored, answered)
			}
			for k, o := range outcomes(s, rec) {
				if o == grade.Fail {
					t.Errorf("%s failed: a request the batch did not answer is an error, not a fail", k)
				}
			}
		})
	}
}

// A run the batch API cannot take is refused before anything is sent: a
// model without one, and a case that may need a second turn.
func TestCheckBatch(t *testing.T) {
	s := ciSuite(t)
	info := model.Info{Spec: "fake:perfect", Provider: "fake", Name: "perfect", Fake: true}
	fm, err := fake.New("perfect", s)
	if err != nil {
		t.Fatal(err)
	}
	cfg := batchConfig(t, s, fm, info, fastPoll())
	if _, err := Run(context.Background(), cfg); !errors.Is(err, ErrBatch) || !strings.Contains(err.Error(), "fake:perfect has no batch API") {
		t.Errorf("fake model: %v, want no batch API", err)
	}
	m, err := batchAPIs[0].open("http://127.0.0.1:1", retry.Policy{})
	if err != nil {
		t.Fatal(err)
	}
	cfg = batchConfig(t, s, m, batchAPIs[0].info(), fastPoll())
	cfg.Dataset = "merge"
	if _, err := Run(context.Background(), cfg); !errors.Is(err, ErrBatch) || !strings.Contains(err.Error(), "merge/") || !strings.Contains(err.Error(), "mode: tool-call") {
		t.Errorf("agent cases: %v, want them named as needing more turns", err)
	}
	cfg.Dataset = "pr"
	if err := CheckBatch(cfg); err != nil {
		t.Errorf("tool-call dataset: %v", err)
	}
}

// The id a request carries in a batch is one both providers accept, and
// attempts of cases whose ids are made alike stay apart.
func TestBatchID(t *testing.T) {
	seen := map[string]record.Planned{}
	for _, p := range []record.Planned{
		{Case: "pr/get_net_worth/now", N: 1}, {Case: "pr/get_net_worth/now", N: 2},
		{Case: "pr_get_net_worth_now", N: 1}, {Case: strings.Repeat("long/", 40), N: 12},
		{Case: "ünïcode case", N: 3},
	} {
		id := batchID(p)
		if !wiremodel.ValidCustomID(id) {
			t.Errorf("%v: id %q is not [a-zA-Z0-9_-]{1,64}", p, id)
		}
		if q, dup := seen[id]; dup {
			t.Errorf("%v and %v share the id %q", p, q, id)
		}
		seen[id] = p
	}
}

// A resumed run records what its batch answered and asks again, the
// ordinary way and at the ordinary price, for what it did not: here the
// requests left when the batch expired while the run was stopped.
func TestBatchResumeAsksAgainForExpired(t *testing.T) {
	s := ciSuite(t)
	for _, api := range batchAPIs {
		t.Run(string(api.api), func(t *testing.T) {
			b, bs, _, _ := standIns(t, api.api, s)
			b.PerPoll, b.ExpireAt = 6, 2
			m, _ := api.openOn(t, bs.URL)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			opts := fastPoll()
			opts.Status = func(string) { cancel() }
			cfg := batchConfig(t, s, m, api.info(), opts)
			if _, err := Run(ctx, cfg); err == nil {
				t.Fatal("the interrupted run did not say so")
			}
			old, err := record.Read(cfg.OutDir)
			if err != nil {
				t.Fatal(err)
			}
			cfg.Resume, cfg.Batch = old, fastPoll()
			rec, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			var batched, ordinary int
			for _, a := range rec.Attempts {
				if a.End != record.EndToolCall {
					t.Errorf("%s: end %s error %+v, want answered", a.Key(), a.End, a.Error)
				}
				if a.Batch {
					batched++
				} else {
					ordinary++
				}
			}
			if !rec.Complete() || batched != 6 || ordinary != 4 {
				t.Errorf("complete %v, %d from the batch, %d asked again; want 6 and 4", rec.Complete(), batched, ordinary)
			}
			if got := b.Count(http.MethodPost, api.create); got != 1 {
				t.Errorf("%d batches created, want 1", got)
			}
		})
	}
}

// Polls start 10s apart and grow by half each time, to 2 minutes at most.
func TestBatchPollWaits(t *testing.T) {
	o := BatchOptions{}.withDefaults()
	if o.Poll != 10*time.Second || o.MaxPoll != 2*time.Minute {
		t.Fatalf("defaults %v, %v; want 10s, 2m", o.Poll, o.MaxPoll)
	}
	var waits []time.Duration
	for d := o.Poll; len(waits) < 9; d = o.next(d) {
		waits = append(waits, d)
	}
	want := []time.Duration{10 * time.Second, 15 * time.Second, 22500 * time.Millisecond, 33750 * time.Millisecond,
		50625 * time.Millisecond, 75937500 * time.Microsecond, 113906250 * time.Microsecond, 2 * time.Minute, 2 * time.Minute}
	if fmt.Sprint(waits) != fmt.Sprint(want) {
		t.Errorf("waits %v\nwant  %v", waits, want)
	}
	if o := (BatchOptions{Poll: 5 * time.Minute}).withDefaults(); o.MaxPoll != 5*time.Minute {
		t.Errorf("a first wait over the cap: max %v, want the first wait", o.MaxPoll)
	}
}

// A batch that cannot be polled (the provider keeps failing) leaves the
// run incomplete with its attempts unrecorded and a warning, and a resumed
// run reads the same batch.
func TestBatchPollFailureIsResumable(t *testing.T) {
	s := ciSuite(t)
	api := batchAPIs[0]
	b, bs, _, _ := standIns(t, api.api, s)
	b.Faults = []wiremodel.Fault{{}, {Status: 500}, {Status: 500}, {Status: 500}, {Status: 500}} // every try of the first poll
	m, _ := api.openOn(t, bs.URL)
	var warned []string
	cfg := batchConfig(t, s, m, api.info(), fastPoll())
	cfg.Warn = func(w string) { warned = append(warned, w) }
	rec, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Complete() || len(rec.Attempts) != 0 || rec.End.Skipped["batch poll failed"] != 10 || rec.End.Reason != "a batch could not be polled" {
		t.Fatalf("complete %v, %d attempts, end %+v; want incomplete with 10 left for the resume", rec.Complete(), len(rec.Attempts), rec.End)
	}
	if len(warned) == 0 {
		t.Fatal("no warning of the failed poll")
	}
	if last := warned[len(warned)-1]; !strings.Contains(last, "polling batch "+rec.Header.Batches[0].ID) || !strings.Contains(last, "--resume") {
		t.Errorf("warnings %q, want the failed poll and how to go on", warned)
	}
	cfg.Resume, cfg.Warn = rec, nil
	rec, err = Run(context.Background(), cfg)
	if err != nil || !rec.Complete() || len(rec.Attempts) != 10 || b.Count(http.MethodPost, api.create) != 1 {
		t.Errorf("resumed: err %v, complete %v, %d attempts, %d batches created; want all 10 from the one batch", err, rec != nil && rec.Complete(), len(rec.Attempts), b.Count(http.MethodPost, api.create))
	}
}
