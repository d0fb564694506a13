package usage

import (
	"math"
	"testing"
)

// An attempt a batch answered costs half of the same attempt sent on its
// own, for a provider with a batch API; the tokens are counted the same.
func TestBatchedAttemptsCostTheBatchShare(t *testing.T) {
	table := testPrices(t)
	full := Summarize(run("anthropic:m1", "anthropic", "m1"), table)
	r := run("anthropic:m1", "anthropic", "m1")
	r.Attempts[0].Batch = true
	half := Summarize(r, table)
	fa, ha := *full.Cases["a/x"].CostUSD, *half.Cases["a/x"].CostUSD
	if math.Abs(ha-fa/2) > 1e-12 {
		t.Errorf("batched a/x cost %v, want half of %v", ha, fa)
	}
	if fb, hb := *full.Cases["b/y"].CostUSD, *half.Cases["b/y"].CostUSD; fb != hb {
		t.Errorf("unbatched b/y cost %v, want %v as before", hb, fb)
	}
	if full.Cases["a/x"].Tokens != half.Cases["a/x"].Tokens {
		t.Errorf("tokens changed with batching: %+v vs %+v", half.Cases["a/x"].Tokens, full.Cases["a/x"].Tokens)
	}
}

// A budget in dollars counts a batched attempt at the batch rate.
func TestBudgetCountsBatchRate(t *testing.T) {
	p, ok := testPrices(t).Lookup("anthropic", "m1")
	if !ok {
		t.Fatal("no test price")
	}
	r := run("anthropic:m1", "anthropic", "m1")
	full, half := &Budget{Price: &p}, &Budget{Price: &p}
	full.Spend(&r.Attempts[0])
	r.Attempts[0].Batch = true
	half.Spend(&r.Attempts[0])
	ft, fu := full.Spent()
	ht, hu := half.Spent()
	if ft != ht || fu == 0 || math.Abs(hu-fu/2) > 1e-12 {
		t.Errorf("batched: %d tokens $%v; ordinary: %d tokens $%v; want the same tokens at half the dollars", ht, hu, ft, fu)
	}
}
