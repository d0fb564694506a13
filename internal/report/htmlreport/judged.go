package htmlreport

import (
	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/agreement"
	"github.com/mcpeval/mcpeval/internal/report/format"
)

// JudgedView is the cases graded by a judge model (graded_by: judge), as
// the "judged" template draws them apart from the checked cases: their
// own rate with its interval, each judge and its measured agreement with
// people, and a row per case.
type JudgedView struct {
	Rate RateView
	// Count, Percent and CI are the judged total in words.
	Count, Percent, CI string
	// Judges say, per judge model, its measured agreement or that none is.
	Judges []JudgeView
	Cases  []JudgedCaseView
}

// JudgeView is one judge model and what is known of its agreement with
// people.
type JudgeView struct {
	Model, Agreement string
	// Measured is false when the agreement is not measured.
	Measured bool
}

// JudgedCaseView is one case graded by its judge.
type JudgedCaseView struct {
	Case, Count, Percent, CI string
	Errors                   int
}

// judgedView lays out the judged cases of res; nil when it has none.
func judgedView(res *grade.Result, ag *agreement.Saved) *JudgedView {
	if res.Judged == nil {
		return nil
	}
	f := format.Counts(*res.Judged)
	v := &JudgedView{Rate: rate("as judged", "as-judged", *res.Judged, colorAs, 260), Count: f.Count(), Percent: f.Percent(), CI: f.CI()}
	models := map[string]bool{}
	for _, c := range res.Cases {
		if c.Judged {
			cf := format.Counts(c.Counts)
			v.Cases = append(v.Cases, JudgedCaseView{Case: c.ID, Count: cf.Count(), Percent: cf.Percent(), CI: cf.CI(), Errors: c.Errors})
		}
	}
	judged := map[string]bool{}
	for _, c := range v.Cases {
		judged[c.Case] = true
	}
	for _, a := range res.Attempts {
		if j := a.Judged; j != nil && judged[a.Case] && !models[j.Model] {
			models[j.Model] = true
			v.Judges = append(v.Judges, JudgeView{Model: j.Model, Agreement: ag.For(j.Model), Measured: ag.Measures(j.Model)})
		}
	}
	return v
}
