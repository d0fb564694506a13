package pipeline

import (
	"context"
	"encoding/json"
	"os"
	"sync/atomic"
	"testing"

	"github.com/mcpeval/mcpeval/internal/judge"
	"github.com/mcpeval/mcpeval/internal/rundir"
	"github.com/mcpeval/mcpeval/internal/usage"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

const judgedResume = `name: judged-resume
target: builtin:household
attempts: 2
judge_asks: 3
cases:
  - id: agent/plan
    prompt: Plan my week.
    judge: {rubric: Names each day., pass_when: Every day has an item.}
    graded_by: judge
  - id: decline/weather
    prompt: What's the weather like in Lisbon?
    decline: true
`

// countingJudge is a judge model that counts its calls: it passes every
// answer read against a rubric and reads every other answer as
// declining; each call costs 100 input and 10 output tokens.
type countingJudge struct{ calls atomic.Int32 }

func (c *countingJudge) Generate(_ context.Context, req *model.Request) (*model.Response, error) {
	c.calls.Add(1)
	text := "DECLINES\nit says it cannot."
	if req.System == judge.RubricPrompt {
		text = `{"verdict": "pass", "reason": "fine"}`
	}
	return &model.Response{Message: model.Message{Role: model.Assistant, Blocks: []model.Block{{Kind: model.Text, Text: text}}}, Usage: model.Usage{Input: 100, Output: 10}}, nil
}

// asksAbout is how many calls the judge makes about the attempts of s:
// judge_asks for an answer read against a rubric, one for a decline.
func asksAbout(s *suite.Suite, as []record.Attempt) int {
	n := 0
	for _, a := range as {
		c := s.Case(a.Case)
		if a.End != record.EndAnswered {
			continue
		}
		if c.Judge != nil {
			n += s.JudgeAsksFor()
		}
		if c.Decline {
			n++
		}
	}
	return n
}

func readJudgeRows(t *testing.T, dir string) map[string]usage.JudgeLine {
	t.Helper()
	b, err := os.ReadFile(rundir.Path(dir, rundir.Usage))
	if err != nil {
		t.Fatalf("no usage.json: %v", err)
	}
	var u usage.Summary
	if err := json.Unmarshal(b, &u); err != nil {
		t.Fatal(err)
	}
	rows := map[string]usage.JudgeLine{}
	for _, l := range u.Judges {
		rows[l.Model] = l
	}
	return rows
}

// TestResumeAsksTheJudgeOnlyAboutNewAttempts: a run judged, stopped and
// resumed with the same judge model: the judge is asked only about the
// attempts the resume added, judge.json holds opinions on every attempt,
// usage.json's judge row totals the asks of both legs, and the budget
// counts only the new ones. A different judge model, or Rejudge, asks
// about every attempt again, the earlier asks staying counted.
func TestResumeAsksTheJudgeOnlyAboutNewAttempts(t *testing.T) {
	ctx := context.Background()
	s := loadSuite(t, judgedResume)
	m, info := perfect(t, s)
	judgeA := model.Info{Provider: "script", Name: "judge-a"}

	// The first leg: two attempts of four, judged.
	cfg := config(t, s, m, info)
	cfg.Concurrency = 1
	n := 0
	cfg.BeforeAttempt = func() string {
		if n++; n > 2 {
			return "budget"
		}
		return ""
	}
	first := &countingJudge{}
	g, err := Run(ctx, cfg, Options{Judge: judge.New(first, judgeA)})
	if g == nil {
		t.Fatal(err)
	}
	rec, err := record.Read(g.Record.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Attempts) != 2 || rec.Complete() {
		t.Fatalf("the first leg: %d attempts, complete %v; want 2 of 4", len(rec.Attempts), rec.Complete())
	}
	firstAsks := asksAbout(s, rec.Attempts)
	if int(first.calls.Load()) != firstAsks || firstAsks == 0 {
		t.Fatalf("the first leg asked the judge %d times, want %d", first.calls.Load(), firstAsks)
	}

	// The resume: only the two new attempts are put to the judge.
	cfg = config(t, s, m, info)
	cfg.OutDir, cfg.Resume = "", rec
	again := &countingJudge{}
	budget := &usage.Budget{}
	g, err = Run(ctx, cfg, Options{Judge: judge.New(again, judgeA), JudgeBudget: budget})
	if err != nil {
		t.Fatalf("resuming: %v", err)
	}
	all, err := record.Read(rec.Dir)
	if err != nil || len(all.Attempts) != 4 {
		t.Fatalf("the resumed record: %v, %d attempts; want 4", err, len(all.Attempts))
	}
	newAsks := asksAbout(s, all.Attempts) - firstAsks
	if got := int(again.calls.Load()); got != newAsks {
		t.Errorf("the resume asked the judge %d times, want %d: only about its 2 new attempts", got, newAsks)
	}
	if tokens, _ := budget.Spent(); tokens != int64(110*newAsks) {
		t.Errorf("the budget counted %d judge tokens, want %d: the new asks' only", tokens, 110*newAsks)
	}
	ops, err := judge.Read(rec.Dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range all.Attempts {
		_, given := ops.Given[a.Key()]
		_, ruled := ops.Rulings[a.Key()]
		if !given && !ruled {
			t.Errorf("judge.json holds no opinion on %s", a.Key())
		}
	}
	if j := g.Result.Judged; j == nil || j.Passed != 2 {
		t.Errorf("judged %+v: want both plans passed, the first from the stored rulings", j)
	}
	total := asksAbout(s, all.Attempts)
	row := readJudgeRows(t, rec.Dir)["script:judge-a"]
	if row.Asks != total || row.Tokens != (model.Usage{Input: int64(100 * total), Output: int64(10 * total)}) {
		t.Errorf("usage.json judge row %+v: want %d asks, those of both legs", row, total)
	}

	// Another judge model reads every attempt again; what the first cost
	// stays counted.
	other := &countingJudge{}
	Score(ctx, s, all, Options{Judge: judge.New(other, model.Info{Provider: "script", Name: "judge-b"})})
	if got := int(other.calls.Load()); got != total {
		t.Errorf("another judge model was asked %d times, want %d: every attempt", got, total)
	}
	rows := readJudgeRows(t, rec.Dir)
	if rows["script:judge-b"].Asks != total || rows["script:judge-a"].Asks != total {
		t.Errorf("usage.json judge rows %+v: want %d asks of each model", rows, total)
	}

	// Rejudge asks the same model about every attempt again.
	re := &countingJudge{}
	Score(ctx, s, all, Options{Judge: judge.New(re, model.Info{Provider: "script", Name: "judge-b"}), Rejudge: true})
	if got := int(re.calls.Load()); got != total {
		t.Errorf("rejudged, the judge was asked %d times, want %d", got, total)
	}
	if rows := readJudgeRows(t, rec.Dir); rows["script:judge-b"].Asks != 2*total {
		t.Errorf("usage.json judge rows %+v: want %d asks of script:judge-b, both readings", rows, 2*total)
	}

	// The same model without Rejudge asks nothing.
	none := &countingJudge{}
	Score(ctx, s, all, Options{Judge: judge.New(none, model.Info{Provider: "script", Name: "judge-b"})})
	if got := none.calls.Load(); got != 0 {
		t.Errorf("judged again by the same model, it was asked %d times, want none", got)
	}
}
