package pipeline

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/mcpeval/mcpeval/internal/judge"
	"github.com/mcpeval/mcpeval/internal/rundir"
	"github.com/mcpeval/mcpeval/internal/usage"
	"github.com/mcpeval/mcpeval/model"
)

// TestUsageHasTheJudgesRows: usage.json holds the judge's asks as a row
// of their own, with the tokens its model reported, counted in the total;
// so even a fake model's run has a usage.json once a judge was asked.
func TestUsageHasTheJudgesRows(t *testing.T) {
	s, rec := judgedRun(t)
	m := &passingJudge{}
	g := Score(context.Background(), s, rec, Options{Judge: judge.New(m, model.Info{Provider: "script", Name: "judge"}), JudgeAsks: 3})
	b, err := os.ReadFile(rundir.Path(rec.Dir, rundir.Usage))
	if err != nil {
		t.Fatalf("no usage.json: %v", err)
	}
	var u usage.Summary
	if err := json.Unmarshal(b, &u); err != nil {
		t.Fatal(err)
	}
	if len(u.Judges) != 1 || u.Judges[0].Model != "script:judge" || u.Judges[0].Asks != 6 || u.Judges[0].Tokens != (model.Usage{Input: 600, Output: 60}) {
		t.Fatalf("judge rows %+v: want script:judge, 6 asks of 100 input and 10 output tokens", u.Judges)
	}
	if u.Total.Tokens != (model.Usage{Input: 600, Output: 60}) {
		t.Errorf("total tokens %+v: want the judge's, the fake model's being none", u.Total.Tokens)
	}
	if g.Usage == nil || g.Usage.NotAsked() != 0 {
		t.Errorf("graded usage %+v", g.Usage)
	}
}

// TestJudgeBudgetIsCounted: a budget tight enough stops the judge; the
// asks not made are in usage.json.
func TestJudgeBudgetIsCounted(t *testing.T) {
	s, rec := judgedRun(t)
	b := &usage.Budget{Tokens: 250}
	g := Score(context.Background(), s, rec, Options{Judge: judge.New(&passingJudge{}, model.Info{Provider: "script", Name: "judge"}), JudgeAsks: 3, JudgeConcurrency: 1, JudgeBudget: b})
	if g.Usage == nil || g.Usage.NotAsked() != 3 || g.Usage.Judges[0].Asks != 3 {
		t.Fatalf("usage %+v: want 3 asks made, 3 not", g.Usage)
	}
}
