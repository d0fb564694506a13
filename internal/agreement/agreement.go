package agreement

import (
	"math"
	"sort"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/review"
)

// Pair is one attempt both the judge and a person read.
type Pair struct {
	Run  string `json:"run"`
	Case string `json:"case"`
	N    int    `json:"attempt"`
	// Person is true when the person reads the attempt as passing (a
	// grader false fail), false when failing (a model failure).
	Person bool `json:"person_pass"`
	// Judge is true when the judge reads it as passing: the answer
	// declines, as a decline case asks, or its rubric's majority passes.
	Judge bool `json:"judge_pass"`
	// Verdict, Reviewer and Note are the person's review.
	Verdict  review.Verdict `json:"verdict"`
	Reviewer string         `json:"reviewer"`
	Note     string         `json:"note"`
	// Kind is what the judge read: KindDecline (whether the answer
	// declines) or KindRubric (the answer against its case's rubric).
	Kind string `json:"kind"`
	// JudgeModel and Reason are the judge's opinion.
	JudgeModel string `json:"judge_model"`
	Reason     string `json:"reason,omitempty"`
}

// Agree reports whether the judge and the person read the attempt alike.
func (p Pair) Agree() bool { return p.Person == p.Judge }

// Matrix counts the pairs by the person's reading (rows) and the judge's
// (columns), passes first.
type Matrix struct {
	PersonPassJudgePass int `json:"person_pass_judge_pass"`
	PersonPassJudgeFail int `json:"person_pass_judge_fail"`
	PersonFailJudgePass int `json:"person_fail_judge_pass"`
	PersonFailJudgeFail int `json:"person_fail_judge_fail"`
}

// cells returns the matrix as n[person][judge], index 0 pass, 1 fail.
func (m Matrix) cells() [2][2]float64 {
	return [2][2]float64{
		{float64(m.PersonPassJudgePass), float64(m.PersonPassJudgeFail)},
		{float64(m.PersonFailJudgePass), float64(m.PersonFailJudgeFail)},
	}
}

// Z95 is the normal quantile of a two-sided 95% interval.
const Z95 = 1.959963984540054

// Agreement is how well the judge agrees with people.
type Agreement struct {
	// N is the number of attempts both read.
	N      int    `json:"n"`
	Matrix Matrix `json:"matrix"`
	// Observed is the raw agreement (po): the share of attempts read alike.
	// Chance (pe) is the agreement expected from the two readers' pass
	// rates alone.
	Observed float64 `json:"observed"`
	Chance   float64 `json:"chance"`
	// Kappa is Cohen's kappa, (po - pe) / (1 - pe), with its large-sample
	// standard error and 95% interval (clipped to [-1, 1]). All are nil
	// when undefined: no pair, or both readers put every attempt in one
	// class (pe = 1). When only one reader did (Alike), kappa is 0 by
	// construction and has no interval.
	Kappa     *float64 `json:"kappa,omitempty"`
	KappaSE   *float64 `json:"kappa_se,omitempty"`
	KappaLow  *float64 `json:"kappa_low,omitempty"`
	KappaHigh *float64 `json:"kappa_high,omitempty"`
	// SetAside counts reviews that were left out: their verdict
	// (expectation in question) is neither a pass nor a fail.
	SetAside int `json:"set_aside"`
	// Judges names the judge models the opinions came from.
	Judges []string `json:"judges"`
	// Disagreements are the pairs read otherwise, by run, case and attempt.
	Disagreements []Pair `json:"disagreements"`
}

// Pairs returns the attempts of a graded run (with the judge's opinions
// attached, judge.Attach) that the judge and a person both read, by a
// current review in rv; and how many such reviews were set aside for a
// verdict that is neither pass nor fail. run names the run in the pairs.
func Pairs(run string, res *grade.Result, rv *review.Reviewed) (pairs []Pair, setAside int) {
	for _, g := range res.Attempts {
		p, ok := judgeReading(g)
		if !ok {
			continue
		}
		a := rv.Attempt(g.Case, g.N)
		if a == nil || a.Review == nil {
			continue
		}
		p.Run, p.Case, p.N = run, g.Case, g.N
		p.Verdict, p.Reviewer, p.Note = a.Review.Verdict, a.Review.Reviewer, a.Review.Note
		switch a.Review.Verdict {
		case review.GraderFalseFail:
			p.Person = true
		case review.ModelFailure:
			p.Person = false
		default:
			setAside++
			continue
		}
		pairs = append(pairs, p)
	}
	return pairs, setAside
}

// judgeReading is the judge's reading of an attempt: its decline opinion,
// else the majority of its readings against the case's rubric (a case
// graded by its judge); false when it has neither.
func judgeReading(g grade.AttemptGrade) (Pair, bool) {
	switch {
	case g.Judge != nil:
		return Pair{Kind: KindDecline, Judge: g.Judge.Declines, JudgeModel: g.Judge.Model, Reason: g.Judge.Reason}, true
	case g.Judged != nil && g.Judged.Verdict != "":
		return Pair{Kind: KindRubric, Judge: g.Judged.Verdict == grade.Pass, JudgeModel: g.Judged.Model, Reason: g.Judged.Reason}, true
	}
	return Pair{}, false
}

// The kinds of a judge's reading.
const (
	// KindDecline is an opinion on whether an answer declines.
	KindDecline = "decline"
	// KindRubric is the majority of readings against a case's rubric.
	KindRubric = "rubric"
)

// Measure counts the pairs and works out the agreement.
func Measure(pairs []Pair, setAside int) *Agreement {
	a := &Agreement{N: len(pairs), SetAside: setAside, Judges: []string{}, Disagreements: []Pair{}}
	judges := map[string]bool{}
	for _, p := range pairs {
		switch {
		case p.Person && p.Judge:
			a.Matrix.PersonPassJudgePass++
		case p.Person:
			a.Matrix.PersonPassJudgeFail++
		case p.Judge:
			a.Matrix.PersonFailJudgePass++
		default:
			a.Matrix.PersonFailJudgeFail++
		}
		if !p.Agree() {
			a.Disagreements = append(a.Disagreements, p)
		}
		if !judges[p.JudgeModel] {
			judges[p.JudgeModel] = true
			a.Judges = append(a.Judges, p.JudgeModel)
		}
	}
	sort.Strings(a.Judges)
	sort.SliceStable(a.Disagreements, func(i, j int) bool {
		x, y := a.Disagreements[i], a.Disagreements[j]
		if x.Run != y.Run {
			return x.Run < y.Run
		}
		if x.Case != y.Case {
			return x.Case < y.Case
		}
		return x.N < y.N
	})
	if a.N == 0 {
		return a
	}
	a.Observed, a.Chance = agreement(a.Matrix)
	if k, se, ok := kappa(a.Matrix); ok {
		a.Kappa = &k
		if a.Alike() == "" {
			lo, hi := math.Max(-1, k-Z95*se), math.Min(1, k+Z95*se)
			a.KappaSE, a.KappaLow, a.KappaHigh = &se, &lo, &hi
		}
	}
	return a
}

// agreement returns the observed agreement po and the agreement expected
// by chance pe, from the readers' marginal rates.
func agreement(m Matrix) (po, pe float64) {
	p, row, col := proportions(m)
	po = p[0][0] + p[1][1]
	pe = row[0]*col[0] + row[1]*col[1]
	return po, pe
}

// proportions returns the cells as shares of the total, with the row
// (person) and column (judge) marginals.
func proportions(m Matrix) (p [2][2]float64, row, col [2]float64) {
	c := m.cells()
	n := c[0][0] + c[0][1] + c[1][0] + c[1][1]
	for i := range 2 {
		for j := range 2 {
			p[i][j] = c[i][j] / n
			row[i] += p[i][j]
			col[j] += p[i][j]
		}
	}
	return p, row, col
}

// kappa returns Cohen's kappa and its standard error; ok is false when
// kappa is undefined (pe = 1: both readers put every attempt in the same
// class).
//
// The standard error is the large-sample one of Fleiss, Cohen and Everitt
// (1969), "Large sample standard errors of kappa and weighted kappa",
// Psychological Bulletin 72(5):323-327, the standard error of kappa when
// it is not zero (also in Fleiss, Levin & Paik, Statistical Methods for
// Rates and Proportions):
//
//	var(κ) = [ Σi pii((1-pe) - (pi. + p.i)(1-po))²
//	         + (1-po)² Σi≠j pij(p.i + pj.)²
//	         - (po·pe - 2pe + po)² ] / (n(1-pe)⁴)
//
// The interval κ ± 1.96·se is a normal approximation: with few pairs it is
// rough, which its width shows.
func kappa(m Matrix) (k, se float64, ok bool) {
	po, pe := agreement(m)
	if pe >= 1-1e-12 {
		return 0, 0, false
	}
	p, row, col := proportions(m)
	n := float64(m.PersonPassJudgePass + m.PersonPassJudgeFail + m.PersonFailJudgePass + m.PersonFailJudgeFail)
	k = (po - pe) / (1 - pe)
	var a, b float64
	for i := range 2 {
		d := (1 - pe) - (row[i]+col[i])*(1-po)
		a += p[i][i] * d * d
		for j := range 2 {
			if i != j {
				s := col[i] + row[j]
				b += p[i][j] * s * s
			}
		}
	}
	b *= (1 - po) * (1 - po)
	c := po*pe - 2*pe + po
	v := (a + b - c*c) / (n * math.Pow(1-pe, 4))
	return k, math.Sqrt(math.Max(v, 0)), true
}

// Alike names the reader who read every attempt the same way ("the judge"
// or "people"), for whom kappa is 0 whatever the other reads; "" when each
// read some attempts each way.
func (a *Agreement) Alike() string {
	m := a.Matrix
	switch {
	case a.N == 0:
		return ""
	case m.PersonPassJudgePass+m.PersonFailJudgePass == 0 || m.PersonPassJudgeFail+m.PersonFailJudgeFail == 0:
		return "the judge"
	case m.PersonPassJudgePass+m.PersonPassJudgeFail == 0 || m.PersonFailJudgePass+m.PersonFailJudgeFail == 0:
		return "people"
	}
	return ""
}
