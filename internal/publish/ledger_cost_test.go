package publish

import (
	"testing"

	"github.com/mcpeval/mcpeval/internal/usage"
)

// TestRowCost: a published row carries what its run cost, and the ledger
// reads it back.
func TestRowCost(t *testing.T) {
	e := setup(t, "testdata/suite.yaml")
	if out := e.publish(); len(out.Refusals) > 0 {
		t.Fatalf("refused: %v", out.Refusals)
	}
	l, err := ReadLedger(e.opts.Ledger)
	if err != nil || len(l.Rows) != 1 {
		t.Fatalf("ledger: %v, %+v", err, l)
	}
	c := l.Rows[0].Cost
	if c == nil || c.State != usage.Priced || c.Passed != 5 || c.Attempts != 12 || c.RunUSD == nil || c.PerSuccessUSD == nil || c.Prices == nil {
		t.Errorf("row cost %+v", c)
	}
}
