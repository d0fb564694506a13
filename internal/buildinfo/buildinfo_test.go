package buildinfo

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"

	"github.com/mcpeval/mcpeval/internal/testkit/gittest"
	"github.com/mcpeval/mcpeval/record"
)

func TestFromInfo(t *testing.T) {
	stamped := &debug.BuildInfo{GoVersion: "go1.99.1", Main: debug.Module{Path: Module, Version: "v1.2.3"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef"}, {Key: "vcs.modified", Value: "true"}}}
	b := fromInfo(stamped, true)
	if b != (record.Build{Name: "mcpeval", Version: "v1.2.3", Commit: "0123456789abcdef", Dirty: true, Go: "go1.99.1"}) {
		t.Errorf("stamped build: %+v", b)
	}
	if !Stamped(b) {
		t.Error("a stamped build is not Stamped")
	}
	// go run and go test stamp no revision: it is unknown, never guessed.
	b = fromInfo(&debug.BuildInfo{GoVersion: "go1.99.1", Main: debug.Module{Path: Module, Version: "(devel)"}}, true)
	if b.Version != "(devel)" || b.Commit != Unknown || b.Dirty || Stamped(b) {
		t.Errorf("unstamped build: %+v", b)
	}
	if b = fromInfo(nil, false); b.Version != Unknown || b.Commit != Unknown || b.Go == "" {
		t.Errorf("no build information: %+v", b)
	}
	old := Version
	Version = "v9.9.9"
	defer func() { Version = old }()
	if b = fromInfo(stamped, true); b.Version != "v9.9.9" {
		t.Errorf("a version set at link time is not used: %+v", b)
	}
}

// TestGetIgnoresWorkingDirectory runs in a git checkout that is not
// mcpeval's: the build mcpeval reports must not change.
func TestGetIgnoresWorkingDirectory(t *testing.T) {
	before := Get()
	dir, commit := repo(t)
	t.Chdir(dir)
	after := Get()
	if after != before {
		t.Errorf("the build changed with the working directory: %+v, then %+v", before, after)
	}
	if after.Commit == commit {
		t.Errorf("the build names the working directory's commit %s", commit)
	}
}

func TestSuite(t *testing.T) {
	dir, commit := repo(t)
	file := filepath.Join(dir, "suites", "a.yaml")
	for _, p := range []string{file, filepath.Join(dir, "suites")} {
		if got := Suite(p); got != (Source{Kind: record.SourceGit, Commit: commit}) {
			t.Errorf("Suite(%s) = %+v, want commit %s, clean", p, got, commit)
		}
	}
	// A change elsewhere in the checkout is not the suite's.
	os.WriteFile(filepath.Join(dir, "other.txt"), []byte("changed\n"), 0o644)
	if got := Suite(file); got.Dirty {
		t.Errorf("a change outside the suite makes it dirty: %+v", got)
	}
	// A change to the suite's file is.
	os.WriteFile(file, []byte("name: a\n# edited\n"), 0o644)
	if got := Suite(file); !got.Dirty || got.Commit != commit {
		t.Errorf("an edited suite: %+v", got)
	}
	// So is a file of a suite folder that was never committed.
	gittest.Git(t, dir, "checkout", "-q", "--", ".")
	os.WriteFile(filepath.Join(dir, "suites", "new.yaml"), []byte("cases: []\n"), 0o644)
	if got := Suite(filepath.Join(dir, "suites")); !got.Dirty {
		t.Errorf("an untracked case file: %+v", got)
	}
	if got := Suite(file); got.Dirty {
		t.Errorf("an untracked file beside a one-file suite: %+v", got)
	}

	// And a suite git ignores: it is in no commit.
	os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("ignored/\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, "ignored"), 0o755)
	os.WriteFile(filepath.Join(dir, "ignored", "s.yaml"), []byte("name: s\n"), 0o644)
	for _, p := range []string{filepath.Join(dir, "ignored"), filepath.Join(dir, "ignored", "s.yaml")} {
		if got := Suite(p); !got.Dirty {
			t.Errorf("an ignored suite %s: %+v", p, got)
		}
	}

	if got := Suite("embedded:household"); got != (Source{Kind: record.SourceEmbedded}) {
		t.Errorf("embedded suite: %+v", got)
	}
	outside := filepath.Join(t.TempDir(), "s.yaml")
	os.WriteFile(outside, []byte("name: s\n"), 0o644)
	if got := Suite(outside); got != (Source{Kind: record.SourceFiles}) {
		t.Errorf("a suite in no repository: %+v", got)
	}
}

// repo makes a git checkout holding suites/a.yaml and other.txt,
// committed, and returns it with its commit.
func repo(t *testing.T) (dir, commit string) {
	t.Helper()
	return gittest.Repo(t, map[string]string{"suites/a.yaml": "name: a\n", "other.txt": "other\n"})
}
