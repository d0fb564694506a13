package runner

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mcpeval/mcpeval/internal/builtin"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/fake"
	"github.com/mcpeval/mcpeval/suite"
	"github.com/mcpeval/mcpeval/target"
)

// toolsModel answers like fake:perfect and remembers the tools each case's
// requests offered.
type toolsModel struct {
	model.Model
	mu    sync.Mutex
	tools map[string][]string
}

func (m *toolsModel) Generate(ctx context.Context, req *model.Request) (*model.Response, error) {
	m.mu.Lock()
	m.tools[req.CaseID] = toolNames(req)
	m.mu.Unlock()
	if req.CaseID == "narrow/unshown" && fake.Turns(req) == 0 {
		// A tool the case was not shown.
		return &model.Response{Message: fake.CallMsg(0, suite.KeyCall{Tool: "get_accounts"}), StopReason: "tool_use"}, nil
	}
	return m.Model.Generate(ctx, req)
}

const allowlistSuite = `name: allowlist
target: builtin:household
tools: {exclude: [update_balance, add_cashflow]}
cases:
  - id: narrow/net-worth
    prompt: What's our net worth?
    tools: {required: [get_net_worth], include: [get_net_worth]}
    key: {calls: [{tool: get_net_worth}], answer: "It is SGD 2,394,755."}
  - id: narrow/glob
    prompt: What's our net worth over time?
    tools: {include: ["get_net_worth*"], exclude: [get_net_worth], accepted: [get_net_worth_history]}
    key: {calls: [{tool: get_net_worth_history, args: {months: 1}}], answer: See above.}
  - id: narrow/unshown
    prompt: Which accounts do we have?
    tools: {include: [get_net_worth], forbidden: [get_accounts]}
  - id: wide/accounts
    prompt: Which accounts do we have?
    tools: {required: [get_accounts]}
    key: {calls: [{tool: get_accounts}], answer: Some accounts.}
`

// TestToolAllowlist runs the household server with its write tools listed
// and checks that the suite's exclude keeps them from the model (and from
// the read-only guard), and that each case's include narrows what its
// requests hold, as the record says.
func TestToolAllowlist(t *testing.T) {
	s := loadSuite(t, allowlistSuite)
	perfect, err := fake.New("perfect", s)
	if err != nil {
		t.Fatal(err)
	}
	m := &toolsModel{Model: perfect, tools: map[string][]string{}}
	rec, err := Run(context.Background(), Config{
		Target: target.Config{Spec: "builtin:household", Builtins: builtin.All(), Writable: true},
		Suite:  s, Model: m, ModelInfo: model.Info{Spec: "fake:perfect", Fake: true}, Attempts: 1,
		OutDir: t.TempDir(), Now: clock(), NewID: func() string { return "run-allow" },
	})
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	var shown []string
	for _, tool := range rec.Header.Tools {
		shown = append(shown, tool.Name)
	}
	if slices.Contains(shown, "update_balance") || slices.Contains(shown, "add_cashflow") || !slices.Contains(shown, "get_accounts") {
		t.Errorf("header shows %v, want the read tools only", shown)
	}
	want := map[string][]string{
		"narrow/net-worth": {"get_net_worth"},
		"narrow/glob":      {"get_net_worth_history"},
		"narrow/unshown":   {"get_net_worth"},
		"wide/accounts":    shown,
	}
	for id, w := range want {
		if got := m.tools[id]; !slices.Equal(got, w) {
			t.Errorf("case %s was offered %v, want %v", id, got, w)
		}
		if got := CaseTools(&rec.Header, id); !slices.Equal(got, w) {
			t.Errorf("record says case %s was shown %v, want %v", id, got, w)
		}
	}
	var byCase map[string][]string
	if err := json.Unmarshal(rec.Header.Extra[CaseToolsKey], &byCase); err != nil || len(byCase) != 3 {
		t.Errorf("header %s: %s (%v), want the three narrowed cases", CaseToolsKey, rec.Header.Extra[CaseToolsKey], err)
	}
	for _, a := range rec.Attempts {
		calls := a.Calls()
		if len(calls) != 1 {
			t.Errorf("%s: %d calls", a.Case, len(calls))
			continue
		}
		unshown := a.Case == "narrow/unshown"
		if calls[0].Shown == unshown || unshown && !strings.Contains(calls[0].Rejected, "unknown tool") {
			t.Errorf("%s: call %+v, shown should be %v", a.Case, calls[0], !unshown)
		}
	}
}

// TestAllowlistKeepsTheReadOnlyGuard checks that a write tool the suite
// still shows stops a read-only run.
func TestAllowlistKeepsTheReadOnlyGuard(t *testing.T) {
	s := loadSuite(t, strings.Replace(allowlistSuite, "exclude: [update_balance, add_cashflow]", "exclude: [update_balance]", 1))
	perfect, _ := fake.New("perfect", s)
	_, err := Run(context.Background(), Config{
		Target: target.Config{Spec: "builtin:household", Builtins: builtin.All(), Writable: true},
		Suite:  s, Model: perfect, Attempts: 1, OutDir: t.TempDir(),
	})
	if err == nil || !strings.Contains(err.Error(), "not marked read-only: add_cashflow") {
		t.Fatalf("err %v, want the read-only guard to stop on add_cashflow", err)
	}
}

// TestAllowlistPatternMatchingNoTool checks that a filter name matching no
// tool of the target stops the run before any model request.
func TestAllowlistPatternMatchingNoTool(t *testing.T) {
	s := loadSuite(t, strings.Replace(allowlistSuite, `include: ["get_net_worth*"]`, `include: ["get_net_worth*", "list_*"]`, 1))
	perfect, _ := fake.New("perfect", s)
	_, err := Run(context.Background(), Config{
		Target: target.Config{Spec: "builtin:household", Builtins: builtin.All()},
		Suite:  s, Model: perfect, Attempts: 1, OutDir: t.TempDir(),
	})
	if err == nil || !strings.Contains(err.Error(), `case narrow/glob: tools.include: "list_*" matches no tool`) {
		t.Fatalf("err %v", err)
	}
}
