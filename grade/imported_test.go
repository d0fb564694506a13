package grade

import (
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// TestImportedActionCasesNotGraded: on imported traffic an action case's
// attempts are not graded (its columns need fixtures) and the warnings say
// so, while a question case beside it is graded as on any run; the same
// record made by a run grades the action case.
func TestImportedActionCasesNotGraded(t *testing.T) {
	s := &suite.Suite{Cases: []*suite.Case{
		{ID: "q/net", Group: "q", Prompt: "net worth?", Tools: suite.ToolRules{Required: []string{"get_net_worth"}}},
		{ID: "a/pay", Group: "a", Prompt: "pay the bill", Action: &suite.Action{Kind: suite.KindRead, Steps: []suite.Step{{Tool: "pay"}}}},
	}}
	attempts := []record.Attempt{
		{Case: "q/net", N: 1, End: record.EndAnswered, Answer: "none", Turns: []record.Turn{{Text: "none"}}},
		{Case: "a/pay", N: 1, End: record.EndAnswered, Answer: "done", Turns: []record.Turn{{Calls: []record.Call{{Name: "pay", Args: []byte("{}"), Shown: true}}}}},
	}
	for _, source := range []string{record.SourceImported, ""} {
		r := &record.Run{Header: record.Header{Source: source, Preflight: record.Preflight{Valid: true}}, Attempts: attempts,
			End: &record.End{Complete: true}}
		res := Run(s, r)
		graded := map[string]bool{}
		for _, a := range res.Attempts {
			graded[a.Case] = true
		}
		warned := strings.Contains(strings.Join(res.Warnings, "\n"), "case a/pay: 1 attempt of an action case "+NotGradedImported)
		imported := source == record.SourceImported
		if !graded["q/net"] || res.Totals.Failed != 1 {
			t.Errorf("source %q: the question case not graded as a failure: %+v", source, res.Totals)
		}
		if graded["a/pay"] == imported || warned != imported {
			t.Errorf("source %q: action case graded %v, warned %v; want graded only when not imported, warned only when imported (%q)", source, graded["a/pay"], warned, res.Warnings)
		}
	}
}
