package providertest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpeval/mcpeval/model"
)

// Recorder is an httptest server for a provider's own unit tests: each
// request gets the next reply in turn (the last one repeats), and its body,
// headers and method and path are kept for the test to inspect once the
// model has answered.
type Recorder struct {
	// URL is the server's root URL.
	URL string

	mu      sync.Mutex
	replies []func(http.ResponseWriter, *http.Request)
	// Reqs are the request bodies as JSON objects, Raw as sent.
	Reqs []map[string]any
	Raw  [][]byte
	// Headers are the requests' headers, Paths their "METHOD /path".
	Headers []http.Header
	Paths   []string
}

// NewRecorder starts a Recorder answering with replies, closed when the test
// ends. A request body that is not JSON fails the test.
func NewRecorder(t *testing.T, replies ...func(http.ResponseWriter, *http.Request)) *Recorder {
	f := &Recorder{replies: replies}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var v map[string]any
		if err := json.Unmarshal(body, &v); err != nil {
			t.Errorf("request body is not JSON: %v", err)
		}
		f.mu.Lock()
		n := len(f.Reqs)
		f.Reqs = append(f.Reqs, v)
		f.Raw = append(f.Raw, body)
		f.Headers = append(f.Headers, r.Header.Clone())
		f.Paths = append(f.Paths, r.Method+" "+r.URL.Path)
		reply := f.replies[min(n, len(f.replies)-1)]
		f.mu.Unlock()
		reply(w, r)
	}))
	t.Cleanup(srv.Close)
	f.URL = srv.URL
	return f
}

// Count returns how many requests have come.
func (f *Recorder) Count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.Reqs)
}

// Reply is a reply of status with a JSON body and the given headers, as
// name, value pairs.
func Reply(status int, body string, header ...string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

// NoSecret fails the test if a planted secret (anything containing
// "PLANTED") appears in v's JSON, in err, or in the tries err records.
func NoSecret(t *testing.T, v any, err error) {
	t.Helper()
	b, _ := json.Marshal(v)
	if bytes.Contains(b, []byte("PLANTED")) {
		t.Errorf("the API key leaked into %s", b)
	}
	if err != nil && strings.Contains(err.Error(), "PLANTED") {
		t.Errorf("the API key leaked into the error: %v", err)
	}
	var pe *model.ProviderError
	if errors.As(err, &pe) {
		NoSecret(t, pe.Tries, nil)
	}
}

// EnvKeyStaysWithItsEndpoint checks a provider's FromEnv, called through
// fromEnv, with the API key in the environment variable keyVar and its
// endpoint in urlVar: the key goes with that endpoint (the environment's own,
// or a spec's base_url naming the same one) and never to another a spec's
// base_url names.
func EnvKeyStaysWithItsEndpoint(t *testing.T, keyVar, urlVar string, fromEnv func(model.Info) (key, baseURL string)) {
	t.Helper()
	t.Setenv(keyVar, "sk-env")
	t.Setenv(urlVar, "http://env.test/v1")
	if k, u := fromEnv(model.Info{}); k != "sk-env" || u != "http://env.test/v1" {
		t.Errorf("env endpoint: key %q, base URL %q", k, u)
	}
	if k, u := fromEnv(model.Info{Options: map[string]string{"base_url": "http://other.test/v1"}}); k != "" || u != "http://other.test/v1" {
		t.Errorf("a spec base_url got the environment's key: key %q, base URL %q", k, u)
	}
	if k, u := fromEnv(model.Info{Options: map[string]string{"base_url": "http://env.test/v1"}}); k != "sk-env" {
		t.Errorf("the same endpoint lost its key: key %q, base URL %q", k, u)
	}
}

// Hello is the smallest request: one user message, "hello", no tools.
func Hello() *model.Request {
	return &model.Request{Messages: []model.Message{{Role: model.User, Blocks: []model.Block{{Kind: model.Text, Text: "hello"}}}}}
}

// NotRetried checks an answer that must not be retried: m, whose stand-in
// f answers Hello with it first, returns a *model.ProviderError after one
// request and one try, recorded with status, an error containing text and
// no wait, and the planted secret appears nowhere.
func NotRetried(t *testing.T, f *Recorder, m model.Model, status int, text string) {
	t.Helper()
	_, err := m.Generate(context.Background(), Hello())
	var pe *model.ProviderError
	if !errors.As(err, &pe) {
		t.Fatalf("err = %v, want a *model.ProviderError", err)
	}
	if f.Count() != 1 || len(pe.Tries) != 1 {
		t.Fatalf("%d requests, %d tries; want 1, 1", f.Count(), len(pe.Tries))
	}
	if tr := pe.Tries[0]; tr.Status != status || !strings.Contains(tr.Error, text) || tr.WaitMS != 0 {
		t.Errorf("try = %+v, want status %d and %q", tr, status, text)
	}
	NoSecret(t, nil, err)
}

// Refuses checks that open (a provider's New) refuses each spec of
// refusals, given cfg, with an error containing the text it maps to.
func Refuses[C, M any](t *testing.T, open func(model.Info, C) (M, error), cfg C, refusals map[string]string) {
	t.Helper()
	for spec, want := range refusals {
		info, err := model.ParseSpec(spec)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := open(info, cfg); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("opening %s = %v, want an error containing %q", spec, err, want)
		}
	}
}

// TriesRunOut checks a provider that keeps failing: m, whose stand-in f
// answers every request with status and whose retry policy sleeps with s
// and allows tries tries, returns no answer but a *model.ProviderError
// after tries requests, each try recorded with status and the error
// errText and with the wait that followed it, and the error says errText.
// The planted secret appears nowhere.
func TriesRunOut(t *testing.T, f *Recorder, m model.Model, s *Sleeps, tries, status int, errText string) {
	t.Helper()
	resp, err := m.Generate(context.Background(), Hello())
	var pe *model.ProviderError
	if !errors.As(err, &pe) || resp != nil {
		t.Fatalf("Generate = %v, %v; want a *model.ProviderError", resp, err)
	}
	if f.Count() != tries || len(pe.Tries) != tries || len(s.D) != tries-1 {
		t.Fatalf("%d requests, %d tries, %d waits; want %d, %d, %d", f.Count(), len(pe.Tries), len(s.D), tries, tries, tries-1)
	}
	for i, tr := range pe.Tries {
		if tr.Status != status || tr.Error != errText {
			t.Errorf("try %d = %+v", i, tr)
		}
		if i < tries-1 && tr.WaitMS != s.D[i].Milliseconds() {
			t.Errorf("try %d recorded wait %dms, slept %v", i, tr.WaitMS, s.D[i])
		}
	}
	if !strings.Contains(err.Error(), errText) {
		t.Errorf("error %q does not say what the provider answered", err)
	}
	NoSecret(t, nil, err)
}

// RetriedAfter checks a provider told to wait: m, whose stand-in f answers
// Hello first with a refusal worth trying again and then with an answer,
// and whose retry policy sleeps with s, answers after two requests, with
// the refusal recorded as the one try want and wait slept once, as the
// refusal asked. The planted secret appears nowhere.
func RetriedAfter(t *testing.T, f *Recorder, m model.Model, s *Sleeps, want model.Try, wait time.Duration) {
	t.Helper()
	resp, err := m.Generate(context.Background(), Hello())
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Tries) != 1 || resp.Tries[0] != want {
		t.Errorf("tries %+v, want [%+v]", resp.Tries, want)
	}
	if len(s.D) != 1 || s.D[0] != wait {
		t.Errorf("waits %v, want [%v]", s.D, wait)
	}
	if f.Count() != 2 {
		t.Errorf("%d requests, want 2", f.Count())
	}
	NoSecret(t, resp, nil)
}

// Stall is a reply that never answers: the request ends when the client
// gives up on it, which it then says on the channel returned ("client gave
// up"), or when the test ends. Ten seconds is a guard against hanging, not
// a measurement.
func Stall(t *testing.T) (func(http.ResponseWriter, *http.Request), <-chan string) {
	done := t.Context().Done() // before the Recorder's server is closed
	ended := make(chan string, 8)
	return func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
			ended <- "client gave up"
		case <-done:
			ended <- "released"
		case <-time.After(10 * time.Second):
			ended <- "not cut off: the server stopped waiting"
		}
	}, ended
}

// Reset is a reply that closes the connection without an answer.
func Reset(t *testing.T) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		conn.Close()
	}
}

// TwoTurns checks a conversation of two turns through m, whose stand-in
// answers with a turn of tool calls and then with "Stopped web.". It sends
// tools and the user's "Stop web." under the system prompt "You operate
// containers."; the answer must be first, latency aside, with the planted
// secret nowhere. It then sends that answer back followed by results, as
// the user's tool results; the second answer must say "Stopped web." with
// the stop reason stop and usage. The requests, as the stand-in kept them,
// are the caller's to check.
func TwoTurns(t *testing.T, m model.Model, tools []model.Tool, first *model.Response, results []model.Result, stop string, usage model.Usage) {
	t.Helper()
	req := &model.Request{
		System:   "You operate containers.",
		Tools:    tools,
		Messages: []model.Message{user("Stop web.")},
	}
	resp, err := m.Generate(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	NoSecret(t, resp, err)
	resp.Latency = 0
	if d := cmp.Diff(first, resp); d != "" {
		t.Fatalf("response (-want +got):\n%s", d)
	}
	back := model.Message{Role: model.User}
	for _, r := range results {
		back.Blocks = append(back.Blocks, model.Block{Kind: model.ToolResult, Result: &r})
	}
	req.Messages = append(req.Messages, resp.Message, back)
	resp2, err := m.Generate(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if resp2.Usage != usage || resp2.StopReason != stop || resp2.Message.TextOf() != "Stopped web." {
		t.Errorf("second answer: %+v, want %q with usage %+v and stop reason %q", resp2, "Stopped web.", usage, stop)
	}
}

// Open parses spec, failing the test if it is not a model spec, and opens
// it with open (a provider's New) and cfg.
func Open[C, M any](t *testing.T, spec string, cfg C, open func(model.Info, C) (M, error)) (M, error) {
	t.Helper()
	info, err := model.ParseSpec(spec)
	if err != nil {
		t.Fatal(err)
	}
	return open(info, cfg)
}

// MustOpen is Open for a spec and cfg that must open: it fails the test if
// open refuses them.
func MustOpen[C, M any](t *testing.T, spec string, cfg C, open func(model.Info, C) (M, error)) M {
	t.Helper()
	m, err := Open(t, spec, cfg, open)
	if err != nil {
		t.Fatalf("opening %s: %v", spec, err)
	}
	return m
}
