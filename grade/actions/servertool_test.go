package actions

import (
	"fmt"
	"testing"

	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// TestServedCase reads a case's SERVER/TOOL names against the tools a run
// of several servers recorded, and leaves a case of a one-server run as
// it is.
func TestServedCase(t *testing.T) {
	c := &suite.Case{ID: "g/c", Tools: suite.ToolRules{Required: []string{"b/echo"}, Forbidden: []string{"a/echo"}},
		Action: &suite.Action{Kind: suite.KindRead, Steps: []suite.Step{{Tool: "b/only_b"}}}}
	h := &record.Header{Tools: []record.Tool{
		{Name: "a__echo", Server: "a", ServerTool: "echo"},
		{Name: "b__echo", Server: "b", ServerTool: "echo"},
		{Name: "only_b", Server: "b"},
	}}
	got := ServedCase(c, h)
	if got.Tools.Required[0] != "b__echo" || got.Tools.Forbidden[0] != "a__echo" || got.Action.Steps[0].Tool != "only_b" {
		t.Errorf("served case: %+v %+v", got.Tools, got.Action.Steps)
	}
	if c.Tools.Required[0] != "b/echo" || c.Action.Steps[0].Tool != "b/only_b" {
		t.Error("ServedCase changed the suite's case")
	}
	if one := ServedCase(c, &record.Header{Tools: []record.Tool{{Name: "echo"}}}); one != c {
		t.Error("a one-server run's case was copied")
	}
}

// BenchmarkServedCase reads one case against a run of several servers
// with 500 tools, as grading does for every attempt.
func BenchmarkServedCase(b *testing.B) {
	h := &record.Header{}
	for i := range 500 {
		h.Tools = append(h.Tools, record.Tool{Name: fmt.Sprintf("tool_%d", i), Server: fmt.Sprintf("s%d", i%5)})
	}
	c := &suite.Case{ID: "g/c", Tools: suite.ToolRules{Required: []string{"s1/tool_1"}},
		Key: suite.Key{Calls: []suite.KeyCall{{Tool: "s1/tool_1"}}}}
	b.ReportAllocs()
	for b.Loop() {
		ServedCase(c, h)
	}
}
