package usage

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/internal/usage/price"
	"github.com/mcpeval/mcpeval/model"
)

func f(v float64) *float64 { return &v }

// TestJudgeRows: a judge's asks are rows of their own in usage.json and
// count in the run's total; an unpriced judge makes the total unknown.
func TestJudgeRows(t *testing.T) {
	s := Summarize(run("anthropic:m1", "anthropic", "m1"), testPrices(t))
	model0 := *s.Total.CostUSD
	tokens0 := s.Total.Tokens.Billed()
	s.AddJudges([]JudgeLine{{Model: "anthropic:judge", Asks: 6, NotAsked: 2, Tokens: model.Usage{Input: 600, Output: 60}, CostUSD: f(0.25)}})
	if got := s.Total.Tokens.Billed(); got != tokens0+660 {
		t.Errorf("total tokens %d, want the model's %d and the judge's 660", got, tokens0)
	}
	if s.Total.CostUSD == nil || *s.Total.CostUSD != model0+0.25 {
		t.Errorf("total cost %v, want the model's %v and the judge's 0.25", s.Total.CostUSD, model0)
	}
	if s.Total.Attempts != 2 {
		t.Errorf("total attempts %d: a judge's asks are not attempts", s.Total.Attempts)
	}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"judges":[{"model":"anthropic:judge","asks":6,"not_asked":2,"tokens":{`) || !strings.Contains(string(b), `"cost_usd":0.25}`) {
		t.Errorf("usage.json lacks the judge row:\n%s", b)
	}
	var out bytes.Buffer
	if err := Text(&out, s); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"judge anthropic:judge", "6 asks, 660 tokens (600 input, 60 output), $0.2500; counted in the total",
		"judge stopped: 2 asks not made, the run's budget was spent"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, out.String())
		}
	}

	s.AddJudges([]JudgeLine{{Model: "gemini:nobody", Asks: 1, Tokens: model.Usage{Input: 10}}})
	unpriced(t, s, "judge gemini:nobody")
}

// TestFakeModelWithJudge: a fake model's run costs nothing, so a judge's
// cost is the run's whole cost.
func TestFakeModelWithJudge(t *testing.T) {
	r := run("fake:perfect", "fake", "perfect")
	r.Header.Model.Fake = true
	s := Summarize(r, nil)
	s.AddJudges([]JudgeLine{{Model: "anthropic:judge", Asks: 1, Tokens: model.Usage{Input: 100}, CostUSD: f(0.5)}})
	if s.Total.CostUSD == nil || *s.Total.CostUSD != 0.5 {
		t.Errorf("total %v, want the judge's 0.5", s.Total.CostUSD)
	}
	var out bytes.Buffer
	Text(&out, s)
	if strings.Contains(out.String(), "unpriced") || !strings.Contains(out.String(), "fake model: it costs nothing") {
		t.Errorf("text:\n%s", out.String())
	}
}

// TestBudgetSpendUsage: a judge's ask counts its tokens, and its dollars
// at its own price, not the model's.
func TestBudgetSpendUsage(t *testing.T) {
	b := &Budget{USD: 1, Price: &price.Price{Rates: price.Rates{Input: 1000}}}
	b.SpendUsage(model.Usage{Input: 1000}, &price.Price{Rates: price.Rates{Input: 100}})
	if tok, usd := b.Spent(); tok != 1000 || usd < 0.1-1e-12 || usd > 0.1+1e-12 {
		t.Errorf("spent %d tokens, $%v: want 1000 and $0.10 at the judge's price", tok, usd)
	}
	if b.Exceeded() != "" {
		t.Error("budget exceeded at $0.10 of $1")
	}
	b.SpendUsage(model.Usage{Input: 9000}, &price.Price{Rates: price.Rates{Input: 100}})
	if b.Exceeded() == "" {
		t.Error("budget not exceeded at $1.00 of $1")
	}
	nb := &Budget{Tokens: 50}
	nb.SpendUsage(model.Usage{Input: 60}, nil)
	if tok, usd := nb.Spent(); tok != 60 || usd != 0 || nb.Exceeded() == "" {
		t.Errorf("unpriced ask: %d tokens, $%v, exceeded %q", tok, usd, nb.Exceeded())
	}
}
