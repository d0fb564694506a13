package runner

import (
	"context"
	"testing"

	"github.com/mcpeval/mcpeval/model/fake"
	"github.com/mcpeval/mcpeval/target"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// metaSuite is testSuite's question case on a mapped surface, whose one
// tool takes the action as an argument, with a user turn said once the
// model called get_total.
const metaSuite = `name: runner-test
target: builtin:runner-test
surfaces:
  - name: tools
  - name: meta
    target: builtin:runner-test-meta
    map:
      get_total: {tool: totals, args: {action: get}}
      hang: {tool: totals, args: {action: hang}}
cases:
  - id: g/total
    prompt: What is the total?
    tools: {required: [get_total]}
    figures: [{value: 42, kind: count}]
    max_user_turns: 1
    turns:
      - when: {called: get_total}
        say: Thanks. Is that all of it?
    key:
      calls: [{tool: get_total, args: {months: 7}}]
      answer: The total is 42.
`

// metaIn is the meta tool's input: the action and the canonical tool's
// arguments.
type metaIn struct {
	Action string `json:"action"`
	Months int    `json:"months,omitempty"`
}

// TestUserTurnOnMappedSurface: a user turn said when the model called a
// tool holds on a mapped surface when the model called the meta-tool
// with the action that is that tool.
func TestUserTurnOnMappedSurface(t *testing.T) {
	s := loadSuite(t, metaSuite)
	tgt := target.Config{Builtins: target.Builtins{
		"runner-test": testBuiltins["runner-test"],
		"runner-test-meta": func(bool) (*mcp.Server, error) {
			srv := mcp.NewServer(&mcp.Implementation{Name: "runner-test-meta", Version: "1"}, nil)
			mcp.AddTool(srv, &mcp.Tool{Name: "totals", Description: "the totals: action get", Annotations: readOnly},
				func(ctx context.Context, req *mcp.CallToolRequest, in metaIn) (*mcp.CallToolResult, totalOut, error) {
					return nil, totalOut{Total: 42}, nil
				})
			return srv, nil
		},
	}}
	m, _ := fake.New("perfect", s)
	rec, err := Run(context.Background(), Config{Target: tgt, Suite: s, Surface: s.Surface("meta"), Model: m, OutDir: t.TempDir(), Attempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	called, said := false, false
	for _, turn := range rec.Attempts[0].Turns {
		for _, c := range turn.Calls {
			called = called || c.Name == "totals"
		}
		said = said || turn.User != nil
	}
	if !called {
		t.Fatalf("the model did not call the meta-tool: turns %+v", rec.Attempts[0].Turns)
	}
	if !said {
		t.Errorf("the user turn after a call of get_total (totals, action get) was not said: turns %+v", rec.Attempts[0].Turns)
	}
}
