package usage

import (
	"github.com/mcpeval/mcpeval/internal/usage/price"
	"github.com/mcpeval/mcpeval/record"
)

// Tally totals a run's usage attempt by attempt, for a record read as a
// stream (record.Open): fed a record's attempts, its Summary is
// Summarize's and its Cost NewCost's, without the attempts held.
type Tally struct {
	h      record.Header
	s      Summary
	p      price.Price
	priced bool
	batch  price.BatchRate
	n      int
	prices *price.Set
	users  map[string]*UserLine // the simulated users' models, by spec
	// paidUsers is set once a user model that is not a fake has played.
	paidUsers bool
}

// NewTally starts totalling the usage of the run with header h, priced
// with prices (nil for the built-in tables).
func NewTally(h *record.Header, prices *price.Set) *Tally {
	if prices == nil {
		prices = price.Builtin()
	}
	t := &Tally{h: *h, prices: prices, users: map[string]*UserLine{}}
	t.p, t.priced = prices.Lookup(h.Model.Provider, h.Model.Name)
	if IsFake(h.Model) {
		// A fake model costs nothing; its usage says nothing either.
		t.p, t.priced = price.Price{}, true
	}
	t.s = Summary{Model: h.Model.Spec, Cases: map[string]Line{}, Prices: prices.Stamp(h.Model.Provider, h.Model.Name)}
	if t.priced {
		t.s.PriceRead = t.p.Read
	}
	t.batch, _ = price.Batch(h.Model.Provider)
	return t
}

// Add counts attempt a. The attempt is not kept.
func (t *Tally) Add(a *record.Attempt) {
	t.n++
	l := t.s.Cases[a.Case]
	add(&l, a, t.p, t.priced, t.batch, t.prices)
	t.s.Cases[a.Case] = l
	add(&t.s.Total, a, t.p, t.priced, t.batch, t.prices)
	addUsers(t.users, t.prices, a)
	t.paidUsers = t.paidUsers || paidUser(a)
}

// Summary returns the usage counted so far, as Summarize does; the caller
// may change it.
func (t *Tally) Summary() *Summary {
	s := t.s
	s.Cases = make(map[string]Line, len(t.s.Cases))
	for id, l := range t.s.Cases {
		s.Cases[id] = ownCost(l)
	}
	s.Total = ownCost(t.s.Total)
	s.addUserLines(t.users)
	return &s
}

// Cost prices the attempts counted so far, of which passed passed, as
// NewCost does.
func (t *Tally) Cost(passed int) *Cost {
	return costOf(&t.h, t.n, passed, t.paidUsers, t.Summary)
}

// ownCost gives l a dollar figure of its own, so that changing one summary
// changes no other.
func ownCost(l Line) Line {
	if l.CostUSD != nil {
		v := *l.CostUSD
		l.CostUSD = &v
	}
	return l
}
