package runner

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/model/fake"
	"github.com/mcpeval/mcpeval/record"
)

// writableSuite has a tool-call case on the write tool set_total and a
// question case; it does not allow writes.
const writableSuite = `name: w
target: builtin:runner-test-writable
cases:
  - id: pr/set
    dataset: pr
    mode: tool-call
    prompt: Set the total to 7.
    expect_tools: [set_total]
    expect_args: {total: 7}
    key:
      calls: [{tool: set_total, args: {total: 7}}]
  - id: merge/ask
    dataset: merge
    prompt: What is the total?
    decline: true
`

// TestToolCallRunShowsWriteTools checks that a run of tool-call cases only
// is not stopped by the read-only guard (nothing it calls executes), while
// a run that includes another case still is.
func TestToolCallRunShowsWriteTools(t *testing.T) {
	s := loadSuite(t, writableSuite)
	m, _ := fake.New("perfect", s)
	rec, err := Run(context.Background(), Config{Target: testTarget, Suite: s, Model: m, OutDir: t.TempDir(), Attempts: 1, Dataset: "pr"})
	if err != nil {
		t.Fatalf("tool-call run on a target with a write tool: %v", err)
	}
	if len(rec.Attempts) != 1 || rec.Attempts[0].End != record.EndToolCall || !rec.Attempts[0].Calls()[0].NotSent {
		t.Errorf("attempts %+v", rec.Attempts)
	}
	for _, cfg := range []Config{{Dataset: "merge"}, {}, {Cases: []string{"pr/set", "merge/ask"}}} {
		cfg.Target, cfg.Suite, cfg.Model, cfg.OutDir, cfg.Attempts = testTarget, s, m, t.TempDir(), 1
		if _, err := Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "not marked read-only: set_total") {
			t.Errorf("dataset %q cases %v: err %v, want the read-only guard", cfg.Dataset, cfg.Cases, err)
		}
	}
}
