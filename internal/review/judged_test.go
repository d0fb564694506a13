package review

import (
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/record"
)

// TestJudgedCasesApart: the attempts of a case graded by its judge count
// in their case's rates only, not in the run's or its group's, nor in the
// review tallies; a review of one still applies to it, to measure the
// judge.
func TestJudgedCasesApart(t *testing.T) {
	rec := &record.Run{Header: record.Header{RunID: "r1"}, Attempts: []record.Attempt{{Case: "s/x", N: 1, Answer: "a"}, {Case: "agent/plan", N: 1, Answer: "b"}}}
	res := &grade.Result{RunID: "r1", Valid: true,
		Attempts: []grade.AttemptGrade{
			{Case: "s/x", N: 1, Outcome: grade.Fail, Reasons: []grade.Reason{{Check: "figures", Message: "wrong"}}},
			{Case: "agent/plan", N: 1, Outcome: grade.Fail, Reasons: []grade.Reason{{Check: grade.CheckJudge, Message: "judge"}}, Judged: &grade.Judgement{Model: "anthropic:judge", Verdict: grade.Fail, Fail: 3}},
		},
		Cases:  []grade.CaseStats{{ID: "s/x", Group: "s"}, {ID: "agent/plan", Group: "s", Judged: true}},
		Groups: []grade.GroupStats{{Name: "s"}},
	}
	l := New(rec, nil)
	if err := l.Add(Review{RunID: "r1", Case: "agent/plan", N: 1, Verdict: GraderFalseFail, Reviewer: "ana", Note: "fine", Time: time.Unix(0, 0), Fingerprint: l.Fingerprint(&res.Attempts[1])}); err != nil {
		t.Fatal(err)
	}
	rv := Apply(res, l)
	if rv.AsGraded.Graded != 1 || rv.AfterReview.Passed != 0 || rv.Groups[0].AsGraded.Graded != 1 {
		t.Errorf("as graded %+v, after review %+v, group %+v: want the checked attempt only", rv.AsGraded, rv.AfterReview, rv.Groups[0].AsGraded)
	}
	if rv.Failures != 1 || rv.Unreviewed != 1 || rv.GraderFalseFails != 0 {
		t.Errorf("tallies: %d failures, %d unreviewed, %d grader false fails: want the checked failure only", rv.Failures, rv.Unreviewed, rv.GraderFalseFails)
	}
	if a := rv.Attempt("agent/plan", 1); a == nil || a.Review == nil || a.Review.Verdict != GraderFalseFail {
		t.Errorf("the judged attempt lost its review: %+v", a)
	}
	for _, c := range rv.Cases {
		if c.Name == "agent/plan" && (c.AsGraded.Graded != 1 || c.AfterReview.Passed != 1) {
			t.Errorf("judged case rates %+v → %+v: want its own, the review applied", c.AsGraded, c.AfterReview)
		}
	}
}
