package grade

import (
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpeval/mcpeval/grade/actions"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// surfaceSuite has one canonical surface (the cases' tools) and a meta
// surface putting them behind one containers tool.
const surfaceSuite = `
name: surfaces
target: builtin:ops
allow_writes: true
surfaces:
  - name: individual
  - name: meta
    target: builtin:ops-meta
    map:
      create_container: {tool: containers, args: {action: create}}
      remove_container: {tool: containers, args: {action: remove}}
      list_containers: {tool: containers, args: {action: list}}
cases:
  - id: write/create
    prompt: Create a container called web from nginx:1.27.
    action:
      kind: write
      steps:
        - tool: create_container
          args:
            name: {literal: web}
            image: {literal: "nginx:1.27"}
  - id: destructive/remove
    prompt: Remove the container old for good.
    action:
      kind: destructive
      steps:
        - tool: remove_container
          args:
            container_id: {literal: old}
`

// canonicalTools are the canonical surface's definitions.
var canonicalTools = []record.Tool{
	{Name: "create_container", InputSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"},"image":{"type":"string"}},"required":["name","image"],"additionalProperties":false}`)},
	{Name: "remove_container", Destructive: true, InputSchema: json.RawMessage(`{"type":"object","properties":{"container_id":{"type":"string"},"confirm":{"type":"boolean"}},"required":["container_id"],"additionalProperties":false}`)},
	{Name: "list_containers", ReadOnly: true, InputSchema: json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)},
}

// metaHeader is the header of a run on the meta surface.
func metaHeader(t *testing.T, s *suite.Suite) *record.Header {
	t.Helper()
	sf := s.Surface("meta")
	rs := &record.Surface{Name: "meta", Map: map[string]record.SurfaceCall{}, Canonical: canonicalTools}
	for c, to := range sf.Map {
		rs.Map[c] = record.SurfaceCall{Tool: to.Tool, Args: to.Args}
	}
	return &record.Header{Format: record.Format, RunID: "meta", Preflight: record.Preflight{Valid: true}, Surface: rs,
		Tools: []record.Tool{{Name: "containers", Destructive: true,
			InputSchema: json.RawMessage(`{"type":"object","properties":{"action":{"enum":["create","remove","list"]}},"required":["action"]}`)}}}
}

func loadSurfaceSuite(t *testing.T) *suite.Suite {
	t.Helper()
	s, err := suite.LoadFS(fstest.MapFS{"suite.yaml": {Data: []byte(surfaceSuite)}}, "suite.yaml", "suite.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// metaCall is a successful call of the meta tool with args (JSON).
func metaCall(args string) record.Call {
	return record.Call{ID: "c", Name: "containers", Args: json.RawMessage(args), Shown: true, Result: `{"ok":true}`}
}

// TestGradeOnMetaSurface: a meta-tool call with the right action and
// arguments reaches the canonical step; the right tool with the wrong
// action, wrong arguments, or a destructive action without the approval
// does not.
func TestGradeOnMetaSurface(t *testing.T) {
	s := loadSurfaceSuite(t)
	h := metaHeader(t, s)
	for _, tc := range []struct {
		name, caseID, args string
		pass               bool
		reason             string
	}{
		{"right action and args", "write/create", `{"action":"create","name":"web","image":"nginx:1.27"}`, true, ""},
		{"args in another order", "write/create", `{"image":"nginx:1.27","name":"web","action":"create"}`, true, ""},
		{"approved removal", "destructive/remove", `{"action":"remove","container_id":"old","confirm":true}`, true, ""},
		{"right tool, wrong action", "write/create", `{"action":"list"}`, false, "step 1 (create_container) not reached"},
		{"right tool, no action", "write/create", `{"name":"web","image":"nginx:1.27"}`, false, "step 1 (create_container) not reached"},
		{"right tool, unmapped action", "write/create", `{"action":"start","name":"web"}`, false, "made a change no step asked for"},
		{"wrong args", "write/create", `{"action":"create","name":"api","image":"nginx:1.27"}`, false, `argument name is "api", want "web"`},
		{"args of another action", "write/create", `{"action":"create","name":"web","image":"nginx:1.27","container_id":"x"}`, false, "fail the input schema"},
		{"removal without approval", "destructive/remove", `{"action":"remove","container_id":"old"}`, false, "without confirm: true"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := mustCase(t, s, tc.caseID)
			a := answered(c, "Done.", metaCall(tc.args))
			g := Attempt(s, c, h, a)
			if (g.Outcome == Pass) != tc.pass {
				t.Fatalf("outcome %s, want pass %v:%s", g.Outcome, tc.pass, reasonsText(g.Reasons))
			}
			if !tc.pass && !strings.Contains(reasonsText(g.Reasons), tc.reason) {
				t.Errorf("reasons do not say %q:%s", tc.reason, reasonsText(g.Reasons))
			}
			if a.Turns[0].Calls[0].Name != "containers" {
				t.Errorf("grading changed the recorded call to %s", a.Turns[0].Calls[0].Name)
			}
		})
	}
}

// TestGradeRunOnSurfaces: grade.Run scores a meta-surface run by the
// canonical key, action columns included; without the surface's map in
// its header the same calls reach nothing.
func TestGradeRunOnSurfaces(t *testing.T) {
	s := loadSurfaceSuite(t)
	c := mustCase(t, s, "write/create")
	a := answered(c, "Done.", metaCall(`{"action":"create","name":"web","image":"nginx:1.27"}`))
	run := &record.Run{Header: *metaHeader(t, s), Attempts: []record.Attempt{*a}, End: &record.End{Complete: true}}
	res := Run(s, run)
	if res.Totals.Passed != 1 || res.Actions == nil || res.Actions.Models[0].Columns.Reached != (actions.Column{Num: 1, Den: 1}) {
		t.Fatalf("meta run: %d passed, actions %+v; want the step reached", res.Totals.Passed, res.Actions)
	}
	run.Header.Surface = nil
	if res := Run(s, run); res.Totals.Passed != 0 {
		t.Fatalf("without the surface's map, the meta call passed")
	}
}

// TestGradeOnNestedSurface: a surface whose map puts the canonical
// arguments under params, with the action beside them, reads a call of
// its meta-tool back to the canonical step it is, as the record keeps the
// map (Under included).
func TestGradeOnNestedSurface(t *testing.T) {
	s := loadSurfaceSuite(t)
	h := metaHeader(t, s)
	for c, to := range h.Surface.Map {
		to.Under = "params"
		h.Surface.Map[c] = to
	}
	c := mustCase(t, s, "write/create")
	for _, tc := range []struct {
		args string
		pass bool
	}{
		{`{"action":"create","params":{"name":"web","image":"nginx:1.27"}}`, true},
		{`{"action":"create","params":{"name":"api","image":"nginx:1.27"}}`, false},
		{`{"params":{"action":"create","name":"web","image":"nginx:1.27"}}`, false},
	} {
		g := Attempt(s, c, h, answered(c, "Done.", metaCall(tc.args)))
		if (g.Outcome == Pass) != tc.pass {
			t.Errorf("%s: outcome %s, want pass %v:%s", tc.args, g.Outcome, tc.pass, reasonsText(g.Reasons))
		}
	}
}

// searchSurfaceHeader is the header of a run on a search surface over the
// canonical tools.
func searchSurfaceHeader() *record.Header {
	return &record.Header{Format: record.Format, RunID: "search", Preflight: record.Preflight{Valid: true},
		Surface: &record.Surface{Name: "find", Kind: "search"}, Tools: canonicalTools}
}

// TestGradeOnSearchSurface: on a search surface the searches are left out
// and a call_tool reads back as the call it made; a tool called by its own
// name is an unknown tool, and the grade says whether the model searched.
func TestGradeOnSearchSurface(t *testing.T) {
	s := loadSurfaceSuite(t)
	h := searchSurfaceHeader()
	c := mustCase(t, s, "write/create")
	search := record.Call{ID: "s", Name: "search_tools", Kind: record.CallSearch, Args: json.RawMessage(`{"query":"create container"}`), Shown: true, Result: "create_container: ..."}
	callTool := func(args string, shown bool) record.Call {
		return record.Call{ID: "c", Name: "call_tool", Args: json.RawMessage(args), Shown: shown, Result: `{"ok":true}`}
	}
	direct := record.Call{ID: "d", Name: "create_container", Args: json.RawMessage(`{"name":"web","image":"nginx:1.27"}`), Result: `unknown tool "create_container"`, Rejected: `unknown tool "create_container"`, IsError: true}
	for _, tc := range []struct {
		name   string
		calls  []record.Call
		pass   bool
		reason string
	}{
		{"searched, then called", []record.Call{search, callTool(`{"name":"create_container","arguments":{"name":"web","image":"nginx:1.27"}}`, true)}, true, ""},
		{"called without searching", []record.Call{callTool(`{"name":"create_container","arguments":{"name":"web","image":"nginx:1.27"}}`, true)}, true, ""},
		{"wrong arguments", []record.Call{search, callTool(`{"name":"create_container","arguments":{"name":"api","image":"nginx:1.27"}}`, true)}, false, `argument name is "api", want "web"`},
		{"a tool there is not", []record.Call{search, callTool(`{"name":"make_container","arguments":{}}`, false)}, false, "step 1 (create_container) not reached"},
		{"never searched", []record.Call{direct}, false, "tools: the model never searched: on search surface find it called create_container by name"},
		{"searched, then called by name", []record.Call{search, direct}, false, "tools: on search surface find the model called create_container by name rather than through call_tool"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := Attempt(s, c, h, answered(c, "Done.", tc.calls...))
			if (g.Outcome == Pass) != tc.pass {
				t.Fatalf("outcome %s, want pass %v:%s", g.Outcome, tc.pass, reasonsText(g.Reasons))
			}
			if !tc.pass && !strings.Contains(reasonsText(g.Reasons), tc.reason) {
				t.Errorf("reasons do not say %q:%s", tc.reason, reasonsText(g.Reasons))
			}
		})
	}
}
