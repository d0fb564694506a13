package usage

import (
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/mcpeval/mcpeval/internal/usage/price"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
)

// UserLine is what one simulated user's model cost a run (the model that
// played a case's user:): every request made of it, priced at its own
// model's price, never the model under test's.
type UserLine struct {
	// Model names the user model ("provider:name").
	Model string `json:"model"`
	// Turns counts the requests made of it, the one that ended a
	// conversation included.
	Turns int `json:"turns"`
	// Tokens are its requests' tokens.
	Tokens model.Usage `json:"tokens"`
	// CostUSD is what they cost; nil when the user model is not priced.
	CostUSD *float64 `json:"cost_usd,omitempty"`
	// ModelMS is the time spent waiting for it.
	ModelMS int64 `json:"model_ms"`
	// Retries counts its refused provider tries.
	Retries int `json:"retries"`
}

// userPrice is the price of the model that played a user: nothing for a
// fake, the table's for a real one (false when the table lacks it).
func userPrice(prices *price.Set, m *model.Info) (price.Price, bool) {
	if IsFake(*m) {
		return price.Price{}, true
	}
	return prices.Lookup(m.Provider, m.Name)
}

// addUsers counts the simulated user turns of attempt a into lines, by
// user model.
func addUsers(lines map[string]*UserLine, prices *price.Set, a *record.Attempt) {
	for _, t := range a.Turns {
		u := t.User
		if !u.Simulated() || u.Turn == nil {
			continue
		}
		l := lines[u.Model.Spec]
		if l == nil {
			l = &UserLine{Model: u.Model.Spec}
			if _, ok := userPrice(prices, u.Model); ok {
				l.CostUSD = new(float64)
			}
			lines[u.Model.Spec] = l
		}
		l.Turns++
		l.Tokens = l.Tokens.Add(u.Turn.Usage)
		l.ModelMS += u.Turn.LatencyMS
		l.Retries += len(u.Turn.Tries)
		if l.CostUSD != nil {
			p, _ := userPrice(prices, u.Model)
			*l.CostUSD += price.Cost(p, u.Turn.Usage)
		}
	}
}

// addUserLines adds the user models' lines to the summary, sorted by
// model, and their tokens and dollars to its total. A user model that is
// not priced makes the total's dollars unknown (nil), never lower.
func (s *Summary) addUserLines(lines map[string]*UserLine) {
	for _, spec := range slices.Sorted(maps.Keys(lines)) {
		l := *lines[spec]
		if l.CostUSD != nil {
			v := *l.CostUSD
			l.CostUSD = &v
		}
		s.Users = append(s.Users, l)
		s.Total.Tokens = s.Total.Tokens.Add(l.Tokens)
		switch {
		case l.CostUSD != nil && s.Total.CostUSD != nil:
			v := *s.Total.CostUSD + *l.CostUSD
			s.Total.CostUSD = &v
		case l.CostUSD == nil:
			s.Total.CostUSD = nil
		}
	}
}

// userText writes what the simulated users cost, below the table.
func userText(w io.Writer, s *Summary) {
	for _, l := range s.Users {
		fmt.Fprintf(w, "user %s: %d turns, %d tokens (%d input, %d output), %s; counted in the total\n",
			l.Model, l.Turns, l.Tokens.Billed(), l.Tokens.Input+l.Tokens.CacheWrite+l.Tokens.CacheRead, l.Tokens.Output, dollars(l.CostUSD))
		if l.CostUSD == nil {
			fmt.Fprintf(w, "unpriced: user %s is not in a price table, so the run's total cost is unknown\n", l.Model)
		}
	}
}

// spendUsers counts attempt a's simulated user turns into the budget, each
// at its user model's price (b.Prices, else the built-in tables).
func (b *Budget) spendUsers(a *record.Attempt) {
	for _, t := range a.Turns {
		u := t.User
		if !u.Simulated() || u.Turn == nil {
			continue
		}
		b.tokens += u.Turn.Usage.Billed()
		prices := b.Prices
		if prices == nil {
			prices = price.Builtin()
		}
		if p, ok := userPrice(prices, u.Model); ok {
			b.usd += price.Cost(p, u.Turn.Usage)
		}
	}
}

// paidUser reports whether a model that is not a fake played the user in
// attempt a.
func paidUser(a *record.Attempt) bool {
	for _, t := range a.Turns {
		if t.User.Simulated() && !IsFake(*t.User.Model) {
			return true
		}
	}
	return false
}

// PaidUsers reports whether a user model that is not a fake played in the
// run: its cost is the run's even when the model under test is a fake.
func (s *Summary) PaidUsers() bool {
	for _, l := range s.Users {
		if !IsFake(model.Info{Provider: modelProvider(l.Model)}) {
			return true
		}
	}
	return false
}

// usersCost prices a fake model's run by what its user models cost: the
// fake costs nothing, they cost what their tables say.
func usersCost(c *Cost, s *Summary) *Cost {
	if s.Total.CostUSD == nil {
		c.State = Unpriced
		return c
	}
	c.State = Priced
	total := *s.Total.CostUSD
	c.RunUSD = &total
	if c.Attempts > 0 {
		v := total / float64(c.Attempts)
		c.PerAttemptUSD = &v
	}
	if c.Passed > 0 {
		v := total / float64(c.Passed)
		c.PerSuccessUSD = &v
	}
	return c
}
