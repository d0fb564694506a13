package judge

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mcpeval/mcpeval/internal/usage"
	"github.com/mcpeval/mcpeval/internal/usage/price"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

const costSuite = `name: costs
target: builtin:household
cases:` + planCaseYAML + `
  - id: decline/x
    prompt: Book a flight.
    decline: true
`

func costRun(t *testing.T) (*suite.Suite, *record.Run) {
	t.Helper()
	return loadSuite(t, costSuite), &record.Run{Attempts: []record.Attempt{
		{Case: "agent/plan", N: 1, Prompt: "Plan my week.", End: record.EndAnswered, Answer: "Mon: gym."},
		{Case: "agent/plan", N: 2, Prompt: "Plan my week.", End: record.EndAnswered, Answer: "Tue: dentist."},
		{Case: "decline/x", N: 1, Prompt: "Book a flight.", End: record.EndAnswered, Answer: "I can't book flights."},
	}}
}

func judgePrices(t *testing.T) *price.Set {
	t.Helper()
	ts, err := price.Parse("", []byte(`{"provider":"anthropic","read":"2026-11-29","models":[{"model":"judge","input":1000,"output":10000}]}`))
	if err != nil {
		t.Fatal(err)
	}
	return price.NewSet(ts...)
}

// TestLinesCountEveryAsk: every ask of the judge, decline asks and rubric
// asks alike, is in its line with the tokens the model reported and the
// dollars at the judge's price; judge.json keeps them.
func TestLinesCountEveryAsk(t *testing.T) {
	s, rec := costRun(t)
	m := replies(pass) // each reply reports 100 input and 10 output tokens
	m.reply = func(answer string, n int) (string, error) {
		if answer == "I can't book flights." {
			return "DECLINES it says it cannot", nil
		}
		return pass, nil
	}
	j := WithPrices(New(m, model.Info{Provider: "anthropic", Name: "judge"}), judgePrices(t))
	ops := Ask(context.Background(), j, s, rec, 1, 3)
	lines := ops.Lines()
	if len(lines) != 1 {
		t.Fatalf("lines %+v: want one, the judge's", lines)
	}
	l := lines[0]
	// 2 answers asked 3 times against the rubric, 1 decline asked once.
	if l.Model != "anthropic:judge" || l.Asks != 7 || l.NotAsked != 0 || l.Tokens != (model.Usage{Input: 700, Output: 70}) {
		t.Errorf("line %+v: want 7 asks of 100 input and 10 output tokens", l)
	}
	// 700 input at $1000/M and 70 output at $10000/M.
	if l.CostUSD == nil || *l.CostUSD < 1.4-1e-9 || *l.CostUSD > 1.4+1e-9 {
		t.Errorf("cost %v, want $1.40", l.CostUSD)
	}
	b, err := json.Marshal(ops)
	if err != nil {
		t.Fatal(err)
	}
	var back Opinions
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if got := back.Lines(); len(got) != 1 || got[0].Asks != 7 || got[0].Tokens != l.Tokens || *got[0].CostUSD != *l.CostUSD {
		t.Errorf("read back from judge.json: %+v, want %+v", got, lines)
	}
}

// TestLinesUnpricedJudge: a judge no table prices has tokens but no
// dollars, never $0.
func TestLinesUnpricedJudge(t *testing.T) {
	s, rec := costRun(t)
	j := New(replies(pass), model.Info{Provider: "anthropic", Name: "nobody"})
	l := Ask(context.Background(), j, s, rec, 1, 1).Lines()
	if len(l) != 1 || l[0].CostUSD != nil || l[0].Tokens.Input != 300 {
		t.Errorf("lines %+v: want tokens and no dollars", l)
	}
}

// TestBudgetStopsTheJudge: once the run's dollars are spent, the judge is
// asked no more; the asks not made are counted.
func TestBudgetStopsTheJudge(t *testing.T) {
	s, rec := costRun(t)
	m := replies(pass)
	// Each ask costs $0.20 at the judge's price; the budget holds $0.50:
	// three asks are made (the third crossing it), the rest are not.
	b := &usage.Budget{USD: 0.5}
	j := WithBudget(WithPrices(New(m, model.Info{Provider: "anthropic", Name: "judge"}), judgePrices(t)), b)
	ops := Ask(context.Background(), j, s, rec, 1, 3)
	l := ops.Lines()
	if len(l) != 1 || l[0].Asks != 3 || l[0].NotAsked != 4 {
		t.Fatalf("lines %+v: want 3 asks made and 4 not", l)
	}
	if _, usd := b.Spent(); usd < 0.6-1e-9 || usd > 0.6+1e-9 {
		t.Errorf("budget spent $%v, want the judge's $0.60", usd)
	}
}
