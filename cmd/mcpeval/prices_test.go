package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/internal/testkit/wiremodel"
	"github.com/mcpeval/mcpeval/internal/usage"
	"github.com/mcpeval/mcpeval/record"
)

// TestRunRecordsItsPrices: a real model's run records the price table that
// priced it (its date and the SHA-256 of its file) and reports the cost
// from it; with no table listing the model, the run records that it is
// unpriced and says so rather than $0.
func TestRunRecordsItsPrices(t *testing.T) {
	wire(t, wiremodel.Anthropic)
	dir := t.TempDir()
	pricesFile := filepath.Join(dir, "prices.json")
	data := []byte(`{"provider":"anthropic","read":"2027-02-03","source":"https://example.com/prices","models":[{"model":"claude-test","input":1000,"output":1000}]}`)
	if err := os.WriteFile(pricesFile, data, 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	run := func(name string, extra ...string) (*record.Run, string) {
		out := filepath.Join(dir, name)
		args := append([]string{"run", "--json", "--quiet", "--spend", "--suite", "household", "--model", providerSpecs[wiremodel.Anthropic], "--attempts", "1",
			"--case", "single-tool/net-worth-now", "--out", out}, extra...)
		stdout, stderr, code := cli(args...)
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, stderr)
		}
		rec, err := record.Read(out)
		if err != nil {
			t.Fatal(err)
		}
		return rec, stdout
	}

	rec, stdout := run("priced", "--prices", pricesFile, "--budget-usd", "100")
	p := rec.Header.Prices
	if p == nil || p.Read != "2027-02-03" || p.SHA256 != hex.EncodeToString(sum[:]) || p.File != pricesFile || p.Unpriced || p.Provider != "anthropic" {
		t.Errorf("recorded prices %+v", p)
	}
	var sumry struct{ Cost usage.Cost }
	if err := json.Unmarshal([]byte(stdout), &sumry); err != nil {
		t.Fatal(err)
	}
	if sumry.Cost.State != usage.Priced || sumry.Cost.RunUSD == nil || *sumry.Cost.RunUSD <= 0 || sumry.Cost.Note != "" {
		t.Errorf("cost %+v", sumry.Cost)
	}
	// Reported later with the built-in table, the cost is unknown, and the
	// report says it was priced otherwise when run.
	text, stderr, code := cli("report", rec.Dir)
	if code != 0 || !strings.Contains(text, "cost  unpriced") || !strings.Contains(text, "the run was priced with the table read 2027-02-03") {
		t.Errorf("report without --prices (exit %d, %s):\n%s", code, stderr, text)
	}

	rec, stdout = run("unpriced")
	if p := rec.Header.Prices; p == nil || !p.Unpriced || p.File != "" || p.Read == "" {
		t.Errorf("recorded prices of an unpriced model %+v", p)
	}
	if !strings.Contains(stdout, `"state": "unpriced"`) || strings.Contains(stdout, `"run_usd"`) {
		t.Errorf("unpriced summary:\n%s", stdout)
	}
}
