// Package providertest is the test suite every real provider passes: one
// conversation (text, tool calls under mapped names, tool results, an
// error result, parallel calls), the faults a provider answers with (429
// with retry-after, 503 and 529 overloads, 500, a 400, a malformed body, a
// reset connection, no answer in time, tries running out), and secrecy (the
// secret never appears in a response, an error, a recorded try or the
// log, even when the server echoes it back).
//
// A provider's test calls Run with a Provider saying how to open the model
// against a wiremodel.Handler speaking its wire format. A new provider gets
// every test by adding a stand-in to package wiremodel and one Run call.
// A provider with a batch API also calls Batches with a BatchClient.
package providertest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/internal/retry"
	"github.com/mcpeval/mcpeval/internal/testkit/wiremodel"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/suite"
)

// Provider is a provider under test.
type Provider struct {
	// API is the wire format of the provider's stand-in.
	API wiremodel.API
	// HandlerKey is what the stand-in requires of every request
	// (wiremodel.Handler.APIKey): the API key, or for Bedrock the access
	// key id of the signature.
	HandlerKey string
	// Secret is what must never come out: the API key, or for Bedrock the
	// secret access key. It must contain "PLANTED".
	Secret string
	// Open opens the model for the spec's model name against the stand-in
	// at url (the server's root URL), with the key or credentials above and
	// the given timeout and retry policy.
	Open func(t *testing.T, url string, opts Options) (model.Model, error)
}

// Options are what the suite varies between the models it opens.
type Options struct {
	Timeout time.Duration
	Retry   retry.Policy
}

// Run runs the whole suite against p.
func Run(t *testing.T, p Provider) {
	if !strings.Contains(p.Secret, "PLANTED") {
		t.Fatalf("providertest: the secret %q must contain PLANTED", p.Secret)
	}
	t.Run("Conversation", func(t *testing.T) { Conversation(t, p) })
	t.Run("ParallelCalls", func(t *testing.T) { ParallelCalls(t, p) })
	t.Run("Faults", func(t *testing.T) { Faults(t, p) })
	t.Run("Secrecy", func(t *testing.T) { Secrecy(t, p) })
}

// Prompt is the conversation's opening; Key is its correct answer, made of
// calls to tools whose names providers refuse as they are.
const Prompt = "Stop the web container."

// Key is what the stand-in answers Prompt with.
var Key = suite.Key{
	Calls: []suite.KeyCall{
		{Tool: "list containers", Args: map[string]any{"all": true, "limit": 10}},
		{Tool: "container.stop", Args: map[string]any{"id": "web"}},
	},
	Answer: "Stopped web.",
}

// Tools are the tools offered: two with names that must be mapped (a space,
// a dot) and one whose name is too long for any provider.
var Tools = []model.Tool{
	{Name: "list containers", Description: "Lists containers.", InputSchema: json.RawMessage(`{"type":"object","properties":{"all":{"type":"boolean"},"limit":{"type":"integer","maximum":100}}}`)},
	{Name: "container.stop", Description: "Stops one.", InputSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`)},
	{Name: strings.Repeat("x", 70), Description: "A tool with a long name."},
}

// Stand is a running stand-in.
type Stand struct {
	H   *wiremodel.Handler
	URL string
}

// Serve starts p's stand-in with the given faults.
func Serve(t *testing.T, p Provider, faults ...wiremodel.Fault) *Stand {
	t.Helper()
	h := &wiremodel.Handler{API: p.API, Keys: map[string]suite.Key{Prompt: Key}, Faults: faults, APIKey: p.HandlerKey}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &Stand{H: h, URL: srv.URL}
}

// Sleeps records the waits of a retry policy, without waiting.
type Sleeps struct {
	mu sync.Mutex
	D  []time.Duration
}

// Sleep is a retry.Policy.Sleep.
func (s *Sleeps) Sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.D = append(s.D, d)
	return ctx.Err()
}

func open(t *testing.T, p Provider, st *Stand, opts Options) model.Model {
	t.Helper()
	if opts.Retry.Sleep == nil {
		opts.Retry.Sleep = (&Sleeps{}).Sleep
	}
	m, err := p.Open(t, st.URL, opts)
	if err != nil {
		t.Fatalf("opening the model: %v", err)
	}
	return m
}

func user(text string) model.Message {
	return model.Message{Role: model.User, Blocks: []model.Block{{Kind: model.Text, Text: text}}}
}

// Request is the conversation's first request: the user's Prompt, with
// Tools offered under the system prompt "You operate containers.".
func Request() *model.Request {
	return &model.Request{CaseID: "conv/1", System: "You operate containers.", Tools: Tools, Messages: []model.Message{user(Prompt)}}
}

// sameJSON reports whether a and b are the same JSON value.
func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}

func argsOf(k suite.KeyCall) []byte {
	b, _ := json.Marshal(k.Args)
	return b
}

// Conversation: three turns over the wire. The model calls a tool under
// its mapped name, which comes back as the MCP name with the wire name
// kept; the result goes back and answers the call; the second call's error
// result goes back too; then the model answers in text. Every turn has
// usage, a stop reason and no retries, and every request carried the key.
func Conversation(t *testing.T, p Provider) {
	st := Serve(t, p)
	m := open(t, p, st, Options{})
	req := Request()
	for turn, k := range Key.Calls {
		resp, err := m.Generate(context.Background(), req)
		if err != nil {
			t.Fatalf("turn %d: %v", turn+1, err)
		}
		calls := resp.Message.Calls()
		if len(calls) != 1 {
			t.Fatalf("turn %d: %d calls, want 1: %+v", turn+1, len(calls), resp.Message)
		}
		c := calls[0]
		if c.Name != k.Tool || c.ID == "" || !sameJSON(c.Args, argsOf(k)) {
			t.Errorf("turn %d: call %+v (args %s), want %s %s with an id", turn+1, c, c.Args, k.Tool, argsOf(k))
		}
		if c.WireName == "" || c.WireName == c.Name {
			t.Errorf("turn %d: the wire name %q of %q was not kept", turn+1, c.WireName, c.Name)
		}
		if resp.Message.Role != model.Assistant || resp.StopReason == "" || resp.Usage.Input <= 0 || resp.Usage.Output <= 0 || len(resp.Tries) != 0 {
			t.Errorf("turn %d: role %q, stop %q, usage %+v, tries %v", turn+1, resp.Message.Role, resp.StopReason, resp.Usage, resp.Tries)
		}
		result := &model.Result{CallID: c.ID, Name: c.Name, Content: `[{"id":"web","state":"running"}]`}
		if turn == 1 {
			result = &model.Result{CallID: c.ID, Name: c.Name, Content: "no such container: web", IsError: true}
		}
		req.Messages = append(req.Messages, resp.Message, model.Message{Role: model.User, Blocks: []model.Block{{Kind: model.ToolResult, Result: result}}})
	}
	resp, err := m.Generate(context.Background(), req)
	if err != nil {
		t.Fatalf("last turn: %v", err)
	}
	if got := resp.Message.TextOf(); got != Key.Answer || len(resp.Message.Calls()) != 0 {
		t.Errorf("last turn: text %q, calls %v; want %q", got, resp.Message.Calls(), Key.Answer)
	}
	if n := st.H.Count(); n != 3 {
		t.Errorf("%d requests for 3 turns", n)
	}
	for _, r := range st.H.Requests() {
		if r.Status != 200 {
			t.Errorf("request %d answered %d: %s", r.N, r.Status, r.Body)
		}
	}
	// The error result must have reached the wire marked as an error.
	last := st.H.Requests()[2].Body
	if !bytes.Contains(last, []byte("no such container: web")) {
		t.Errorf("the error result is not in the last request: %s", last)
	}
	for _, tool := range Tools[:2] {
		if bytes.Contains(last, []byte(`"`+tool.Name+`"`)) {
			t.Errorf("the MCP name %q went over the wire unmapped", tool.Name)
		}
	}
}

// ParallelCalls: a turn with both calls at once; both results go back in
// one message, each answering its own call.
func ParallelCalls(t *testing.T, p Provider) {
	st := Serve(t, p)
	st.H.Parallel = true
	m := open(t, p, st, Options{})
	req := Request()
	resp, err := m.Generate(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	calls := resp.Message.Calls()
	if len(calls) != 2 || calls[0].Name != Key.Calls[0].Tool || calls[1].Name != Key.Calls[1].Tool || calls[0].ID == calls[1].ID {
		t.Fatalf("calls %+v, want both key calls with distinct ids", calls)
	}
	var results []model.Block
	for _, c := range calls {
		results = append(results, model.Block{Kind: model.ToolResult, Result: &model.Result{CallID: c.ID, Name: c.Name, Content: "done"}})
	}
	req.Messages = append(req.Messages, resp.Message, model.Message{Role: model.User, Blocks: results})
	resp, err = m.Generate(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Message.TextOf() != Key.Answer {
		t.Errorf("answer %q, want %q", resp.Message.TextOf(), Key.Answer)
	}
}

// Faults: each fault on the first request(s), then a normal answer (or
// none). Worth-retrying refusals are retried, honouring retry-after, and
// recorded; the others end the turn as a *model.ProviderError at once.
func Faults(t *testing.T, p Provider) {
	for _, c := range []struct {
		name    string
		faults  []wiremodel.Fault
		opts    Options
		status  []int           // statuses of the recorded tries
		waits   []time.Duration // waits asked of the policy; nil: not checked
		fails   bool            // the turn ends in a ProviderError
		message string          // in the last try's error
	}{
		{name: "429 retry-after", faults: []wiremodel.Fault{{Status: 429, RetryAfter: "2"}}, status: []int{429}, waits: []time.Duration{2 * time.Second}},
		{name: "429 retry-after-ms", faults: []wiremodel.Fault{{Status: 429, RetryAfterMS: "1500"}}, status: []int{429}, waits: []time.Duration{1500 * time.Millisecond}},
		{name: "503", faults: []wiremodel.Fault{{Status: 503}}, status: []int{503}},
		{name: "529", faults: []wiremodel.Fault{{Status: 529}}, status: []int{529}},
		{name: "500 twice", faults: []wiremodel.Fault{{Status: 500}, {Status: 500}}, status: []int{500, 500}},
		{name: "400", faults: []wiremodel.Fault{{Status: 400}}, status: []int{400}, fails: true},
		{name: "malformed", faults: []wiremodel.Fault{{Malformed: true}}, status: []int{200}, fails: true, message: "reading the answer"},
		{name: "reset", faults: []wiremodel.Fault{{Reset: true}}, status: []int{0}, message: "connection reset"},
		{name: "timeout", faults: []wiremodel.Fault{{Delay: 5 * time.Second}}, opts: Options{Timeout: 200 * time.Millisecond}, status: []int{0}, message: "no answer within 200ms"},
		{name: "retry-after too long", faults: []wiremodel.Fault{{Status: 429, RetryAfter: "3600"}}, status: []int{429}, fails: true},
		{name: "tries run out", faults: []wiremodel.Fault{{Status: 503}, {Status: 503}, {Status: 503}}, opts: Options{Retry: retry.Policy{MaxTries: 3}}, status: []int{503, 503, 503}, fails: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := Serve(t, p, c.faults...)
			s := &Sleeps{}
			c.opts.Retry.Sleep = s.Sleep
			m := open(t, p, st, c.opts)
			resp, err := m.Generate(context.Background(), Request())
			var tries []model.Try
			if c.fails {
				var pe *model.ProviderError
				if !errors.As(err, &pe) {
					t.Fatalf("got %v, %v; want a provider error", resp, err)
				}
				tries = pe.Tries
			} else {
				if err != nil {
					t.Fatalf("got %v; want an answer after the fault", err)
				}
				if len(resp.Message.Calls()) != 1 {
					t.Errorf("the answer after the fault: %+v", resp.Message)
				}
				tries = resp.Tries
			}
			var got []int
			for _, tr := range tries {
				got = append(got, tr.Status)
				if tr.Error == "" {
					t.Errorf("try %d has no error text", tr.Status)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(c.status) {
				t.Errorf("tries %+v, want statuses %v", tries, c.status)
			}
			if c.message != "" && (len(tries) == 0 || !strings.Contains(tries[len(tries)-1].Error, c.message)) {
				t.Errorf("tries %+v, want the last to say %q", tries, c.message)
			}
			if c.waits != nil && fmt.Sprint(s.D) != fmt.Sprint(c.waits) {
				t.Errorf("waited %v, want %v (the server's retry-after)", s.D, c.waits)
			}
			if c.waits != nil && len(tries) > 0 && tries[0].WaitMS != c.waits[0].Milliseconds() {
				t.Errorf("try recorded a wait of %dms, want %dms", tries[0].WaitMS, c.waits[0].Milliseconds())
			}
			want := len(c.status)
			if !c.fails {
				want++
			}
			if n := st.H.Count(); n != want {
				t.Errorf("%d requests, want %d", n, want)
			}
		})
	}
}

// Secrecy: the server echoes the secret in a 429's body, in a 401/403's
// body (with an Authorization header spelled out) and in a malformed
// answer; the secret reaches none of the responses, errors, recorded tries
// or log lines.
func Secrecy(t *testing.T, p Provider) {
	var logs bytes.Buffer
	prev := log.Writer()
	log.SetOutput(&logs)
	t.Cleanup(func() { log.SetOutput(prev) })
	probe := &wiremodel.Handler{API: p.API}
	echo := func(status int, kind string) string {
		return probe.ErrorJSON(status, kind, fmt.Sprintf("key %s refused (Authorization: Bearer %s; api-key: %s)", p.Secret, p.Secret, p.Secret))
	}
	st := Serve(t, p,
		wiremodel.Fault{Status: 429, RetryAfterMS: "1", Body: echo(429, "rate_limit_error")},
		wiremodel.Fault{Status: 401, Body: echo(401, "authentication_error")},
		wiremodel.Fault{Malformed: true, Body: `{"id":"x","key":"` + p.Secret + `","content":[`},
		wiremodel.Fault{Status: 403, Body: echo(403, "permission_error")},
	)
	m := open(t, p, st, Options{})
	var out []any
	for i := 0; i < 4; i++ {
		resp, err := m.Generate(context.Background(), Request())
		out = append(out, resp)
		if err != nil {
			out = append(out, err.Error())
			var pe *model.ProviderError
			if errors.As(err, &pe) {
				out = append(out, pe.Tries)
			}
		}
	}
	if st.H.Count() != 5 {
		t.Errorf("%d requests, want 5 (the 429 is retried)", st.H.Count())
	}
	b, _ := json.Marshal(out)
	if !bytes.Contains(b, []byte("redacted")) {
		t.Errorf("no [redacted] mark: the echoed secret never reached an error\n%s", b)
	}
	leak(t, p.Secret, "responses and errors", b)
	log.SetOutput(prev)
	leak(t, p.Secret, "the log", logs.Bytes())
}

func leak(t *testing.T, secret, where string, b []byte) {
	t.Helper()
	if i := bytes.Index(b, []byte(secret)); i >= 0 || bytes.Contains(b, []byte("PLANTED")) {
		i = max(0, bytes.Index(b, []byte("PLANTED"))-80)
		t.Errorf("the secret leaked into %s: …%s…", where, b[i:min(len(b), i+200)])
	}
}
