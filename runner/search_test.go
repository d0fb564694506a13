package runner_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/builtin"
	"github.com/mcpeval/mcpeval/internal/fixture"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/fake"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/runner"
)

// TestSearchToolsRanks: search_tools scores a name's words 3 and a
// description's 1 for each distinct word of the query (a final s dropped,
// camelCase read as words), leaves out what scores 0, breaks ties by name
// and keeps to the limit.
func TestSearchToolsRanks(t *testing.T) {
	tools := []model.Tool{
		{Name: "remove_volume", Description: "Remove a volume."},
		{Name: "list_volumes", Description: "List every volume."},
		{Name: "create_container", Description: "Create a container from an image."},
		{Name: "create_volume", Description: "Create a volume."},
		{Name: "getSystemInfo", Description: "Host facts."},
	}
	names := func(ts []model.Tool) []string {
		var out []string
		for _, t := range ts {
			out = append(out, t.Name)
		}
		return out
	}
	for _, tc := range []struct {
		query string
		limit int
		want  []string
	}{
		// create_volume 3+3+1+1; the others 3+1 each, by name.
		{"Create volumes", 3, []string{"create_volume", "create_container", "list_volumes"}},
		{"Create volumes", 10, []string{"create_volume", "create_container", "list_volumes", "remove_volume"}},
		{"system info", 5, []string{"getSystemInfo"}},
		{"an image", 5, []string{"create_container"}},
		{"zebra", 5, nil},
	} {
		if got := names(runner.SearchTools(tools, tc.query, tc.limit)); !slices.Equal(got, tc.want) {
			t.Errorf("SearchTools(%q, %d) = %v, want %v", tc.query, tc.limit, got, tc.want)
		}
	}
}

// searchRun runs case id of the ops suite on its search surface with
// model m, through the real MCP transport.
func searchRun(t *testing.T, m model.Model, id string) *record.Run {
	t.Helper()
	s, err := builtin.LoadSuite("ops")
	if err != nil {
		t.Fatal(err)
	}
	sf := s.Surface("search")
	tgt, err := runner.ResolveTarget(s, runner.TargetOverrides{Surface: sf})
	if err != nil {
		t.Fatal(err)
	}
	tgt.Builtins = builtin.All()
	fx, _ := fixture.For(s)
	rec, err := runner.Run(context.Background(), runner.Config{Suite: s, Surface: sf, Target: tgt, Model: m,
		ModelInfo: model.Info{Spec: "fake:test"}, Fixtures: fx, Cases: []string{id}, Attempts: 1,
		Concurrency: 1, FixedConcurrency: true, OutDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Attempts) != 1 {
		t.Fatalf("%d attempts, want 1", len(rec.Attempts))
	}
	return rec
}

// TestSearchSurfaceRecordsWhatWasCalled: on a search surface the model is
// shown the three search tools only; fake:perfect searches, describes and
// calls through call_tool, and the record keeps those calls as made (the
// searches of Kind search, the call_tool with the server's result) and
// grades as the canonical call.
func TestSearchSurfaceRecordsWhatWasCalled(t *testing.T) {
	s, _ := builtin.LoadSuite("ops")
	m, err := fake.New("perfect", s)
	if err != nil {
		t.Fatal(err)
	}
	rec := searchRun(t, m, "write/new-volume")
	h, a := rec.Header, rec.Attempts[0]
	if h.Surface == nil || h.Surface.Kind != "search" || len(h.Tools) != 36 || h.TurnCap != 40 {
		t.Fatalf("header: surface %+v, %d tools, turn cap %d; want search, 36, 40", h.Surface, len(h.Tools), h.TurnCap)
	}
	var got []string
	for _, c := range a.Calls() {
		got = append(got, c.Name+"/"+c.Kind)
		if !c.Shown || c.IsError || c.Rejected != "" {
			t.Errorf("call %s: shown %v, error %v, rejected %q: %s", c.Name, c.Shown, c.IsError, c.Rejected, c.Result)
		}
	}
	want := []string{"search_tools/search", "describe_tool/search", "call_tool/"}
	if !slices.Equal(got, want) {
		t.Fatalf("calls %v, want %v", got, want)
	}
	calls := a.Calls()
	if !strings.HasPrefix(calls[0].Result, "create_volume: ") {
		t.Errorf("search for create volume found first %q", calls[0].Result)
	}
	var described struct {
		Name        string          `json:"name"`
		InputSchema json.RawMessage `json:"input_schema"`
	}
	if err := json.Unmarshal([]byte(calls[1].Result), &described); err != nil || described.Name != "create_volume" || len(described.InputSchema) == 0 {
		t.Errorf("describe_tool answered %s (%v)", calls[1].Result, err)
	}
	if !strings.Contains(string(calls[2].Args), `"name":"create_volume"`) || !strings.Contains(calls[2].Result, "cache-") {
		t.Errorf("call_tool recorded as %s with result %s", calls[2].Args, calls[2].Result)
	}
	res := grade.Run(s, rec)
	if res.Totals.Passed != 1 {
		t.Errorf("graded %+v: %v", res.Totals, res.Attempts)
	}
	if sr := res.Searches; sr == nil || *sr != (grade.Searches{Searches: 1, Describes: 1, Calls: 1, Attempts: 1}) {
		t.Errorf("searches %+v, want one of each in one attempt", sr)
	}
}

// canonicalOnly is a model that plays the key on the canonical tools
// whatever surface it is on: it has no OnSurface, so it never searches.
type canonicalOnly struct{ model.Model }

// TestSearchSurfaceNeverSearched: a model that calls a canonical tool by
// name on a search surface gets the harness's unknown tool result, the
// call is not sent, and the grade says the model never searched.
func TestSearchSurfaceNeverSearched(t *testing.T) {
	s, _ := builtin.LoadSuite("ops")
	m, err := fake.New("perfect", s)
	if err != nil {
		t.Fatal(err)
	}
	rec := searchRun(t, canonicalOnly{m}, "write/new-volume")
	calls := rec.Attempts[0].Calls()
	if len(calls) != 1 || calls[0].Name != "create_volume" || calls[0].Shown || calls[0].Result != `unknown tool "create_volume"` {
		t.Fatalf("calls %+v, want create_volume not shown, an unknown tool", calls)
	}
	res := grade.Run(s, rec)
	if res.Totals.Failed != 1 {
		t.Fatalf("graded %+v, want a failure", res.Totals)
	}
	reasons := res.Attempts[0].Reasons
	want := "the model never searched: on search surface search it called create_volume by name, and the surface shows only search_tools, describe_tool and call_tool, so each call was an unknown tool"
	if len(reasons) == 0 || reasons[0].Message != want {
		t.Errorf("reasons %v, want first %q", reasons, want)
	}
	if row := res.Actions.Attempts[0]; len(row.Reasons) == 0 || !strings.Contains(row.Reasons[0], "never searched") {
		t.Errorf("action row reasons %v, want the never-searched reason first", row.Reasons)
	}
}

// searchForever searches on every turn and never answers.
type searchForever struct{}

func (searchForever) Generate(_ context.Context, req *model.Request) (*model.Response, error) {
	n := fake.Turns(req)
	msg := model.Message{Role: model.Assistant, Blocks: []model.Block{{Kind: model.ToolUse, Call: &model.Call{
		ID: "s" + strings.Repeat("x", n), Name: "search_tools", Args: json.RawMessage(`{"query":"volume"}`)}}}}
	return &model.Response{Message: msg, StopReason: "tool_use"}, nil
}

// TestSearchSurfaceTurnCap: the surface's turn_cap (40 on the ops suite's
// search surface) is an action case's cap there, in place of the case's
// own (3 turns a step plus 4: 7 for write/new-volume).
func TestSearchSurfaceTurnCap(t *testing.T) {
	rec := searchRun(t, searchForever{}, "write/new-volume")
	a := rec.Attempts[0]
	if a.End != record.EndTurnCap || len(a.Turns) != 40 {
		t.Errorf("ended %s after %d turns, want the turn cap after 40", a.End, len(a.Turns))
	}
}
