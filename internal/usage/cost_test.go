package usage

import (
	"math"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/record"
)

// TestCost: a priced run shows dollars per run, attempt and success; an
// unpriced one says unpriced, never $0; a fake one says it is free.
func TestCost(t *testing.T) {
	prices := testPrices(t)
	// The run costs $18.0006 (a/x) + 10 input tokens at $3/M (b/y).
	total := 18.0006 + 0.00003
	c := NewCost(run("anthropic:m1", "anthropic", "m1"), 1, prices)
	if c.State != Priced || c.RunUSD == nil || math.Abs(*c.RunUSD-total) > 1e-9 ||
		math.Abs(*c.PerAttemptUSD-total/2) > 1e-9 || math.Abs(*c.PerSuccessUSD-total) > 1e-9 {
		t.Fatalf("priced cost %+v", c)
	}
	if got, want := c.Line(), "$18.00 per run, $9.00 per attempt, $18.00 per success"; got != want {
		t.Errorf("Line = %q, want %q", got, want)
	}
	if !strings.Contains(c.Source(), "anthropic prices read 2026-11-29") || c.Note != "" {
		t.Errorf("source %q note %q", c.Source(), c.Note)
	}
	none := NewCost(run("anthropic:m1", "anthropic", "m1"), 0, prices)
	if none.PerSuccessUSD != nil || none.PerSuccess() != "no pass" {
		t.Errorf("nothing passed: per success %v %q", none.PerSuccessUSD, none.PerSuccess())
	}

	u := NewCost(run("openai:nobody", "openai", "nobody"), 1, prices)
	if u.State != Unpriced || u.RunUSD != nil || u.PerSuccessUSD != nil {
		t.Errorf("unpriced cost %+v", u)
	}
	for _, s := range []string{u.Run(), u.PerAttempt(), u.PerSuccess()} {
		if s != "unpriced" {
			t.Errorf("unpriced model shows %q", s)
		}
	}
	if !strings.HasPrefix(u.Line(), "unpriced") {
		t.Errorf("unpriced line %q", u.Line())
	}
	// Unlisted in a table its provider has: still unpriced.
	if c := NewCost(run("anthropic:m9", "anthropic", "m9"), 1, prices); c.State != Unpriced || c.Prices == nil || !c.Prices.Unpriced {
		t.Errorf("model missing from its provider's table: %+v", c)
	}

	f := run("fake:perfect", "fake", "perfect")
	fc := NewCost(f, 2, prices)
	if fc.State != Fake || fc.Run() != "$0 (fake)" || fc.PerSuccess() != "$0 (fake)" || !strings.Contains(fc.Line(), "fake") {
		t.Errorf("fake cost %+v %q", fc, fc.Line())
	}

	// A run priced with another table says so.
	r := run("anthropic:m1", "anthropic", "m1")
	r.Header.Prices = &record.PriceTable{Provider: "anthropic", Read: "2026-01-01", SHA256: "abc"}
	if c := NewCost(r, 1, prices); !strings.Contains(c.Note, "the run was priced with the table read 2026-01-01") {
		t.Errorf("note %q", c.Note)
	}
}

func TestDollars(t *testing.T) {
	for v, want := range map[float64]string{0: "$0.0000", 0.01234: "$0.0123", 1.5: "$1.50", 123.456: "$123.46"} {
		if got := Dollars(v); got != want {
			t.Errorf("Dollars(%v) = %q, want %q", v, got, want)
		}
	}
}
