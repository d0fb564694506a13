package agreement

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/review"
	"github.com/mcpeval/mcpeval/internal/testkit/reporttest"
	"github.com/mcpeval/mcpeval/record"
)

// handBuilt is a graded run of 53 failed attempts of a decline case, with
// the judge's opinions and people's reviews:
//
//	                judge pass  judge fail
//	person pass         20           5
//	person fail         10          15
//
// plus one attempt reviewed "expectation in question" (set aside), one
// the judge read and no one reviewed, and one reviewed that the judge did
// not read: 50 pairs.
func handBuilt(t *testing.T) (*grade.Result, *review.Reviewed) {
	t.Helper()
	rec := &record.Run{Header: record.Header{RunID: "r1"}}
	res := &grade.Result{RunID: "r1", Valid: true}
	type cell struct {
		n             int
		person, judge bool
	}
	var plan []cell
	for _, c := range []cell{{20, true, true}, {5, true, false}, {10, false, true}, {15, false, false}} {
		for range c.n {
			plan = append(plan, c)
		}
	}
	var reviews []review.Review
	for i := range len(plan) + 3 {
		n := i + 1
		answer := fmt.Sprintf("answer %d", n)
		rec.Attempts = append(rec.Attempts, record.Attempt{Case: "u/decline", N: n, Answer: answer})
		g := grade.AttemptGrade{Case: "u/decline", N: n, Outcome: grade.Fail, Reasons: []grade.Reason{{Check: "decline", Message: "answers"}}}
		verdict, judged := review.ModelFailure, true
		switch {
		case i < len(plan):
			if plan[i].person {
				verdict = review.GraderFalseFail
			}
			g.Judge = &grade.Opinion{Declines: plan[i].judge, Model: "fake:phrases", Reason: fmt.Sprintf("reason %d", n)}
		case i == len(plan):
			verdict = review.ExpectationInQuestion
			g.Judge = &grade.Opinion{Declines: true, Model: "fake:phrases"}
		case i == len(plan)+1:
			judged = false // no one reviews it
			g.Judge = &grade.Opinion{Declines: true, Model: "fake:phrases"}
		}
		res.Attempts = append(res.Attempts, g)
		if judged {
			reviews = append(reviews, review.Review{RunID: "r1", Case: g.Case, N: n, Verdict: verdict, Note: "read it", Reviewer: "ana", Time: time.Unix(0, 0)})
		}
	}
	l := review.New(rec, nil)
	for i := range reviews {
		r := &reviews[i]
		r.Fingerprint = l.Fingerprint(&res.Attempts[r.N-1])
		if err := l.Add(*r); err != nil {
			t.Fatal(err)
		}
	}
	return res, review.Apply(res, l)
}

// TestKnownKappa: the hand-built table [[20, 5], [10, 15]] has
//
//	po = (20 + 15) / 50 = 0.7
//	pe = (25/50)(30/50) + (25/50)(20/50) = 0.3 + 0.2 = 0.5
//	kappa = (0.7 - 0.5) / (1 - 0.5) = 0.4
//
// and, by the Fleiss-Cohen-Everitt formula with cells .4 .1 / .2 .3, rows
// .5 .5, columns .6 .4:
//
//	A = .4(.5 - 1.1·.3)² + .3(.5 - .9·.3)² = .01156 + .01587 = .02743
//	B = .3²(.1·(.6+.5)² + .2·(.4+.5)²) = .09 · .283 = .02547
//	C = (.7·.5 - 2·.5 + .7)² = .05² = .0025
//	var = (A + B - C) / (50 · .5⁴) = .0504 / 3.125 = .016128, se = .12700
//	95% CI = .4 ± 1.96 · .127 = [0.151, 0.649]
func TestKnownKappa(t *testing.T) {
	res, rv := handBuilt(t)
	pairs, aside := Pairs("r1", res, rv)
	a := Measure(pairs, aside)
	want := Matrix{PersonPassJudgePass: 20, PersonPassJudgeFail: 5, PersonFailJudgePass: 10, PersonFailJudgeFail: 15}
	if a.Matrix != want || a.N != 50 || a.SetAside != 1 {
		t.Fatalf("matrix %+v n %d set aside %d, want %+v, 50, 1", a.Matrix, a.N, a.SetAside, want)
	}
	near := func(name string, got *float64, want, tol float64) {
		t.Helper()
		if got == nil || math.Abs(*got-want) > tol {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	near("po", &a.Observed, 0.7, 1e-12)
	near("pe", &a.Chance, 0.5, 1e-12)
	near("kappa", a.Kappa, 0.4, 1e-12)
	near("se", a.KappaSE, math.Sqrt(0.016128), 1e-9)
	near("low", a.KappaLow, 0.151, 5e-4)
	near("high", a.KappaHigh, 0.649, 5e-4)
	if len(a.Disagreements) != 15 || a.Disagreements[0].N != 21 || len(a.Judges) != 1 {
		t.Errorf("%d disagreements, first #%d; judges %v", len(a.Disagreements), a.Disagreements[0].N, a.Judges)
	}

	var b bytes.Buffer
	if err := Text(&b, a); err != nil {
		t.Fatal(err)
	}
	reporttest.Contains(t, "text", b.String(),
		"judge fake:phrases against people, over 50 attempts both read",
		"person pass           20           5",
		"person fail           10          15",
		"raw agreement  70% (35 of 50; 50% expected by chance)",
		"Cohen's kappa  0.40, 95% CI [0.15, 0.65] (n=50",
		"set aside      1 review of expectation in question",
		"disagreements (15)",
		"  r1  u/decline #21\n    person ana says pass (grader false fail): read it\n    judge fake:phrases says fail: reason 21\n",
	)
	b.Reset()
	if err := JSON(&b, a); err != nil {
		t.Fatal(err)
	}
	var back Agreement
	if err := json.Unmarshal(b.Bytes(), &back); err != nil || back.Matrix != want || back.Kappa == nil || len(back.Disagreements) != 15 {
		t.Errorf("json (%v): %s", err, b.String())
	}
}

// TestPerfectAndChance: a judge that reads every attempt as people do has
// kappa 1; one whose agreement is no better than chance has kappa 0.
func TestPerfectAndChance(t *testing.T) {
	for _, c := range []struct {
		m    Matrix
		want float64
	}{
		{Matrix{PersonPassJudgePass: 7, PersonFailJudgeFail: 3}, 1},
		{Matrix{PersonPassJudgePass: 1, PersonPassJudgeFail: 1, PersonFailJudgePass: 1, PersonFailJudgeFail: 7}, 0.375},
		// po = .5, pe = .5·.5 + .5·.5 = .5.
		{Matrix{5, 5, 5, 5}, 0},
		// Always against: po = 0, pe = .5, kappa = -1.
		{Matrix{PersonPassJudgeFail: 4, PersonFailJudgePass: 4}, -1},
	} {
		a := Measure(pairsOf(c.m), 0)
		if a.Kappa == nil || math.Abs(*a.Kappa-c.want) > 1e-12 || *a.KappaLow < -1 || *a.KappaHigh > 1 {
			t.Errorf("%+v: kappa %v [%v, %v], want %v", c.m, a.Kappa, a.KappaLow, a.KappaHigh, c.want)
		}
	}
}

// TestUndefined: with no pair, or every reading in one class, kappa is
// undefined and says so.
func TestUndefined(t *testing.T) {
	for _, m := range []Matrix{{}, {PersonPassJudgePass: 6}} {
		a := Measure(pairsOf(m), 0)
		if a.Kappa != nil || !strings.HasPrefix(KappaText(a), "undefined") {
			t.Errorf("%+v: kappa %v, %q", m, a.Kappa, KappaText(a))
		}
	}
}

func pairsOf(m Matrix) []Pair {
	var ps []Pair
	add := func(n int, person, judge bool) {
		for range n {
			ps = append(ps, Pair{Run: "r", Case: "c", N: len(ps) + 1, Person: person, Judge: judge, JudgeModel: "j"})
		}
	}
	add(m.PersonPassJudgePass, true, true)
	add(m.PersonPassJudgeFail, true, false)
	add(m.PersonFailJudgePass, false, true)
	add(m.PersonFailJudgeFail, false, false)
	return ps
}

// TestOneReaderAlike: a judge that passes every attempt agrees with people
// as often as their pass rate, and its kappa is 0 with no interval (the
// large-sample standard error is 0 there, which is no evidence of
// precision).
func TestOneReaderAlike(t *testing.T) {
	// po = .6, pe = .6·1 + .4·0 = .6.
	a := Measure(pairsOf(Matrix{PersonPassJudgePass: 3, PersonFailJudgePass: 2}), 0)
	if a.Kappa == nil || *a.Kappa != 0 || a.KappaLow != nil || a.Alike() != "the judge" {
		t.Fatalf("kappa %v low %v alike %q", a.Kappa, a.KappaLow, a.Alike())
	}
	if got := KappaText(a); !strings.HasPrefix(got, "0.00 (n=5; no interval: the judge read every attempt the same way") {
		t.Errorf("KappaText = %q", got)
	}
	if a := Measure(pairsOf(Matrix{PersonFailJudgePass: 2, PersonFailJudgeFail: 2}), 0); a.Alike() != "people" || a.KappaLow != nil {
		t.Errorf("people alike: %q %v", a.Alike(), a.KappaLow)
	}
}
