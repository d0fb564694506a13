package ladder

import (
	"fmt"
	"strings"

	"github.com/mcpeval/mcpeval/internal/usage"
)

// clears reports whether rung r clears bar: a valid run with graded
// attempts whose pass rate's lower 95% Wilson bound reaches it, so that
// a model is not picked on the luck of a few attempts.
func clears(r *Rung, bar float64) bool {
	return r.Valid && r.Totals.Graded > 0 && r.Totals.WilsonLow >= bar
}

// perAttempt is rung r's dollars per attempt; ok is false when it is not
// known (an unpriced or fake model, no attempt).
func perAttempt(r *Rung) (usd float64, ok bool) {
	if r.Cost == nil || r.Cost.State != usage.Priced || r.Cost.PerAttemptUSD == nil {
		return 0, false
	}
	return *r.Cost.PerAttemptUSD, true
}

// setFrontier marks the rungs on the cost/pass Pareto frontier: priced
// rungs with graded attempts that no other such rung beats on both
// dollars per attempt and pass rate (as cheap or cheaper, as good or
// better, and strictly one of them).
func (l *Ladder) setFrontier() {
	for i := range l.Rungs {
		r := &l.Rungs[i]
		r.Frontier = false
		c, ok := perAttempt(r)
		if !ok || !r.Valid || r.Totals.Graded == 0 {
			continue
		}
		r.Frontier = true
		for j := range l.Rungs {
			o := &l.Rungs[j]
			oc, ok := perAttempt(o)
			if j == i || !ok || !o.Valid || o.Totals.Graded == 0 {
				continue
			}
			if oc <= c && o.Totals.Rate >= r.Totals.Rate && (oc < c || o.Totals.Rate > r.Totals.Rate) {
				r.Frontier = false
				break
			}
		}
	}
}

// frontierLine names the rungs on the cost/pass frontier, cheapest
// first; "" when no rung is priced.
func (l *Ladder) frontierLine() string {
	var on []string
	for _, r := range l.byCost() {
		on = append(on, fmt.Sprintf("%s (%s per attempt, %s)", r.Model, r.Cost.PerAttempt(), cell(&r.Totals)))
	}
	if len(on) == 0 {
		return ""
	}
	return "cost/pass frontier (no other model both cheaper and better): " + strings.Join(on, ", ")
}

// byCost returns the rungs on the frontier, cheapest per attempt first.
func (l *Ladder) byCost() []Rung {
	var on []Rung
	for _, r := range l.Rungs {
		if r.Frontier {
			on = append(on, r)
		}
	}
	for i := 1; i < len(on); i++ { // a handful of rungs: insertion sort
		for j := i; j > 0; j-- {
			a, _ := perAttempt(&on[j])
			b, _ := perAttempt(&on[j-1])
			if a >= b {
				break
			}
			on[j], on[j-1] = on[j-1], on[j]
		}
	}
	return on
}
