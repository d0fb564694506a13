package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpeval/mcpeval/internal/buildinfo"
	"github.com/mcpeval/mcpeval/record"
)

// TestRunProvenance runs a suite that lives in one git checkout from
// inside another: the record names the suite's checkout and commit, and
// mcpeval's own build, never the working directory's commit. An edit to
// the suite makes it dirty.
func TestRunProvenance(t *testing.T) {
	suiteDir, suiteCommit := gitRepo(t)
	cwd, cwdCommit := gitRepo(t)
	os.WriteFile(filepath.Join(cwd, "notes.txt"), []byte("the working directory is dirty\n"), 0o644)
	t.Chdir(cwd)
	suitePath := filepath.Join(suiteDir, "suite.yaml")

	header := func(name string) record.Header {
		t.Helper()
		out := filepath.Join(t.TempDir(), name)
		if stdout, stderr, code := cli("run", "--suite", suitePath, "--target", "builtin:household", "--attempts", "1", "--quiet", "--out", out); code != 0 {
			t.Fatalf("run: exit %d\n%s%s", code, stdout, stderr)
		}
		rec, err := record.Read(out)
		if err != nil {
			t.Fatal(err)
		}
		return rec.Header
	}

	h := header("clean")
	if h.Suite.Source != record.SourceGit || h.Suite.Commit != suiteCommit || h.Suite.Dirty {
		t.Errorf("suite provenance %+v, want git at %s, clean", h.Suite, suiteCommit)
	}
	if h.Tool != buildinfo.Get() || h.Tool.Commit == cwdCommit || h.Tool.Commit == suiteCommit || h.Tool.Dirty {
		t.Errorf("mcpeval's build %+v depends on where it ran (the working directory is at %s)", h.Tool, cwdCommit)
	}

	f, _ := os.OpenFile(suitePath, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("# edited after the commit\n")
	f.Close()
	if h := header("dirty"); h.Suite.Commit != suiteCommit || !h.Suite.Dirty {
		t.Errorf("an edited suite: %+v, want dirty on top of %s", h.Suite, suiteCommit)
	}
}
