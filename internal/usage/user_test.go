package usage

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
)

// simulated adds to r's first attempt a turn after which the user model
// info said something, with the tokens given.
func simulated(r *record.Run, info model.Info, in, out int64) {
	a := &r.Attempts[0]
	a.Turns = append(a.Turns, record.Turn{Text: "Which one?", User: &record.UserTurn{Text: "The first.", Model: &info,
		Turn: &record.Turn{Text: "The first.", Usage: model.Usage{Input: in, Output: out}, LatencyMS: 7, Tries: []model.Try{{Status: 529}}}}})
}

// TestUserRow: a simulated user's tokens are a row of their own, priced at
// the user model's price, counted in the total and in no case; a user
// model no table prices makes the total's dollars unknown; the budget
// counts them too.
func TestUserRow(t *testing.T) {
	r := run("anthropic:m1", "anthropic", "m1")
	user := model.Info{Spec: "anthropic:m1", Provider: "anthropic", Name: "m1"}
	simulated(r, user, 1_000_000, 0)
	simulated(r, user, 0, 1_000_000)
	s := Summarize(r, testPrices(t))
	if len(s.Users) != 1 {
		t.Fatalf("users %+v: want one row", s.Users)
	}
	u := s.Users[0]
	if u.Model != "anthropic:m1" || u.Turns != 2 || u.Tokens.Input != 1_000_000 || u.Tokens.Output != 1_000_000 || u.ModelMS != 14 || u.Retries != 2 {
		t.Errorf("user row %+v", u)
	}
	if u.CostUSD == nil || math.Abs(*u.CostUSD-18) > 1e-9 {
		t.Errorf("user cost %v, want $18 (1M input at $3, 1M output at $15)", u.CostUSD)
	}
	// The model under test's own cost is 18.0006 + 0.00003; the user's is added.
	if c := s.Cases["a/x"]; c.Tokens.Input != 1_000_000 {
		t.Errorf("the user's tokens were counted in case a/x: %+v", c)
	}
	if want := 18.0006 + 0.00003 + 18; s.Total.CostUSD == nil || math.Abs(*s.Total.CostUSD-want) > 1e-9 || s.Total.Tokens.Input != 2_000_010 {
		t.Errorf("total %+v cost %v, want $%v", s.Total, s.Total.CostUSD, want)
	}
	var b bytes.Buffer
	Text(&b, s)
	for _, want := range []string{"user anthropic:m1", "user anthropic:m1: 2 turns, 2000000 tokens", "$18.0000"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}

	unpriced := run("anthropic:m1", "anthropic", "m1")
	simulated(unpriced, model.Info{Spec: "openai:nobody", Provider: "openai", Name: "nobody"}, 10, 10)
	s = Summarize(unpriced, testPrices(t))
	if len(s.Users) != 1 || s.Users[0].CostUSD != nil || s.Total.CostUSD != nil {
		t.Errorf("an unpriced user model: row %+v, total %v; want both unknown", s.Users, s.Total.CostUSD)
	}
	b.Reset()
	Text(&b, s)
	if !strings.Contains(b.String(), "unpriced: user openai:nobody is not in a price table") {
		t.Errorf("text does not say the user is unpriced:\n%s", b.String())
	}

	fake := run("anthropic:m1", "anthropic", "m1")
	simulated(fake, model.Info{Spec: "fake:user", Provider: "fake", Name: "user", Fake: true}, 10, 10)
	if s := Summarize(fake, testPrices(t)); len(s.Users) != 1 || s.Users[0].CostUSD == nil || *s.Users[0].CostUSD != 0 {
		t.Errorf("a fake user costs nothing: %+v", s.Users)
	}

	var bud Budget
	bud.Spend(&r.Attempts[0])
	if tokens, _ := bud.Spent(); tokens != 2_002_000+2_000_000 {
		t.Errorf("the budget counted %d tokens, want the model's and the user's", tokens)
	}
}

// TestUserCostOfAFakeRun: a fake model under test costs nothing, but a
// paid user model in its run costs what its table says, and the run's
// cost is no longer "$0 (fake)"; fake users leave it free.
func TestUserCostOfAFakeRun(t *testing.T) {
	r := run("fake:perfect", "fake", "perfect")
	simulated(r, model.Info{Spec: "anthropic:m1", Provider: "anthropic", Name: "m1"}, 1_000_000, 0)
	c := NewCost(r, 1, testPrices(t))
	if c.State != Priced || c.RunUSD == nil || math.Abs(*c.RunUSD-3) > 1e-9 {
		t.Errorf("a fake run with a paid user costs %+v, want $3 (the user's 1M input at $3)", c)
	}
	tl := NewTally(&r.Header, testPrices(t))
	for i := range r.Attempts {
		tl.Add(&r.Attempts[i])
	}
	if tc := tl.Cost(1); tc.State != Priced || tc.RunUSD == nil || *tc.RunUSD != *c.RunUSD {
		t.Errorf("the tally prices it %+v, NewCost %+v", tc, c)
	}
	free := run("fake:perfect", "fake", "perfect")
	simulated(free, model.Info{Spec: "fake:user", Provider: "fake", Name: "user", Fake: true}, 10, 10)
	if c := NewCost(free, 1, testPrices(t)); c.State != Fake {
		t.Errorf("a fake run with a fake user costs %+v, want free", c)
	}
}
