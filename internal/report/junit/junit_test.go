package junit

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"flag"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	gojunit "github.com/joshdk/go-junit"
	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/grade/actions"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

var update = flag.Bool("update", false, "rewrite testdata/run.xml")

// testRun has four cases: one passing, one failing once in three (with a
// control character in its reason), one whose every attempt errored, and
// one planned but never attempted.
func testRun(t *testing.T) (*record.Run, *grade.Result) {
	s := &suite.Suite{Name: "t", Attempts: 3}
	for _, id := range []string{"a/pass", "a/flaky", "b/errors", "b/unrun"} {
		g, _, _ := strings.Cut(id, "/")
		s.Cases = append(s.Cases, &suite.Case{ID: id, Group: g, Prompt: "?", Mode: suite.ModeToolCall, ExpectTools: []string{"get_x"}})
	}
	r := &record.Run{Dir: "runs/r1", End: &record.End{Complete: false, Reason: "budget"}}
	r.Header = record.Header{Format: record.Format, RunID: "r1", Start: time.Date(2026, 10, 1, 9, 0, 0, 0, time.UTC),
		Model: model.Info{Spec: "fake:perfect"}, Suite: record.SuiteInfo{Name: "t", Hash: "abc"}, ToolsHash: "def",
		Tools: []record.Tool{{Name: "get_x", ReadOnly: true}, {Name: "get_y", ReadOnly: true}}, Preflight: record.Preflight{Valid: true}}
	call := func(name string) []record.Turn {
		return []record.Turn{{Calls: []record.Call{{ID: "1", Name: name, Args: json.RawMessage(`{}`), Shown: true, NotSent: true}}}}
	}
	for n := 1; n <= 3; n++ {
		for _, id := range []string{"a/pass", "a/flaky", "b/errors", "b/unrun"} {
			r.Header.Planned = append(r.Header.Planned, record.Planned{Case: id, N: n})
		}
		r.Attempts = append(r.Attempts, record.Attempt{Case: "a/pass", N: n, End: record.EndToolCall, Turns: call("get_x"), DurationMS: 1000})
		flaky := record.Attempt{Case: "a/flaky", N: n, End: record.EndToolCall, Turns: call("get_x"), DurationMS: 500}
		if n == 2 {
			flaky.Turns = call("get_y")
		}
		r.Attempts = append(r.Attempts, flaky)
		r.Attempts = append(r.Attempts, record.Attempt{Case: "b/errors", N: n, End: record.EndError,
			Error: &record.Error{Kind: record.KindTimeout, Message: "the provider took too long \x1b[31m<&>"}, DurationMS: 60000})
	}
	return r, grade.Run(s, r)
}

// TestConsumer: a JUnit consumer (github.com/joshdk/go-junit) reads the
// XML back with the right statuses, messages, durations and properties.
func TestConsumer(t *testing.T) {
	r, res := testRun(t)
	var b bytes.Buffer
	if err := Write(&b, Run{Record: r, Result: res}); err != nil {
		t.Fatal(err)
	}
	suites, err := gojunit.Ingest(b.Bytes())
	if err != nil {
		t.Fatalf("go-junit cannot read it: %v\n%s", err, b.String())
	}
	if len(suites) != 1 {
		t.Fatalf("%d suites, want 1", len(suites))
	}
	s := suites[0]
	if s.Name != "t (fake:perfect)" || s.Properties["run_id"] != "r1" || s.Properties["passed"] != "5/6" || s.Properties["tools_hash"] != "def" {
		t.Errorf("suite %q, properties %v", s.Name, s.Properties)
	}
	got := map[string]gojunit.Status{}
	for _, tc := range s.Tests {
		got[tc.Name] = tc.Status
	}
	want := map[string]gojunit.Status{"a/pass": gojunit.StatusPassed, "a/flaky": gojunit.StatusFailed, "b/errors": gojunit.StatusError, "b/unrun": gojunit.StatusSkipped}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("statuses (-want +got):\n%s", diff)
	}
	tot := s.Totals
	if tot.Tests != 4 || tot.Passed != 1 || tot.Failed != 1 || tot.Error != 1 || tot.Skipped != 1 {
		t.Errorf("totals %+v", tot)
	}
	for _, tc := range s.Tests {
		switch tc.Name {
		case "a/flaky":
			if !strings.Contains(tc.Message, "1 of 3 graded attempts failed (inconsistent: 2 passed)") || !strings.Contains(tc.Message, "get_y") {
				t.Errorf("failure message %q", tc.Message)
			}
			if e, ok := tc.Error.(gojunit.Error); !ok || !strings.Contains(e.Body, "attempt 2: fail") {
				t.Errorf("failure body %#v", tc.Error)
			}
			if tc.Classname != "t.a" || tc.Duration != 1500*time.Millisecond {
				t.Errorf("classname %q duration %v", tc.Classname, tc.Duration)
			}
		case "b/errors":
			if !strings.Contains(tc.Message, "all 3 attempts ended in an error (timeout 3)") {
				t.Errorf("error message %q", tc.Message)
			}
		case "b/unrun":
			if !strings.Contains(tc.Message, "not run") || !strings.Contains(tc.Message, "budget") {
				t.Errorf("skipped message %q", tc.Message)
			}
		}
	}
	if strings.ContainsRune(b.String(), '\x1b') {
		t.Errorf("a control character reached the XML")
	}
	golden(t, b.Bytes())
}

// TestAttemptProperties: each case lists its attempts as properties.
func TestAttemptProperties(t *testing.T) {
	r, res := testRun(t)
	var b bytes.Buffer
	if err := Write(&b, Run{Record: r, Result: res}); err != nil {
		t.Fatal(err)
	}
	var doc testsuites
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	props := map[string]string{}
	for _, tc := range doc.Suites[0].Cases {
		if tc.Name == "a/flaky" {
			for _, p := range tc.Properties.Property {
				props[p.Name] = p.Value
			}
		}
	}
	if props["attempt.1"] != "pass" || !strings.HasPrefix(props["attempt.2"], "fail: tools: ") || props["attempt.3"] != "pass" || props["passed"] != "2/3" || props["inconsistent"] != "true" {
		t.Errorf("a/flaky properties %v", props)
	}
	if doc.Tests != 4 || doc.Failures != 1 || doc.Errors != 1 || doc.Skipped != 1 {
		t.Errorf("testsuites counts %+v", doc)
	}
}

// TestInvalid: an invalid run is one error, every planned case skipped.
func TestInvalid(t *testing.T) {
	r, _ := testRun(t)
	r.Header.Preflight = record.Preflight{Valid: false, Checks: []record.PreflightCheck{{Tool: "get_x", Problems: []string{"total: want 42, got 41"}}}}
	r.Attempts = nil
	res := grade.Run(&suite.Suite{Name: "t"}, r)
	var b bytes.Buffer
	if err := Write(&b, Run{Record: r, Result: res}); err != nil {
		t.Fatal(err)
	}
	suites, err := gojunit.Ingest(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	tot := suites[0].Totals
	if tot.Tests != 5 || tot.Error != 1 || tot.Skipped != 4 {
		t.Errorf("totals %+v\n%s", tot, b.String())
	}
	if tc := suites[0].Tests[0]; tc.Name != "preflight" || !strings.Contains(tc.Message, "want 42, got 41") {
		t.Errorf("first test %+v", tc)
	}
}

func golden(t *testing.T, got []byte) {
	t.Helper()
	const p = "testdata/run.xml"
	if *update {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(p, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (go test -update creates it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s (-want +got):\n%s", p, diff)
	}
}

// TestActionProperties: a run with action cases carries each action
// column as a property of its suite, scored of counted; a run without
// carries none.
func TestActionProperties(t *testing.T) {
	r, res := testRun(t)
	var b bytes.Buffer
	if err := Write(&b, Run{Record: r, Result: res}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "action_") {
		t.Errorf("a run without action cases has action properties:\n%s", b.String())
	}
	res.Actions = &actions.Report{Models: []actions.Row{{Model: "fake:perfect", Scored: 4,
		Columns: actions.Columns{Pass: actions.Column{Num: 3, Den: 4}, FirstTime: actions.Column{Num: 5, Den: 6}}}}}
	b.Reset()
	if err := Write(&b, Run{Record: r, Result: res}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<property name="action_scored" value="4">`, `<property name="action_pass" value="3/4">`,
		`<property name="action_first_time" value="5/6">`, `<property name="action_declined" value="0/0">`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the XML lacks %s:\n%s", want, b.String())
		}
	}
}
