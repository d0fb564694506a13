package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestArchitectureNamesEveryFile checks the promise of docs/architecture.md
// that it lists the runner's files, so that a file added without a word
// there fails here.
func TestArchitectureNamesEveryFile(t *testing.T) {
	doc, err := os.ReadFile("../docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || f == "doc.go" {
			continue
		}
		if !strings.Contains(string(doc), "`runner/"+f+"`") {
			t.Errorf("docs/architecture.md does not name runner/%s (write it as `runner/%s`)", f, f)
		}
	}
}
