package layers

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestArchitectureNamesEveryPackage checks the promise of
// docs/architecture.md that it names every package of the module, so that
// a package added without a word there fails here.
func TestArchitectureNamesEveryPackage(t *testing.T) {
	doc, err := os.ReadFile("../../docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", "list", "../../...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		rel := strings.TrimPrefix(p, mod)
		if rel == p || strings.HasPrefix(rel, "examples") {
			continue // the module's root, and the examples the README walks through
		}
		if !strings.Contains(string(doc), "`"+rel+"`") && !strings.Contains(string(doc), "`"+rel+"/`") {
			t.Errorf("docs/architecture.md does not name package %s (write it as `%s`)", p, rel)
		}
	}
}
