package pipeline

import (
	"context"
	"sync/atomic"
	"testing"
	"testing/fstest"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/judge"
	"github.com/mcpeval/mcpeval/internal/rundir"
	"github.com/mcpeval/mcpeval/internal/usage"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

const judgedMini = `name: judged
target: builtin:household
cases:
  - id: agent/plan
    prompt: Plan my week.
    judge: {rubric: Names each day., pass_when: Every day has an item.}
    graded_by: judge
`

// passingJudge is a judge model that passes every answer, counting its
// calls; each costs 110 tokens.
type passingJudge struct{ calls atomic.Int32 }

func (p *passingJudge) Generate(context.Context, *model.Request) (*model.Response, error) {
	p.calls.Add(1)
	return &model.Response{Message: model.Message{Role: model.Assistant, Blocks: []model.Block{{Kind: model.Text, Text: `{"verdict": "pass", "reason": "fine"}`}}}, Usage: model.Usage{Input: 100, Output: 10}}, nil
}

func judgedRun(t *testing.T) (*suite.Suite, *record.Run) {
	t.Helper()
	s, err := suite.LoadFS(fstest.MapFS{"s.yaml": {Data: []byte(judgedMini)}}, "s.yaml", "s.yaml")
	if err != nil {
		t.Fatal(err)
	}
	rec := &record.Run{Dir: t.TempDir(), Header: record.Header{Preflight: record.Preflight{Valid: true}, Model: model.Info{Fake: true}}, Attempts: []record.Attempt{
		{Case: "agent/plan", N: 1, Prompt: "Plan my week.", End: record.EndAnswered, Answer: "Mon: gym."},
		{Case: "agent/plan", N: 2, Prompt: "Plan my week.", End: record.EndAnswered, Answer: "Tue: dentist."},
	}}
	return s, rec
}

func TestScoreGradesJudgedCasesByTheJudge(t *testing.T) {
	s, rec := judgedRun(t)
	m := &passingJudge{}
	g := Score(context.Background(), s, rec, Options{Judge: judge.New(m, model.Info{Provider: "script", Name: "judge"}), JudgeAsks: 3})
	if m.calls.Load() != 6 {
		t.Errorf("%d judge calls: want 2 answers asked 3 times", m.calls.Load())
	}
	if j := g.Result.Judged; j == nil || j.Passed != 2 || j.Graded != 2 || g.Result.Totals.Graded != 0 {
		t.Fatalf("judged %+v, totals %+v: want 2 of 2 judged, apart from the total", j, g.Result.Totals)
	}
	if g.JudgeUsage != (model.Usage{Input: 600, Output: 60}) {
		t.Errorf("judge usage %+v", g.JudgeUsage)
	}
	// Scored again without a judge, the stored rulings give the same grade.
	again := Score(context.Background(), s, rec, Options{})
	if j := again.Result.Judged; j == nil || j.Passed != 2 {
		t.Errorf("re-scored from judge.json: judged %+v", j)
	}
	res, err := rundir.ReadGrades(rec.Dir)
	if err != nil || res.Judged == nil || res.Judged.Passed != 2 {
		t.Errorf("grades.json judged %+v (%v)", res, err)
	}
}

func TestJudgeHonoursTheBudget(t *testing.T) {
	s, rec := judgedRun(t)
	m := &passingJudge{}
	b := &usage.Budget{Tokens: 250}
	g := Score(context.Background(), s, rec, Options{Judge: judge.New(m, model.Info{Provider: "script", Name: "judge"}), JudgeAsks: 3, JudgeConcurrency: 1, JudgeBudget: b})
	if n := m.calls.Load(); n != 3 {
		t.Errorf("%d judge calls: want 3, the budget spent after them", n)
	}
	if tokens, _ := b.Spent(); tokens != 330 {
		t.Errorf("budget counted %d tokens, want the judge's 330", tokens)
	}
	var noVerdict int
	for _, a := range g.Result.Attempts {
		if a.Outcome == grade.Error && a.ErrorKind == grade.ErrorNoVerdict {
			noVerdict++
		}
	}
	if noVerdict != 1 {
		t.Errorf("%d attempts without a verdict, want the one the budget left unasked", noVerdict)
	}
}
