// Package gittest makes git checkouts for tests: the suite's provenance
// and the results ledger are read from git.
package gittest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Repo makes a git checkout in a new temporary directory holding files
// (slash-separated path to content), all committed, and returns it with
// its commit. It skips the test when git is not installed.
func Repo(t testing.TB, files map[string]string) (dir, commit string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir = t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	Git(t, dir, "init", "-q")
	Git(t, dir, "add", ".")
	Git(t, dir, "commit", "-q", "-m", "start")
	return dir, strings.TrimSpace(Git(t, dir, "rev-parse", "HEAD"))
}

// Git runs git in dir with args, as the user t <t@example.com>, and
// returns what it wrote; it fails the test when git fails.
func Git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}
