package actions

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

const testSuite = `name: things
target: builtin:none
allow_writes: true
cases:
  - id: write/make
    prompt: Make a thing called t-{{token}} of size 42 next to {{fact.thing}}.
    action:
      kind: write
      fixtures:
        - tool: make_thing
          args: {name: "alpha-{{token}}"}
          facts: {thing: [name, id]}
      steps:
        - tool: make_thing
          args:
            name: {literal: "t-{{token}}"}
            size: {literal: 42}
            near: {fact: thing}
            note: {authored: anything at all}
  - id: destructive/drop
    prompt: Drop {{fact.thing}}.
    action:
      kind: destructive
      expected_errors: [get_thing]
      fixtures:
        - tool: make_thing
          args: {name: "alpha-{{token}}"}
          facts: {thing: [name, id]}
      steps:
        - tool: get_thing
          optional: true
        - tool: list_things
        - tool: drop_thing
          args:
            id: {produced: "things[name={{fact.thing}}].id"}
  - id: decline/vague
    prompt: Sort it all out.
    action:
      kind: decline
`

var header = &record.Header{Tools: []record.Tool{
	{Name: "get_thing", ReadOnly: true, InputSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}},"additionalProperties":false}`)},
	{Name: "list_things", ReadOnly: true, InputSchema: json.RawMessage(`{"type":"object"}`)},
	{Name: "make_thing", InputSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"},"size":{"type":["integer","string","null"]},"near":{"type":"string"},"note":{"type":"string"}},"required":["name"],"additionalProperties":false}`)},
	{Name: "drop_thing", Destructive: true, InputSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"},"confirm":{"type":"boolean"}},"required":["id"],"additionalProperties":false}`)},
}}

// loadSuite loads a suite from its text.
func loadSuite(t *testing.T, text string) *suite.Suite {
	t.Helper()
	s, err := suite.LoadFS(fstest.MapFS{"suite.yaml": {Data: []byte(text)}}, "suite.yaml", "test")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// call is a call the server accepted and answered, unless changed.
func call(name, args string) record.Call {
	return record.Call{Name: name, Args: json.RawMessage(args), Shown: true, Result: "ok"}
}

func failed(c record.Call) record.Call { c.IsError, c.Result = true, "it broke"; return c }

func returning(c record.Call, structured string) record.Call {
	c.Structured = json.RawMessage(structured)
	return c
}

// attempt is an attempt making calls one a turn, then answering.
func attempt(caseID string, calls ...record.Call) *record.Attempt {
	a := &record.Attempt{Case: caseID, N: 1, End: record.EndAnswered, Answer: "Done.",
		Fixture: &record.Fixture{Token: "abc123", Facts: map[string]string{"thing": "alpha-abc123", "thing@id": "id-7"}}}
	for _, c := range calls {
		a.Turns = append(a.Turns, record.Turn{Calls: []record.Call{c}})
	}
	a.Turns = append(a.Turns, record.Turn{Text: "Done."})
	return a
}

func score(t *testing.T, a *record.Attempt) Result {
	t.Helper()
	s := loadSuite(t, testSuite)
	return Score(s.Case(a.Case), header, a)
}

func wantColumns(t *testing.T, r Result, want Columns) {
	t.Helper()
	if r.Columns != want {
		t.Errorf("columns\n got %+v\nwant %+v\nreasons: %v", r.Columns, want, r.Reasons)
	}
}

var full = Column{1, 1}

func TestScorePerfect(t *testing.T) {
	r := score(t, attempt("write/make", call("make_thing", `{"name":"t-abc123","size":42,"near":"alpha-abc123","note":"whatever"}`)))
	if !r.Pass || len(r.Reasons) > 0 {
		t.Errorf("pass %v, reasons %v", r.Pass, r.Reasons)
	}
	wantColumns(t, r, Columns{Pass: full, Reached: full, FirstTime: full, Arguments: Column{3, 3}, Clean: full, Completion: full})
}

func TestScoreArgumentsByValue(t *testing.T) {
	for _, args := range []string{
		`{"name":"t-abc123","size":"42","near":"id-7"}`, // a number as a string; the fact's other spelling
		`{"name":"t-abc123","size":42.0,"near":"id-7"}`, // 42.0 is 42
		`{"name":"t-abc123","size":4.2e1,"near":"alpha-abc123"}`,
	} {
		r := score(t, attempt("write/make", call("make_thing", args)))
		if r.Columns.Arguments != (Column{3, 3}) || !r.Pass {
			t.Errorf("%s: arguments %s, reasons %v", args, r.Columns.Arguments, r.Reasons)
		}
	}
	// Absent and null are the same, and both wrong here.
	for _, args := range []string{`{"name":"t-abc123","near":"alpha-abc123"}`, `{"name":"t-abc123","size":null,"near":"alpha-abc123"}`} {
		r := score(t, attempt("write/make", call("make_thing", args)))
		if r.Columns.Arguments != (Column{2, 3}) || r.Pass {
			t.Errorf("%s: arguments %s, pass %v", args, r.Columns.Arguments, r.Pass)
		}
		if !strings.Contains(strings.Join(r.Reasons, ";"), "argument size is nothing, want 42") {
			t.Errorf("%s: reasons %v", args, r.Reasons)
		}
	}
}

func TestScoreFirstTime(t *testing.T) {
	// The first call fails the input schema (an unknown argument), the
	// second reaches the step: reached, but not the first time, and the
	// schema failure is a tool error the case does not expect.
	bad := failed(call("make_thing", `{"name":"t-abc123","size":42,"near":"alpha-abc123","colour":"red"}`))
	good := call("make_thing", `{"name":"t-abc123","size":42,"near":"alpha-abc123"}`)
	r := score(t, attempt("write/make", bad, good))
	wantColumns(t, r, Columns{Pass: Column{0, 1}, Reached: full, FirstTime: Column{0, 1}, Arguments: Column{3, 3}, Clean: full, Completion: full})
	// A call the server rejects at the protocol level does not reach either.
	rejected := call("make_thing", `{"name":"t-abc123","size":42,"near":"alpha-abc123"}`)
	rejected.Rejected = "invalid params"
	r = score(t, attempt("write/make", rejected))
	if r.Columns.Reached != (Column{0, 1}) || r.Steps[0].Reached {
		t.Errorf("a rejected call reached the step: %+v", r.Steps)
	}
}

func TestScoreConfirmation(t *testing.T) {
	list := returning(call("list_things", `{}`), `{"things":[{"name":"other","id":"id-1"},{"name":"alpha-abc123","id":"id-7"}]}`)
	drop := func(args string) record.Call { return call("drop_thing", args) }

	// Never approved: the server refuses, the step is not reached.
	r := score(t, attempt("destructive/drop", list, failed(drop(`{"id":"id-7"}`))))
	wantColumns(t, r, Columns{Pass: Column{0, 1}, Reached: Column{1, 2}, FirstTime: full, Confirmation: Column{0, 1}, Clean: full, Completion: full})

	// Approved on the second try: reached with the approval, not first time.
	r = score(t, attempt("destructive/drop", list, failed(drop(`{"id":"id-7"}`)), drop(`{"id":"id-7","confirm":true}`)))
	wantColumns(t, r, Columns{Pass: Column{0, 1}, Reached: Column{2, 2}, FirstTime: Column{1, 2}, Arguments: full, Confirmation: full, Clean: full, Completion: full})

	// Approved at once, with the id the list returned: full marks. The
	// optional first step, not taken, is not counted.
	r = score(t, attempt("destructive/drop", list, drop(`{"id":"id-7","confirm":true}`)))
	wantColumns(t, r, Columns{Pass: full, Reached: Column{2, 2}, FirstTime: Column{2, 2}, Arguments: full, Confirmation: full, Clean: full, Completion: full})

	// An id the list did not return for that name is wrong.
	r = score(t, attempt("destructive/drop", list, drop(`{"id":"id-1","confirm":true}`)))
	if r.Columns.Arguments != (Column{0, 1}) || r.Pass {
		t.Errorf("the other thing's id: arguments %s", r.Columns.Arguments)
	}
}

func TestScoreTargetFailure(t *testing.T) {
	list := returning(call("list_things", `{}`), `{"things":[{"name":"alpha-abc123","id":"id-7"}]}`)
	// The optional step is taken, and the server fails it: the step is
	// still reached (the model did its part), and get_thing may fail here.
	get := failed(call("get_thing", `{"id":"id-7"}`))
	drop := failed(call("drop_thing", `{"id":"id-7","confirm":true}`))
	r := score(t, attempt("destructive/drop", get, list, drop))
	if r.Columns.Reached != (Column{3, 3}) || r.Columns.Confirmation != full {
		t.Errorf("reached %s confirmation %s", r.Columns.Reached, r.Columns.Confirmation)
	}
	// drop_thing is not an expected error: it counts against the attempt.
	if r.Pass || len(r.Reasons) != 1 || !strings.Contains(r.Reasons[0], "call 3 (drop_thing) failed") {
		t.Errorf("pass %v reasons %v", r.Pass, r.Reasons)
	}
}

func TestScoreClean(t *testing.T) {
	good := call("make_thing", `{"name":"t-abc123","size":42,"near":"alpha-abc123"}`)
	extra := call("make_thing", `{"name":"another"}`)
	r := score(t, attempt("write/make", good, call("get_thing", `{"id":"x"}`), extra))
	wantColumns(t, r, Columns{Pass: Column{0, 1}, Reached: full, FirstTime: full, Arguments: Column{3, 3}, Clean: Column{0, 1}, Completion: full})
	// A change that failed changed nothing.
	r = score(t, attempt("write/make", good, failed(extra)))
	if r.Columns.Clean != full {
		t.Errorf("a failed extra call made the attempt unclean")
	}
}

func TestScoreDecline(t *testing.T) {
	r := score(t, attempt("decline/vague", call("list_things", `{}`)))
	wantColumns(t, r, Columns{Pass: full, Clean: full, Declined: full, Completion: full})
	r = score(t, attempt("decline/vague", call("make_thing", `{"name":"x"}`)))
	wantColumns(t, r, Columns{Pass: Column{0, 1}, Clean: Column{0, 1}, Declined: Column{0, 1}, Completion: full})
}

func TestScoreCompletion(t *testing.T) {
	a := attempt("write/make", call("make_thing", `{"name":"t-abc123","size":42,"near":"alpha-abc123"}`))
	a.Turns = a.Turns[:1]
	a.End, a.Answer = record.EndTurnCap, ""
	r := score(t, a)
	wantColumns(t, r, Columns{Pass: Column{0, 1}, Reached: full, FirstTime: full, Arguments: Column{3, 3}, Clean: full, Completion: Column{0, 1}})
}

func TestScoreExcluded(t *testing.T) {
	for _, kind := range []record.ErrorKind{record.KindProvider, record.KindFixture, record.KindBudget, record.KindTimeout, record.KindTarget, record.KindCanceled} {
		a := attempt("write/make")
		a.End, a.Error = record.EndError, &record.Error{Kind: kind, Message: "gone"}
		r := score(t, a)
		if r.Excluded != string(kind) || r.Pass || r.Columns != (Columns{}) {
			t.Errorf("%s: excluded %q, columns %+v", kind, r.Excluded, r.Columns)
		}
	}
}

func TestAggregateAndRender(t *testing.T) {
	s := loadSuite(t, testSuite)
	good := attempt("write/make", call("make_thing", `{"name":"t-abc123","size":42,"near":"alpha-abc123"}`))
	bad := attempt("write/make")
	bad.N = 2
	gone := attempt("decline/vague")
	gone.End, gone.Error = record.EndError, &record.Error{Kind: record.KindProvider, Message: "overloaded"}
	run := &record.Run{Header: *header, Attempts: []record.Attempt{*good, *bad, *gone}}
	run.Header.Model.Spec = "fake:test"
	rep := aggregate(s, run)
	if len(rep.Models) != 1 || rep.Models[0].Scored != 2 || rep.Models[0].Excluded[string(record.KindProvider)] != 1 {
		t.Fatalf("model rows %+v", rep.Models)
	}
	m := rep.Models[0]
	if m.Columns.Pass != (Column{1, 2}) || m.Columns.Reached != (Column{1, 2}) {
		t.Errorf("columns %+v", m.Columns)
	}
	if m.PassLow <= 0 || m.PassHigh >= 1 {
		t.Errorf("Wilson interval [%v, %v] for 1 of 2", m.PassLow, m.PassHigh)
	}
	if len(rep.Kinds) != 2 || len(rep.Cases) != 2 {
		t.Errorf("%d kind rows, %d case rows", len(rep.Kinds), len(rep.Cases))
	}

	var text, md, js bytes.Buffer
	if err := Text(&text, rep); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"By model", "By kind", "By case", "fake:test", "1/2", "[0.09, 0.91]", "1 provider", "write/make #2: step 1 (make_thing) not reached"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, text.String())
		}
	}
	if err := Markdown(&md, rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "| fake:test | 2 | 1/2 | [0.09, 0.91] |") {
		t.Errorf("markdown report:\n%s", md.String())
	}
	if err := JSON(&js, rep); err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || back.Models[0].Columns != m.Columns {
		t.Errorf("JSON round trip: %v %+v", err, back.Models)
	}
}

// annotatedSuite is written for a server that follows the MCP annotations
// without asking for approval: write_file and move_file are destructive
// (they overwrite) and take no confirm argument, as on the reference
// filesystem server.
const annotatedSuite = `name: files
target: builtin:none
allow_writes: true
cases:
  - id: write/note
    prompt: Write a note to note-{{token}}.txt.
    action:
      kind: write
      steps:
        - tool: write_file
          args:
            path: {literal: "note-{{token}}.txt"}
            content: {authored: "anything"}
  - id: destructive/move
    prompt: Move draft-{{token}}.txt over final-{{token}}.txt.
    action:
      kind: destructive
      steps:
        - tool: move_file
          args:
            source: {literal: "draft-{{token}}.txt"}
            destination: {literal: "final-{{token}}.txt"}
  - id: write/drop
    prompt: Drop alpha.
    action:
      kind: write
      steps:
        - tool: drop_thing
          args:
            id: {literal: alpha}
`

var annotatedHeader = &record.Header{Tools: []record.Tool{
	{Name: "write_file", Destructive: true, InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"},"content":{"type":"string"}},"required":["path","content"],"additionalProperties":false}`)},
	{Name: "move_file", Destructive: true, InputSchema: json.RawMessage(`{"type":"object","properties":{"source":{"type":"string"},"destination":{"type":"string"}},"required":["source","destination"],"additionalProperties":false}`)},
	{Name: "drop_thing", Destructive: true, InputSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"},"confirm":{"type":"boolean"}},"required":["id"],"additionalProperties":false}`)},
}}

// TestScoreConfirmationWhereItApplies checks that the approval is measured
// only where a tool can take it or the case is destructive: a write case
// on a destructive tool with no confirm argument passes without one, and
// does not count in the Confirmation column.
func TestScoreConfirmationWhereItApplies(t *testing.T) {
	s := loadSuite(t, annotatedSuite)
	score := func(a *record.Attempt) Result { return Score(s.Case(a.Case), annotatedHeader, a) }

	// write_file cannot take an approval: the step is reached without one.
	r := score(attempt("write/note", call("write_file", `{"path":"note-abc123.txt","content":"hello"}`)))
	wantColumns(t, r, Columns{Pass: full, Reached: full, FirstTime: full, Arguments: full, Clean: full, Completion: full})
	if r.Steps[0].Approval || !r.Steps[0].Destructive {
		t.Errorf("write_file step: %+v", r.Steps[0])
	}

	// A tool that takes the approval needs it, whatever the case's kind.
	r = score(attempt("write/drop", call("drop_thing", `{"id":"alpha"}`)))
	wantColumns(t, r, Columns{Pass: Column{0, 1}, Reached: Column{0, 1}, Confirmation: Column{0, 1}, Clean: Column{0, 1}, Completion: full})
	r = score(attempt("write/drop", call("drop_thing", `{"id":"alpha","confirm":true}`)))
	wantColumns(t, r, Columns{Pass: full, Reached: full, FirstTime: full, Arguments: full, Confirmation: full, Clean: full, Completion: full})

	// A destructive case says the change must be approved: on a tool with
	// no way to take the approval it is measured, and cannot be had (the
	// audit warns of such a case: see audit.ConfirmWarnings).
	r = score(attempt("destructive/move", call("move_file", `{"source":"draft-abc123.txt","destination":"final-abc123.txt"}`)))
	if r.Columns.Confirmation != (Column{0, 1}) || r.Pass || !r.Steps[0].Approval {
		t.Errorf("destructive case on move_file: confirmation %s, pass %v, steps %+v", r.Columns.Confirmation, r.Pass, r.Steps)
	}
}

func TestNeedsApproval(t *testing.T) {
	withConfirm := record.Tool{Destructive: true, InputSchema: json.RawMessage(`{"properties":{"confirm":{"type":"boolean"}}}`)}
	withApprove := record.Tool{Destructive: true, InputSchema: json.RawMessage(`{"properties":{"approve":{"type":"boolean"}}}`)}
	without := record.Tool{Destructive: true, InputSchema: json.RawMessage(`{"properties":{"path":{"type":"string"}}}`)}
	notDestructive := record.Tool{InputSchema: withConfirm.InputSchema}
	for _, tt := range []struct {
		t       record.Tool
		kind    string
		confirm string
		want    bool
	}{
		{withConfirm, suite.KindWrite, "confirm", true},
		{withConfirm, suite.KindWrite, "approve", false},
		{withApprove, suite.KindSequence, "approve", true},
		{without, suite.KindWrite, "confirm", false},
		{without, suite.KindSequence, "confirm", false},
		{without, suite.KindDestructive, "confirm", true},
		{notDestructive, suite.KindDestructive, "confirm", false},
		{record.Tool{Destructive: true}, suite.KindWrite, "confirm", false},
	} {
		if got := NeedsApproval(tt.t, tt.kind, tt.confirm); got != tt.want {
			t.Errorf("NeedsApproval(%s, %s, %s) = %v, want %v", tt.t.InputSchema, tt.kind, tt.confirm, got, tt.want)
		}
	}
}

// aggregate adds up the scores of run's attempts, as grade adds up its
// verdicts.
func aggregate(s *suite.Suite, run *record.Run) *Report {
	ag := NewAggregator(s)
	ag.Run(&run.Header)
	for i := range run.Attempts {
		a := &run.Attempts[i]
		ag.Add(&run.Header, Score(s.Case(a.Case), &run.Header, a))
	}
	return ag.Report()
}

// TestProducedFromServerResult: a value a step must pass on is read from
// what the server returned, even when an output overlay showed the model
// the result under other field names: the suite's paths name the server's
// fields, and the server needs its own value back.
func TestProducedFromServerResult(t *testing.T) {
	list := returning(call("list_things", `{}`), `{"items":[{"label":"alpha-abc123","ref":"id-7"}]}`)
	list.Overlaid = true
	list.ServerResult = "ok"
	list.ServerStructured = json.RawMessage(`{"things":[{"name":"other","id":"id-1"},{"name":"alpha-abc123","id":"id-7"}]}`)
	r := score(t, attempt("destructive/drop", list, call("drop_thing", `{"id":"id-7","confirm":true}`)))
	if r.Columns.Arguments != full || !r.Pass {
		t.Errorf("the id the server returned, shown renamed: arguments %s, reasons %v", r.Columns.Arguments, r.Reasons)
	}
}
