package runner

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/grade"
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

// TestToolCallOnSearchSurface: on a search surface a tool-call case's
// searches and descriptions are answered, and the attempt ends at the
// model's first call_tool, recorded and not sent, which grades as the
// call it names.
func TestToolCallOnSearchSurface(t *testing.T) {
	s := loadSuite(t, strings.Replace(writableSuite, "cases:\n", "surfaces:\n  - name: tools\n  - name: search\n    kind: search\ncases:\n", 1))
	m, _ := fake.New("perfect", s)
	rec, err := Run(context.Background(), Config{Target: testTarget, Suite: s, Surface: s.Surface("search"), Model: m, OutDir: t.TempDir(), Attempts: 1, Dataset: "pr"})
	if err != nil {
		t.Fatal(err)
	}
	a := rec.Attempts[0]
	var got []string
	for _, c := range a.Calls() {
		got = append(got, fmt.Sprintf("%s/%s/sent=%v/shown=%v", c.Name, c.Kind, !c.NotSent, c.Shown))
	}
	want := []string{"search_tools/search/sent=true/shown=true", "describe_tool/search/sent=true/shown=true", "call_tool//sent=false/shown=true"}
	if a.End != record.EndToolCall || !slices.Equal(got, want) {
		t.Fatalf("ended %s with calls %v, want %v at the tool call", a.End, got, want)
	}
	if res := grade.Run(s, rec); res.Totals.Passed != 1 {
		t.Errorf("graded %+v: %v", res.Totals, res.Attempts)
	}
}
