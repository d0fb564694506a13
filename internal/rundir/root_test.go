package rundir

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRoot: outputs land in the current folder, except when it is a
// suite's folder or lies inside the suite's folder: then they land beside
// that folder, and Root says which folder it moved them out of.
func TestRoot(t *testing.T) {
	base := t.TempDir()
	suiteDir := filepath.Join(base, "evals", "my-suite")
	other := filepath.Join(base, "elsewhere")
	lone := filepath.Join(base, "lone-suite") // a suite's folder, not the suite run
	sibling := filepath.Join(base, "evals", "my-suite-2")
	for _, d := range []string{filepath.Join(suiteDir, "cases"), other, lone, sibling} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{suiteDir, lone} {
		if err := os.WriteFile(filepath.Join(d, SuiteFile), []byte("name: x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name, cwd, suite, root, beside string
	}{
		{"elsewhere", other, suiteDir, other, ""},
		{"the suite's folder", suiteDir, suiteDir, filepath.Join(base, "evals"), suiteDir},
		{"under the suite's folder", filepath.Join(suiteDir, "cases"), suiteDir, filepath.Join(base, "evals"), suiteDir},
		{"a folder whose name starts like the suite's", sibling, suiteDir, sibling, ""},
		{"the parent of the suite's folder", filepath.Join(base, "evals"), suiteDir, filepath.Join(base, "evals"), ""},
		{"a suite's folder, embedded suite", lone, "", base, lone},
		{"no suite", other, "", other, ""},
	} {
		root, beside := Root(c.cwd, c.suite)
		if root != c.root || beside != c.beside {
			t.Errorf("%s: Root(%s, %s) = %s, %q; want %s, %q", c.name, c.cwd, c.suite, root, beside, c.root, c.beside)
		}
	}
}

// TestSuiteDir: a suite's folder is the path itself for a folder, the
// folder holding it for a file, and none for an embedded suite.
func TestSuiteDir(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, SuiteFile)
	if err := os.WriteFile(file, []byte("name: x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]string{dir: dir, file: dir, "embedded:household": "", "": "", filepath.Join(dir, "missing"): ""} {
		if got := SuiteDir(p); got != want {
			t.Errorf("SuiteDir(%q) = %q, want %q", p, got, want)
		}
	}
}
