package publish

import (
	"fmt"
	"strings"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/agreement"
	"github.com/mcpeval/mcpeval/internal/judge"
	"github.com/mcpeval/mcpeval/internal/report"
	"github.com/mcpeval/mcpeval/internal/report/format"
)

// Judged is a row's cases graded by a judge model (graded_by: judge):
// their own rate, apart from AsGraded, and each judge's measured
// agreement with people.
type Judged struct {
	// Counts are the judged cases' counts, with the rate and its 95%
	// Wilson interval.
	Counts grade.Counts `json:"counts"`
	// Judges are the judge models that graded them, each with its
	// agreement as measured.
	Judges []JudgeAgreement `json:"judges"`
}

// JudgeAgreement is a judge model's agreement with people as measured
// by "mcpeval judge-agreement --save": Cohen's kappa with its 95%
// interval (absent when it has none), over N attempts, on a day.
type JudgeAgreement struct {
	Model     string   `json:"model"`
	Kappa     float64  `json:"kappa"`
	KappaLow  *float64 `json:"kappa_low,omitempty"`
	KappaHigh *float64 `json:"kappa_high,omitempty"`
	N         int      `json:"n"`
	Measured  string   `json:"measured"`
}

// applyJudge grades the cases graded by their judge as its stored
// rulings (RUN/judge.json) say, as scoring the run does.
func (p *publication) applyJudge() error {
	ops, err := judge.Read(p.rec.Dir)
	if err != nil {
		return err
	}
	judge.Apply(p.in.suite, p.in.res, ops)
	return nil
}

// rowJudged is the judged part of a row; nil when the run has no case
// graded by its judge, or its judge has no measured agreement (the
// unmeasured-judge rule then refuses the run).
func rowJudged(res *grade.Result, ag *agreement.Saved) *Judged {
	if res.Judged == nil {
		return nil
	}
	j := &Judged{Counts: *res.Judged}
	for _, m := range report.JudgeModels(res) {
		if !ag.Measures(m) {
			return nil
		}
		j.Judges = append(j.Judges, JudgeAgreement{Model: m, Kappa: *ag.Kappa, KappaLow: ag.KappaLow, KappaHigh: ag.KappaHigh, N: ag.N, Measured: ag.Measured})
	}
	return j
}

// Text says the judged rate and each judge's kappa in one line, for the
// ledger page: "judged 3/4 75% [30%, 95%]; judge M kappa 0.40 [0.15,
// 0.65] (n=50)".
func (j *Judged) Text() string {
	f := format.Counts(j.Counts)
	s := fmt.Sprintf("judged %s %s %s", f.Count(), f.Percent(), f.CI())
	for _, a := range j.Judges {
		s += fmt.Sprintf("; judge %s kappa %.2f", a.Model, a.Kappa)
		if a.KappaLow != nil && a.KappaHigh != nil {
			s += fmt.Sprintf(" [%.2f, %.2f]", *a.KappaLow, *a.KappaHigh)
		}
		s += fmt.Sprintf(" (n=%d)", a.N)
	}
	return s
}

// unmeasuredJudge refuses a run with cases graded by a judge model whose
// agreement with people has not been measured: a judged rate is only as
// good as that agreement, so none is published without it.
func unmeasuredJudge(in *input) string {
	if in.res == nil || in.res.Judged == nil {
		return ""
	}
	models := report.JudgeModels(in.res)
	if len(models) == 0 {
		return fmt.Sprintf("%d attempts of cases graded by their judge (graded_by: judge) have no judge verdict: ask the judge with mcpeval score %s --judge SPEC, then measure it", in.res.Judged.Errors, in.rec.Dir)
	}
	var missing []string
	for _, m := range models {
		if !in.agreement.Measures(m) {
			missing = append(missing, m)
		}
	}
	if len(missing) == 0 {
		return ""
	}
	return fmt.Sprintf("cases graded by their judge (graded_by: judge) were graded by %s, whose agreement with people is not measured (no %s/agreement.json for it): review the judged attempts with mcpeval review %s, then measure the judge with mcpeval judge-agreement %s --save",
		strings.Join(missing, ", "), in.rec.Dir, in.rec.Dir, in.rec.Dir)
}

// judgedText is the ledger page's line for a row's judged cases; empty
// when it has none.
func judgedText(j *Judged) string {
	if j == nil {
		return ""
	}
	return j.Text()
}
