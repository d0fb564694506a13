package agreement

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/review"
	"github.com/mcpeval/mcpeval/internal/rundir"
	"github.com/mcpeval/mcpeval/record"
)

// TestRubricReadingsPair: an attempt of a case graded by its judge pairs
// the majority of the judge's rubric readings with a person's review.
func TestRubricReadingsPair(t *testing.T) {
	rec := &record.Run{Header: record.Header{RunID: "r1"}, Attempts: []record.Attempt{{Case: "agent/plan", N: 1, Answer: "Mon: gym."}, {Case: "agent/plan", N: 2, Answer: "nothing"}}}
	res := &grade.Result{RunID: "r1", Valid: true}
	for n, v := range []grade.Outcome{grade.Fail, ""} {
		res.Attempts = append(res.Attempts, grade.AttemptGrade{Case: "agent/plan", N: n + 1, Outcome: grade.Fail, Reasons: []grade.Reason{{Check: grade.CheckJudge, Message: "judge"}},
			Judged: &grade.Judgement{Model: "anthropic:judge", Verdict: v, Fail: 3, Reason: "Tuesday is missing"}})
	}
	l := review.New(rec, nil)
	for i := range res.Attempts {
		if err := l.Add(review.Review{RunID: "r1", Case: "agent/plan", N: i + 1, Verdict: review.GraderFalseFail, Reviewer: "ana", Note: "it is fine", Time: time.Unix(0, 0), Fingerprint: l.Fingerprint(&res.Attempts[i])}); err != nil {
			t.Fatal(err)
		}
	}
	pairs, aside := Pairs("r1", res, review.Apply(res, l))
	if len(pairs) != 1 || aside != 0 {
		t.Fatalf("pairs %+v: want the one attempt with a majority verdict", pairs)
	}
	if p := pairs[0]; p.Kind != KindRubric || p.Judge || !p.Person || p.JudgeModel != "anthropic:judge" || p.N != 1 {
		t.Errorf("pair %+v: want the judge's rubric fail against the person's pass", p)
	}
}

// TestSaved: an agreement saved in a run directory is read back, and says
// whether it measured a judge model; a run with none says so.
func TestSaved(t *testing.T) {
	dir := t.TempDir()
	if s, err := Read(dir); err != nil || s != nil {
		t.Fatalf("no agreement.json: %v, %v", s, err)
	}
	var none *Saved
	if none.Measures("anthropic:judge") || none.For("anthropic:judge") != "agreement not measured" {
		t.Errorf("nothing saved reads as measured")
	}
	res, rv := handBuilt(t)
	pairs, aside := Pairs("r1", res, rv)
	if err := Save(dir, &Saved{Agreement: Measure(pairs, aside), Runs: []string{"r1"}, Measured: "2026-11-30"}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(rundir.Path(dir, "agreement.json")); err != nil {
		t.Fatal(err)
	}
	s, err := Read(dir)
	if err != nil || s == nil {
		t.Fatalf("read back: %v", err)
	}
	if !s.Measures("fake:phrases") || s.Measures("anthropic:other") {
		t.Errorf("measures fake:phrases %v, anthropic:other %v: want true, false", s.Measures("fake:phrases"), s.Measures("anthropic:other"))
	}
	if got := s.For("fake:phrases"); !strings.HasPrefix(got, "kappa 0.40, 95% CI [") || !strings.HasSuffix(got, "measured 2026-11-30") {
		t.Errorf("For = %q", got)
	}
	if got := s.For("anthropic:other"); got != NotMeasured {
		t.Errorf("another judge: %q", got)
	}
	os.WriteFile(rundir.Path(dir, "agreement.json"), []byte("{"), 0o644)
	if _, err := Read(dir); err == nil || !strings.Contains(err.Error(), "agreement.json") {
		t.Errorf("a broken agreement.json: %v", err)
	}
}
