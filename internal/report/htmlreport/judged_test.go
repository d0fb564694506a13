package htmlreport

import (
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/agreement"
	"github.com/mcpeval/mcpeval/internal/testkit/reporttest"
)

const hostileJudge = `evil:<script>alert(1)</script>`

// judgedFixture is the test run with its first case graded by a judge
// model whose name is hostile, 1 of its attempts passing.
func judgedFixture(t *testing.T) (*RunPage, string) {
	p := fixture(t)
	res := p.Result
	id := res.Cases[0].ID
	res.Cases[0].Judged = true
	c := grade.Counts{}
	for i := range res.Attempts {
		a := &res.Attempts[i]
		if a.Case != id {
			continue
		}
		v := grade.Fail
		if c.Graded == 0 {
			v = grade.Pass
			c.Passed++
		} else {
			c.Failed++
		}
		c.Graded++
		a.Outcome = v
		a.Judged = &grade.Judgement{Model: hostileJudge, Verdict: v, Pass: 3}
	}
	c.Rate = float64(c.Passed) / float64(c.Graded)
	res.Cases[0].Counts = c
	res.Judged = &c
	return p, id
}

// TestJudgedSection: the run page shows the cases graded by a judge apart,
// labelled as judged, with their own rate and interval, the judge, and its
// agreement with people or that none is measured; the judge's name is
// escaped.
func TestJudgedSection(t *testing.T) {
	p, id := judgedFixture(t)
	sec := reporttest.JudgedSection(t, render(t, p))
	reporttest.Contains(t, "judged section", sec,
		`data-check="as-judged-rate"`, "passed, as judged (", "95% CI",
		`<td class="mono">`+id+`</td>`,
		`judge <span class="mono">evil:&lt;script&gt;alert(1)&lt;/script&gt;</span>: <b>agreement not measured</b>`,
	)
	if strings.Contains(sec, "<script>") {
		t.Errorf("the judge's name is not escaped:\n%s", sec)
	}

	k, lo, hi, se := 0.62, 0.41, 0.83, 0.1
	p.Agreement = &agreement.Saved{Agreement: &agreement.Agreement{N: 40, Kappa: &k, KappaLow: &lo, KappaHigh: &hi, KappaSE: &se, Judges: []string{hostileJudge}}, Measured: "2026-11-30"}
	sec = reporttest.JudgedSection(t, render(t, p))
	if want := "kappa 0.62, 95% CI [0.41, 0.83] (n=40"; !strings.Contains(sec, want) || strings.Contains(sec, "not measured") {
		t.Errorf("judged section lacks %q:\n%s", want, sec)
	}
}

// TestNoJudgedSection: a run with no judged case has no judged section.
func TestNoJudgedSection(t *testing.T) {
	if page := render(t, fixture(t)); strings.Contains(page, "Judged by a model") {
		t.Error("a run with no judged case shows a judged section")
	}
}
