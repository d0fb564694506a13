package runner

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/target"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// vaultServer lists open and peek. Calling open adds the tool read_vault
// and removes peek: the server then says its tools changed.
func vaultServer(bool) (*mcp.Server, error) {
	s := mcp.NewServer(&mcp.Implementation{Name: "vault", Version: "1"}, nil)
	text := func(t string) *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: t}}}
	}
	empty := json.RawMessage(`{"type":"object"}`)
	s.AddTool(&mcp.Tool{Name: "peek", Description: "peeks", InputSchema: empty, Annotations: readOnly}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text("closed"), nil
	})
	s.AddTool(&mcp.Tool{Name: "open", Description: "opens the vault", InputSchema: empty, Annotations: readOnly}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		s.AddTool(&mcp.Tool{Name: "read_vault", Description: "reads the vault", InputSchema: empty, Annotations: readOnly}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text("the code is 1234"), nil
		})
		s.RemoveTools("peek")
		time.Sleep(100 * time.Millisecond) // the SDK says the tools changed 10ms after the change
		return text("opened"), nil
	})
	return s, nil
}

// turnsModel plays its turns in order (a turn with no call answers) and
// keeps the names of the tools each request carried.
type turnsModel struct {
	mu    sync.Mutex
	turns [][]string
	seen  [][]string
}

func (m *turnsModel) Generate(_ context.Context, req *model.Request) (*model.Response, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var names []string
	for _, t := range req.Tools {
		names = append(names, t.Name)
	}
	m.seen = append(m.seen, names)
	turn := len(m.seen) - 1
	if turn >= len(m.turns) || len(m.turns[turn]) == 0 {
		return &model.Response{Message: model.Message{Blocks: []model.Block{{Kind: model.Text, Text: "The code is 1234."}}}}, nil
	}
	var msg model.Message
	for i, name := range m.turns[turn] {
		msg.Blocks = append(msg.Blocks, model.Block{Kind: model.ToolUse, Call: &model.Call{ID: name + string(rune('a'+i)), Name: name, Args: json.RawMessage(`{}`)}})
	}
	return &model.Response{Message: msg}, nil
}

// TestToolsChangedMidRun runs a case whose answer needs a tool the server
// adds when the model opens the vault: the model's next request carries
// the new tools, the attempt records the change and the turn it came
// before, the call of the added tool is sent and graded as a shown tool,
// and a call of the removed one is the model's error, never sent.
func TestToolsChangedMidRun(t *testing.T) {
	s := loadSuite(t, `name: vault
target: builtin:vault
cases:
  - id: v/code
    prompt: What is the code in the vault?
    answer: {contains: ["1234"]}
`)
	m := &turnsModel{turns: [][]string{{"open"}, {"read_vault", "peek"}}}
	rec, err := Run(context.Background(), Config{Suite: s, Model: m, ModelInfo: model.Info{Spec: "test:turns"}, Attempts: 1,
		Target: target.Config{Builtins: target.Builtins{"vault": vaultServer}}, OutDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	wantSeen := [][]string{{"open", "peek"}, {"open", "read_vault"}, {"open", "read_vault"}}
	if d := cmp.Diff(wantSeen, m.seen); d != "" {
		t.Errorf("tools of each request (-want +got):\n%s", d)
	}
	a := rec.Attempts[0]
	if len(a.ToolChanges) != 1 {
		t.Fatalf("tool changes %+v, want one", a.ToolChanges)
	}
	ch := a.ToolChanges[0]
	if ch.Turn != 1 || len(ch.Added) != 1 || ch.Added[0].Name != "read_vault" || !slices.Equal(ch.Removed, []string{"peek"}) || len(ch.Changed) != 0 || ch.ToolsHash == "" {
		t.Errorf("tool change %+v: want read_vault added and peek removed before turn 1", ch)
	}
	calls := a.Calls()
	if len(calls) != 3 || !calls[1].Shown || calls[1].Result != "the code is 1234" || calls[2].Shown || calls[2].Result == "closed" {
		t.Fatalf("calls %+v: want read_vault sent and peek refused as not shown", calls)
	}
	g := grade.Attempt(s, s.Cases[0], &rec.Header, &a)
	var why []string
	for _, r := range g.Reasons {
		why = append(why, r.Message)
	}
	if want := []string{"called peek, a tool the run did not show the model: fails outright"}; !slices.Equal(why, want) {
		t.Errorf("grade reasons %q, want only the call of the removed tool", why)
	}

	// Without the call of the removed tool, the attempt passes: a call of
	// the added tool is no unknown tool.
	m = &turnsModel{turns: [][]string{{"open"}, {"read_vault"}}}
	rec, err = Run(context.Background(), Config{Suite: s, Model: m, ModelInfo: model.Info{Spec: "test:turns"}, Attempts: 1,
		Target: target.Config{Builtins: target.Builtins{"vault": vaultServer}}, OutDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if g := grade.Attempt(s, s.Cases[0], &rec.Header, &rec.Attempts[0]); g.Outcome != grade.Pass {
		t.Errorf("grade %+v: want a pass", g)
	}
}
