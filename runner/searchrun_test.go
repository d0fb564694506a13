package runner

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/model/fake"
	"github.com/mcpeval/mcpeval/target"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// searchSuite is testSuite's question case with a search surface.
const searchSuite = `name: runner-test
target: builtin:runner-test
surfaces:
  - name: tools
  - name: search
    kind: search
cases:
  - id: g/total
    prompt: What is the total?
    tools: {required: [get_total]}
    figures: [{value: 42, kind: count}]
    key:
      calls: [{tool: get_total, args: {months: 7}}]
      answer: The total is 42.
`

// TestQuestionOnSearchSurface: a question case's tools expectations grade
// a search surface's call_tool as the call it made, and the record shows
// the model the three search tools, not the server's.
func TestQuestionOnSearchSurface(t *testing.T) {
	s := loadSuite(t, searchSuite)
	m, _ := fake.New("perfect", s)
	rec, err := Run(context.Background(), Config{Target: testTarget, Suite: s, Surface: s.Surface("search"), Model: m, OutDir: t.TempDir(), Attempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res := grade.Run(s, rec); res.Totals.Passed != 1 {
		t.Fatalf("graded %+v: %v", res.Totals, res.Attempts)
	}
	blocks := rec.Attempts[0].Turns[2].Blocks
	if len(blocks) != 1 || blocks[0].Call == nil || blocks[0].Call.Name != "call_tool" {
		t.Errorf("third turn's blocks %+v, want the model's call_tool", blocks)
	}
}

// TestSearchSurfaceRefusesClashingTools: a target with a tool of its own
// named as a search tool is refused before any model request.
func TestSearchSurfaceRefusesClashingTools(t *testing.T) {
	s := loadSuite(t, strings.ReplaceAll(searchSuite, "builtin:runner-test", "builtin:clash"))
	tgt := target.Config{Builtins: target.Builtins{"clash": func(bool) (*mcp.Server, error) {
		srv := mcp.NewServer(&mcp.Implementation{Name: "clash", Version: "1"}, nil)
		for _, name := range []string{"get_total", "call_tool"} {
			mcp.AddTool(srv, &mcp.Tool{Name: name, Description: name, Annotations: readOnly},
				func(ctx context.Context, req *mcp.CallToolRequest, in totalIn) (*mcp.CallToolResult, totalOut, error) {
					return nil, totalOut{Total: 42}, nil
				})
		}
		return srv, nil
	}}}
	m, _ := fake.New("perfect", s)
	_, err := Run(context.Background(), Config{Target: tgt, Suite: s, Surface: s.Surface("search"), Model: m, OutDir: t.TempDir(), Attempts: 1})
	want := "surface search is a search surface, but its target has a tool of its own named call_tool"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err %v, want %q", err, want)
	}
}

// TestUserTurnOnSearchSurface: a user turn said when the model called a
// tool holds on a search surface when the model called it through
// call_tool.
func TestUserTurnOnSearchSurface(t *testing.T) {
	s := loadSuite(t, strings.Replace(searchSuite, "    key:\n", "    max_user_turns: 1\n    turns:\n      - when: {called: get_total}\n        say: Thanks. Is that all of it?\n    key:\n", 1))
	m, _ := fake.New("perfect", s)
	rec, err := Run(context.Background(), Config{Target: testTarget, Suite: s, Surface: s.Surface("search"), Model: m, OutDir: t.TempDir(), Attempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	said := false
	for _, turn := range rec.Attempts[0].Turns {
		said = said || turn.User != nil
	}
	if !said {
		t.Errorf("the user turn after a call of get_total was not said: turns %+v", rec.Attempts[0].Turns)
	}
}
