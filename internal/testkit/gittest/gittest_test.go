package gittest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRepo: the checkout holds the files, in folders as named, and its
// commit is HEAD with nothing left to commit.
func TestRepo(t *testing.T) {
	dir, commit := Repo(t, map[string]string{"suites/a.yaml": "name: a\n", "notes.txt": "notes\n"})
	if b, err := os.ReadFile(filepath.Join(dir, "suites", "a.yaml")); err != nil || string(b) != "name: a\n" {
		t.Errorf("suites/a.yaml: %q, %v", b, err)
	}
	if got := strings.Fields(Git(t, dir, "ls-files")); strings.Join(got, " ") != "notes.txt suites/a.yaml" {
		t.Errorf("tracked files %v", got)
	}
	if head := strings.TrimSpace(Git(t, dir, "rev-parse", "HEAD")); len(commit) != 40 || head != commit {
		t.Errorf("commit %q, HEAD %q", commit, head)
	}
	if st := Git(t, dir, "status", "--porcelain"); st != "" {
		t.Errorf("left to commit: %q", st)
	}
}
