package view

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/internal/builtin"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// hostile is written into every field a model, a tool, a server or a
// person fills; a page that runs it sets window.__pwned.
const hostile = `<script>window.__pwned=1</script><img src=x onerror="window.__pwned=1">"'&</textarea>`

// testSuite loads the suite a run's header names.
func testSuite(h *record.Header) (*suite.Suite, error) { return suite.Load(h.Suite.Path) }

// answer is one attempt to write: its case and final answer.
type answer struct {
	Case, Answer string
}

// right and wrong answers to the test suite's cases.
const (
	rightWorth   = "Net worth is SGD 2,394,755."
	wrongWorth   = "Net worth is SGD 2,261,924. " + hostile
	rightDeposit = "The fixed deposit holds SGD 210,000."
)

// writeRun writes a run of the test suite to dir: its header planning
// attempts, then every attempt and an end; or, when open, the first
// attempt only, as a run in progress.
func writeRun(t *testing.T, dir, id, modelSpec string, start time.Time, attempts []answer, open bool) *record.Writer {
	t.Helper()
	path, _ := filepath.Abs("testdata/suite.yaml")
	h := &record.Header{
		RunID: id, Start: start,
		Tool:         record.Build{Name: "mcpeval", Version: "test " + hostile},
		Model:        model.Info{Spec: modelSpec, Provider: "fake", Name: modelSpec, Fake: true},
		Suite:        record.SuiteInfo{Name: "view-test", Path: path, Hash: "abc", Cases: 2},
		Target:       record.TargetInfo{Spec: "builtin:household", Server: record.Build{Name: "household " + hostile, Version: "1"}},
		SystemPrompt: "Answer with the tools. " + hostile,
		Tools: []record.Tool{
			{Name: "get_net_worth", Description: "Net worth. " + hostile, InputSchema: json.RawMessage(`{"type":"object","properties":{"as_of":{"type":"string","description":"` + "\\u003cscript\\u003e" + `"}}}`), ReadOnly: true},
			{Name: "get_accounts", Description: "Accounts.", ReadOnly: true},
		},
		ServerTools: []record.Tool{
			{Name: "get_net_worth", Description: "Old words. " + hostile, ReadOnly: true},
			{Name: "get_accounts", Description: "Accounts.", ReadOnly: true},
		},
		Overlay:   &record.Overlay{Path: "overlay-" + hostile + ".yaml", Hash: "f00"},
		ToolsHash: "deadbeef", Attempts: 4,
		Preflight: record.Preflight{Valid: true},
	}
	count := map[string]int{}
	for _, a := range attempts {
		count[a.Case]++
		h.Planned = append(h.Planned, record.Planned{Case: a.Case, N: count[a.Case]})
	}
	w, err := record.Create(dir, h)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for i, a := range attempts {
		if open && i > 0 {
			break
		}
		seen[a.Case]++
		writeAttempt(t, w, a, seen[a.Case])
	}
	if !open {
		if err := w.End(&record.End{Finish: start.Add(time.Minute), Complete: true}); err != nil {
			t.Fatal(err)
		}
		w.Close()
	}
	return w
}

func writeAttempt(t *testing.T, w *record.Writer, a answer, n int) {
	t.Helper()
	tool := "get_net_worth"
	if a.Case == "money/deposit" {
		tool = "get_accounts"
	}
	rec := &record.Attempt{
		Case: a.Case, N: n, Prompt: "asked " + hostile, Start: time.Unix(0, 0), DurationMS: 1234,
		Turns: []record.Turn{
			{Text: "Let me look. " + hostile, Thinking: "thinking " + hostile, LatencyMS: 800, Usage: model.Usage{Input: 1200, Output: 80},
				Calls: []record.Call{{ID: "c1", Name: tool, Args: json.RawMessage(`{"note":"` + "\\u003c/script\\u003e" + `"}`), Result: "Net worth as of 2026-09-30: SGD 2,394,755; fixed deposit SGD 210,000. " + hostile, Shown: true, DurationMS: 12}}},
			{Text: a.Answer, LatencyMS: 600, Usage: model.Usage{Input: 1400, Output: 40}},
		},
		End: record.EndAnswered, Answer: a.Answer,
		Fixture: &record.Fixture{Token: "tok-" + hostile,
			Setup:    []record.Call{{Name: "create_note", Args: json.RawMessage(`{"title":"t"}`), Result: "made " + hostile, Shown: true}},
			Verify:   []record.Call{{Name: "read_note", Args: json.RawMessage(`{}`), Result: strings.Repeat("long result ", 200) + hostile, Shown: true}},
			Teardown: []record.Call{{Name: "delete_note", Args: json.RawMessage(`{}`), Result: "gone", Shown: true}},
			Problems: []string{"teardown left " + hostile}},
	}
	if withAttempt != nil {
		withAttempt(rec)
	}
	if err := w.Attempt(rec); err != nil {
		t.Fatal(err)
	}
}

// withAttempt, when set, changes each attempt writeAttempt writes before
// it is written.
var withAttempt func(*record.Attempt)

// standardRuns writes two finished runs under a new directory: "base"
// (every answer right) and "new" (three of four net-worth answers wrong,
// identically).
func standardRuns(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	t0 := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	var base, nw []answer
	for i := 0; i < 4; i++ {
		base = append(base, answer{"money/net-worth", rightWorth})
		w := rightWorth
		if i < 3 {
			w = wrongWorth
		}
		nw = append(nw, answer{"money/net-worth", w})
	}
	for i := 0; i < 4; i++ {
		base = append(base, answer{"money/deposit", rightDeposit})
		nw = append(nw, answer{"money/deposit", rightDeposit})
	}
	writeRun(t, filepath.Join(root, "base"), "base-run", "fake:perfect", t0, base, false)
	writeRun(t, filepath.Join(root, "new"), "new-run", "fake:"+hostile, t0.Add(time.Hour), nw, false)
	return root
}

// newTest starts a server over root on an httptest server, bound to its
// own address.
func newTest(t *testing.T, root string) (*Server, *httptest.Server) {
	t.Helper()
	return serve(t, Options{Dirs: []string{root}, Suite: testSuite, Reviewer: "alice", Version: "test", Poll: 100 * time.Millisecond})
}

// serve starts a server with opts on an httptest server, bound to its own
// address (opts.Addr), until the test ends.
func serve(t *testing.T, opts Options) (*Server, *httptest.Server) {
	t.Helper()
	ts := httptest.NewUnstartedServer(nil)
	opts.Addr = ts.Listener.Addr().String()
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ts.Config.Handler = s
	ts.Start()
	t.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
	})
	return s, ts
}

func attemptPath(key, caseID string, n int) string { return attemptURL(key, caseID, n) }

func form(kv ...string) url.Values {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Add(kv[i], kv[i+1])
	}
	return v
}

// noRedirect is a client that shows a redirect instead of following it.
var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

func urlEscape(s string) string { return url.QueryEscape(s) }

// newShotServer serves the runs in dir, graded with the embedded suites.
func newShotServer(t *testing.T, dir string) string {
	t.Helper()
	_, ts := serve(t, Options{Dirs: []string{dir}, Suite: shotSuite, Reviewer: "alice", Version: "dev"})
	return ts.URL
}

func shotSuite(h *record.Header) (*suite.Suite, error) {
	return builtin.LoadSuite(strings.TrimPrefix(h.Suite.Path, "embedded:"))
}
