package fake

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestModelsDocNamesEveryFake: docs/models.md's table of fakes has a row
// for every fake but those that are not variants of the key, which it
// names elsewhere.
func TestModelsDocNamesEveryFake(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "models.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, name := range Names() {
		switch name {
		case "perfect", "refuse", "invent", "user", "reads":
			if !strings.Contains(doc, "`fake:"+name+"`") {
				t.Errorf("docs/models.md does not name fake:%s", name)
			}
		default:
			if !strings.Contains(doc, "\n| `fake:"+name+"` |") {
				t.Errorf("docs/models.md's table of fakes has no row for fake:%s", name)
			}
		}
	}
}
