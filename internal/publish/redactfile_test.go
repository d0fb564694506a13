package publish

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mcpeval/mcpeval/internal/redact"
)

func TestRedactionReadsTheListBesideTheLedger(t *testing.T) {
	dir := t.TempDir()
	ledger := filepath.Join(dir, "ledger.jsonl")
	cfg, err := Redaction("", ledger, "acme-prod")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(cfg.Identifiers, []string{"acme-prod"}) {
		t.Errorf("without a list: identifiers %q, want only the one given", cfg.Identifiers)
	}
	if err := os.WriteFile(filepath.Join(dir, redact.FileName), []byte("identifiers:\n  - tenant-42\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err = Redaction("", ledger, "acme-prod")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(cfg.Identifiers, []string{"tenant-42", "acme-prod"}) {
		t.Errorf("with %s beside the ledger: identifiers %q", redact.FileName, cfg.Identifiers)
	}
	if _, err := Redaction(filepath.Join(dir, "missing.yaml"), ledger); err == nil {
		t.Error("a list named but missing was accepted")
	}
}
