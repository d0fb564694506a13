package judge

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mcpeval/mcpeval/internal/usage"
	"github.com/mcpeval/mcpeval/model"
)

// counting is a judge model that counts its calls, passing every answer
// read against a rubric and reading every other answer as declining.
type counting struct{ calls atomic.Int32 }

func (c *counting) Generate(_ context.Context, req *model.Request) (*model.Response, error) {
	c.calls.Add(1)
	text := "DECLINES\nit says it cannot."
	if req.System == RubricPrompt {
		text = pass
	}
	return &model.Response{Message: model.Message{Role: model.Assistant, Blocks: []model.Block{{Kind: model.Text, Text: text}}}, Usage: model.Usage{Input: 100, Output: 10}}, nil
}

var judgeInfo = model.Info{Provider: "anthropic", Name: "judge"}

// TestResumeAsksWhatTheBudgetLeftUnasked: the asks a budget stopped are
// made when the judge is asked again; the opinions it gave are kept, and
// the lines count every ask made, none twice.
func TestResumeAsksWhatTheBudgetLeftUnasked(t *testing.T) {
	s, rec := costRun(t)
	// $0.20 an ask, $0.50 budget: plan #1's three asks are made, plan #2's
	// three and the decline's one are not.
	b := &usage.Budget{USD: 0.5}
	first := &counting{}
	prior := Ask(context.Background(), WithBudget(WithPrices(New(first, judgeInfo), judgePrices(t)), b), s, rec, 1, 3)
	if n := first.calls.Load(); n != 3 {
		t.Fatalf("the budgeted judge was asked %d times, want 3", n)
	}
	again := &counting{}
	ops := Resume(context.Background(), WithPrices(New(again, judgeInfo), judgePrices(t)), s, rec, 1, 3, prior, true)
	if n := again.calls.Load(); n != 4 {
		t.Errorf("asked again %d times, want 4: the asks the budget stopped", n)
	}
	l := ops.Lines()
	if len(l) != 1 || l[0].Asks != 7 || l[0].NotAsked != 0 || l[0].CostUSD == nil || *l[0].CostUSD < 1.4-1e-9 || *l[0].CostUSD > 1.4+1e-9 {
		t.Errorf("lines %+v: want 7 asks, $1.40, none left unasked", l)
	}
	if len(ops.Given) != 1 || len(ops.Failed) != 0 || len(ops.Rulings) != 2 {
		t.Errorf("opinions %+v: want a decline opinion and two rulings, no failure", ops)
	}
}

// TestResumeAsksAgainWhatChanged: a ruling sent another rubric, or asked
// another number of times, is asked again, and so is an attempt the
// judge failed on; what the replaced asks cost stays in the lines and in
// judge.json.
func TestResumeAsksAgainWhatChanged(t *testing.T) {
	s, rec := costRun(t)
	j := New(&counting{}, judgeInfo)
	prior := Resume(context.Background(), broken{}, s, rec, 1, 3, Ask(context.Background(), j, s, rec, 1, 3), true)
	if len(prior.Failed) != 1 || len(prior.Rulings) != 2 {
		t.Fatalf("prior %+v: want the decline failed and two rulings", prior)
	}

	// The same rubric, the same asks: only the failed decline is asked.
	c := &counting{}
	ops := Resume(context.Background(), New(c, judgeInfo), s, rec, 1, 3, prior, true)
	if n := c.calls.Load(); n != 1 || len(ops.Given) != 1 || len(ops.Failed) != 0 {
		t.Errorf("asked %d times, opinions %+v: want the failed decline alone asked, and given", n, ops)
	}

	// Another rubric: both plans are read again, the decline kept.
	changed := loadSuite(t, strings.Replace(costSuite, "Names each day.", "Names each weekday.", 1))
	c = &counting{}
	ops = Resume(context.Background(), New(c, judgeInfo), changed, rec, 1, 3, ops, true)
	if n := c.calls.Load(); n != 6 {
		t.Errorf("with another rubric, asked %d times, want 6: both plans, 3 asks each", n)
	}
	// Asked five times each now: both plans again.
	c = &counting{}
	ops = Resume(context.Background(), New(c, judgeInfo), changed, rec, 1, 5, ops, true)
	if n := c.calls.Load(); n != 10 {
		t.Errorf("with 5 asks, asked %d times, want 10", n)
	}
	// The first leg's 7 asks, the decline's 1, the rubric's 6 and 10.
	want := 7 + 1 + 6 + 10
	if l := ops.Lines(); len(l) != 1 || l[0].Asks != want || l[0].Tokens != (model.Usage{Input: int64(100 * want), Output: int64(10 * want)}) {
		t.Errorf("lines %+v: want %d asks, every one made", l, want)
	}

	dir := t.TempDir()
	if err := Write(dir, ops); err != nil {
		t.Fatal(err)
	}
	back, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if l := back.Lines(); len(l) != 1 || l[0].Asks != want {
		t.Errorf("read back from judge.json, lines %+v: want %d asks", l, want)
	}
}
