package audit

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpeval/mcpeval/suite"
)

// TestReadCasesCover counts the read cases of a suite without action keys:
// their tool rules, argument rules, keys and tool-call expectations.
func TestReadCasesCover(t *testing.T) {
	s, tools := live(t, "household")
	if gaps := CoverageOf(s, tools).Gaps(); len(gaps) != 0 {
		t.Errorf("the household suite has coverage gaps:\n%s", strings.Join(gaps, "\n"))
	}
	// A suite that never touches get_returns nor its months argument has
	// both as gaps, and a tool-call case's expected arguments count.
	small, err := suite.LoadFS(fstest.MapFS{"s.yaml": {Data: []byte(`name: small
target: builtin:household
cases:
  - id: pr/history
    mode: tool-call
    prompt: What was it at the end of March 2026?
    expect_tools: [get_net_worth_history]
    expect_args: {months: 7}
  - id: a/b
    prompt: What's our net worth?
    tools: {accepted: [get_net_worth]}
`)}}, "s.yaml", "s.yaml")
	if err != nil {
		t.Fatal(err)
	}
	gaps := strings.Join(CoverageOf(small, tools).Gaps(), "\n")
	for _, want := range []string{"tool get_returns", "get_returns"} {
		if !strings.Contains(gaps, want) {
			t.Errorf("gaps do not name %s:\n%s", want, gaps)
		}
	}
	for _, covered := range []string{"tool get_net_worth:", "tool get_net_worth_history: no case has", "tool get_net_worth_history: no case gives argument months"} {
		if strings.Contains(gaps, covered) {
			t.Errorf("%s is reported as a gap:\n%s", covered, gaps)
		}
	}
}
