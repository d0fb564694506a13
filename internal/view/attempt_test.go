package view

import (
	"testing"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/report/htmlreport"
	"github.com/mcpeval/mcpeval/suite"
)

func TestFlagCalls(t *testing.T) {
	c := &suite.Case{Tools: suite.ToolRules{Forbidden: []string{"delete_all"}}, Args: []suite.ArgRule{{Tool: "get_history", Arg: "months"}}}
	view := func() htmlreport.AttemptView {
		return htmlreport.AttemptView{Turns: []htmlreport.TurnView{{Calls: []htmlreport.CallView{
			{Name: "get_history", Shows: true}, {Name: "delete_all", Shows: true}, {Name: "secret", Note: "a tool the model was not shown: not sent"}, {Name: "get_accounts", Shows: true},
		}}}}
	}
	flags := func(v htmlreport.AttemptView) []string {
		var out []string
		for _, cv := range v.Turns[0].Calls {
			out = append(out, cv.Flag)
		}
		return out
	}
	v := view()
	flagCalls(&v, c, &grade.AttemptGrade{Outcome: grade.Fail, Reasons: []grade.Reason{{Check: grade.CheckArgs, Message: "months: want ≥ 10"}}})
	want := []string{"arguments fail the case's rules", "forbidden by the case", "not shown to the model", ""}
	for i, f := range flags(v) {
		if f != want[i] {
			t.Errorf("failed args: call %d flagged %q, want %q", i, f, want[i])
		}
	}
	// With the argument check passed, the calls of its tool are fine.
	v = view()
	flagCalls(&v, c, &grade.AttemptGrade{Outcome: grade.Pass})
	if f := flags(v); f[0] != "" || f[1] == "" {
		t.Errorf("passed args: flags %q", f)
	}
}

func TestFigureTolerances(t *testing.T) {
	s := &suite.Suite{}
	for _, tc := range []struct {
		f    suite.Figure
		want string
	}{
		{suite.Figure{Value: 2394755, Kind: "money", Currency: "SGD"}, "SGD 2,394,755 (± 1%)"},
		{suite.Figure{Value: 2394755, Currency: "SGD"}, "SGD 2,394,755 (exact)"},
		{suite.Figure{Value: 18.81, Kind: "percent"}, "18.81% (± 0.1 points)"},
		{suite.Figure{Value: 450, Kind: "count", Unit: "units", Tolerance: suite.Tolerance{Absolute: 5, Set: true}}, "450 units (exact)"},
		{suite.Figure{Value: 2271631.6, Kind: "money", Tolerance: suite.Tolerance{Relative: 0.0025, Set: true}, Label: "net worth"}, "net worth: 2,271,631.6 (± 0.25%)"},
	} {
		if got := figure(s, tc.f); got != tc.want {
			t.Errorf("figure(%+v) = %q, want %q", tc.f, got, tc.want)
		}
	}
}
