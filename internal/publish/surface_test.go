package publish

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/record"
)

// TestLedgerSurface: a run on a surface of its suite publishes a row that
// names the surface, keyed apart from the same model on another surface,
// and the ledger page shows it beside the target; Check agrees.
func TestLedgerSurface(t *testing.T) {
	e := setup(t, "testdata/suite.yaml")
	plain := makeRowFor(t, e)
	e.rec.Header.Surface = &record.Surface{Name: "meta"}
	publishWithActions(t, e)
	l, err := ReadLedger(e.opts.Ledger)
	if err != nil || len(l.Rows) != 1 {
		t.Fatalf("ledger: %v, %+v", err, l)
	}
	r := l.Rows[0]
	if r.Surface != "meta" || !strings.HasSuffix(r.Key(), " on surface meta | "+r.Suite.Name) || r.Key() == plain.Key() {
		t.Fatalf("row surface %q, key %q (without the surface %q)", r.Surface, r.Key(), plain.Key())
	}
	if plain.Surface != "" || strings.Contains(plain.Key(), "surface") {
		t.Errorf("a run of a suite without surfaces names one: %q, %q", plain.Surface, plain.Key())
	}
	if probs, err := Check(e.opts.Ledger, e.opts.Site); err != nil || len(probs) > 0 {
		t.Fatalf("Check: %v %q", err, probs)
	}
	index, _ := os.ReadFile(filepath.Join(e.opts.Site, "index.html"))
	if !strings.Contains(string(index), "(surface meta)") {
		t.Errorf("the ledger page does not show the surface")
	}
}

// makeRowFor is the row the test run would publish.
func makeRowFor(t *testing.T, e *env) Row {
	t.Helper()
	p, err := load(e.rec, e.opts.withDefaults())
	if err != nil {
		t.Fatal(err)
	}
	return makeRow(e.rec, p.in.res, p.rv)
}
