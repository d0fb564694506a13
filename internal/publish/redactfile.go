package publish

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mcpeval/mcpeval/internal/redact"
)

// Redaction reads the operator's redaction list for a ledger: the file
// named, or redact.yaml beside the ledger when there is one, plus the
// extra identifiers given one by one.
func Redaction(file, ledger string, extra ...string) (*redact.Config, error) {
	if file == "" {
		def := filepath.Join(filepath.Dir(ledger), redact.FileName)
		if _, err := os.Stat(def); errors.Is(err, fs.ErrNotExist) {
			return &redact.Config{Identifiers: extra}, nil
		}
		file = def
	}
	cfg, err := redact.LoadConfig(file)
	if err != nil {
		return nil, err
	}
	cfg.Identifiers = append(cfg.Identifiers, extra...)
	return cfg, nil
}
