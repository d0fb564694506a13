package usage

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestTallyIsSummarize: a Tally fed a record's attempts one at a time
// gives Summarize's summary and NewCost's cost, and a summary it returned
// can be changed (judges added) without changing the cost.
func TestTallyIsSummarize(t *testing.T) {
	for _, r := range []struct{ spec, provider, name string }{
		{"anthropic:m1", "anthropic", "m1"},
		{"anthropic:unknown", "anthropic", "unknown"},
		{"fake:perfect", "fake", "perfect"},
	} {
		rec := run(r.spec, r.provider, r.name)
		tl := NewTally(&rec.Header, testPrices(t))
		for i := range rec.Attempts {
			a := rec.Attempts[i]
			tl.Add(&a)
		}
		if d := cmp.Diff(Summarize(rec, testPrices(t)), tl.Summary()); d != "" {
			t.Errorf("%s: summary (-Summarize +Tally):\n%s", r.spec, d)
		}
		s := tl.Summary()
		if s.Total.CostUSD != nil {
			*s.Total.CostUSD += 100
		}
		s.AddJudges([]JudgeLine{{Model: "j", Asks: 1, CostUSD: new(float64)}})
		if d := cmp.Diff(NewCost(rec, 1, testPrices(t)), tl.Cost(1)); d != "" {
			t.Errorf("%s: cost (-NewCost +Tally):\n%s", r.spec, d)
		}
	}
}
