package grade

import (
	"fmt"

	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/stats"
	"github.com/mcpeval/mcpeval/suite"
)

// CheckJudge explains the outcome of an attempt of a case graded by its
// judge (graded_by: judge): the judge's majority failed it, or no majority
// was had.
const CheckJudge = "judge"

// ErrorNoVerdict is the error kind of an attempt of a case graded by its
// judge that has no majority verdict: the judge was not asked, or its
// answers split or could not be read. It is kept out of the pass rate, as
// any error is.
const ErrorNoVerdict = "no-verdict"

// Judgement is a judge model's reading of an answer against its case's
// rubric, asked several times with the majority kept. It is advisory on a
// case with deterministic checks, and the grade of a case graded by its
// judge.
type Judgement struct {
	// Model names the judge model.
	Model string `json:"model"`
	// Verdict is the strict majority of the asks, Pass or Fail; empty when
	// no verdict had more than half of them.
	Verdict Outcome `json:"verdict,omitempty"`
	// Pass, Fail and Abstained count the asks: an abstention is an answer
	// that was not the structured verdict, or no answer at all.
	Pass      int `json:"pass"`
	Fail      int `json:"fail"`
	Abstained int `json:"abstained"`
	// Reason is the reason the first ask of the majority gave.
	Reason string `json:"reason,omitempty"`
}

// Asks is how many times the judge was asked.
func (j Judgement) Asks() int { return j.Pass + j.Fail + j.Abstained }

// Split reports whether the asks disagreed: not all gave the same reading.
func (j Judgement) Split() bool {
	n := 0
	for _, v := range []int{j.Pass, j.Fail, j.Abstained} {
		if v > 0 {
			n++
		}
	}
	return n > 1
}

// Tally writes the asks as "2 pass, 1 fail", abstentions named when there
// are any.
func (j Judgement) Tally() string {
	s := fmt.Sprintf("%d pass, %d fail", j.Pass, j.Fail)
	if j.Abstained > 0 {
		s += fmt.Sprintf(", %d abstained", j.Abstained)
	}
	return s
}

// Majority returns the verdict more than half of the asks gave, or "".
func Majority(pass, fail, abstained int) Outcome {
	n := pass + fail + abstained
	switch {
	case 2*pass > n:
		return Pass
	case 2*fail > n:
		return Fail
	}
	return ""
}

// judgedAttempt grades an attempt of a case graded by its judge before any
// judgement is applied: an error stays an error, anything else has no
// verdict yet.
func judgedAttempt(g AttemptGrade) AttemptGrade {
	if g.Outcome == Error {
		return g
	}
	g.Outcome, g.ErrorKind = Error, ErrorNoVerdict
	g.Reasons = []Reason{{CheckJudge, "no judge verdict: the case is graded by its judge, and none was recorded (score the run with --judge)"}}
	return g
}

// ApplyJudgements sets each judgement beside the grade of its attempt.
// On a case graded by its judge the majority verdict becomes the grade (a
// judgement with no majority leaves the attempt without a verdict, an
// error of kind ErrorNoVerdict), and the case's counts and the Judged
// counts are made again; on any other case the judgement changes nothing.
// An attempt that ended in an error stays one.
func ApplyJudgements(s *suite.Suite, res *Result, js map[record.AttemptKey]Judgement) {
	touched := map[string]bool{}
	for i := range res.Attempts {
		g := &res.Attempts[i]
		j, ok := js[record.AttemptKey{Case: g.Case, N: g.N}]
		if !ok {
			continue
		}
		g.Judged = &j
		c := s.Case(g.Case)
		if c == nil || !c.JudgedOnly() || (g.Outcome == Error && g.ErrorKind != ErrorNoVerdict) {
			continue
		}
		touched[g.Case] = true
		why := fmt.Sprintf("judge %s: %s", j.Model, j.Tally())
		if j.Reason != "" {
			why += ": " + j.Reason
		}
		switch j.Verdict {
		case Pass:
			g.Outcome, g.ErrorKind, g.Reasons = Pass, "", []Reason{}
		case Fail:
			g.Outcome, g.ErrorKind, g.Reasons = Fail, "", []Reason{{CheckJudge, why}}
		default:
			g.Outcome, g.ErrorKind, g.Reasons = Error, ErrorNoVerdict, []Reason{{CheckJudge, "no majority verdict: " + why}}
		}
	}
	if len(touched) == 0 {
		return
	}
	recountJudged(s, res)
}

// recountJudged makes the counts of the cases graded by their judge, and
// the Judged counts, again from their attempts.
func recountJudged(s *suite.Suite, res *Result) {
	byCase := map[string][]AttemptGrade{}
	for _, g := range res.Attempts {
		byCase[g.Case] = append(byCase[g.Case], g)
	}
	judged := &Counts{}
	for i := range res.Cases {
		cs := &res.Cases[i]
		c := s.Case(cs.ID)
		if c == nil || !c.JudgedOnly() {
			continue
		}
		cs.Counts = Counts{}
		for _, g := range byCase[cs.ID] {
			cs.add(g)
			judged.add(g)
		}
		cs.finish()
		cs.K = min(cs.Graded, s.AttemptsFor(c))
		cs.PassAtK = stats.PassAtK(cs.Graded, cs.Passed, cs.K)
		cs.PassHatK = stats.PassHatK(cs.Graded, cs.Passed, cs.K)
		cs.Inconsistent = cs.Passed > 0 && cs.Failed > 0
	}
	judged.finish()
	res.Judged = judged
}
