package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/internal/testkit/gittest"
	"github.com/mcpeval/mcpeval/suite"
)

// gitRepo makes a git checkout in a temporary directory holding the
// publish tests' suite, committed, and returns it with its commit.
func gitRepo(t *testing.T) (dir, commit string) {
	t.Helper()
	data, err := os.ReadFile("../../internal/publish/testdata/suite.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return gittest.Repo(t, map[string]string{"suite.yaml": string(data), "notes.txt": "notes\n"})
}

// realRun writes a real model's run (the publish tests' record) into
// dir/runs/NAME, made at commit against dir/suite.yaml.
func realRun(t *testing.T, dir, name, commit string) string {
	t.Helper()
	data, err := os.ReadFile("../../internal/publish/testdata/run/record.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	s, err := suite.Load(filepath.Join(dir, "suite.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitN(data, []byte("\n"), 2)
	var first map[string]map[string]any
	json.Unmarshal(lines[0], &first)
	h := first["header"]
	h["tool"].(map[string]any)["commit"] = commit
	h["suite"].(map[string]any)["path"] = filepath.Join(dir, "suite.yaml")
	h["suite"].(map[string]any)["hash"] = s.Hash
	head, _ := json.Marshal(first)
	run := filepath.Join(dir, "runs", name)
	os.MkdirAll(run, 0o755)
	os.WriteFile(filepath.Join(run, "record.jsonl"), append(append(head, '\n'), lines[1]...), 0o644)
	return run
}

// TestPublishReal publishes a real model's run from a clean checkout, checks
// the ledger and pages agree, and refuses a run made at a commit the
// repository lacks and a tree with uncommitted changes.
func TestPublishReal(t *testing.T) {
	dir, commit := gitRepo(t)
	run := realRun(t, dir, "r1", commit)
	ledger := filepath.Join(dir, "results.json")
	out, errs, code := cli("publish", run, "--ledger", ledger)
	if code != 0 {
		t.Fatalf("publish: exit %d\n%s%s", code, out, errs)
	}
	for _, want := range []string{
		"row anthropic:claude-sonnet-5-5;effort=medium | builtin:household (household) | report-test",
		"as graded     5/10  50%  [24%, 76%]",
		"after review  5/10  50%  [24%, 76%]",
		"published: wrote " + ledger,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("publish output lacks %q:\n%s", want, out)
		}
	}
	if out, _, code := cli("publish", "--check", "--ledger", ledger); code != 0 || !strings.Contains(out, "agree") {
		t.Errorf("check: exit %d\n%s", code, out)
	}
	gittest.Git(t, dir, "add", "results.json", "results")
	gittest.Git(t, dir, "commit", "-q", "-m", "publish")

	// A commit that is not in the repository.
	other := realRun(t, dir, "r2", "0123456789abcdef0123456789abcdef01234567")
	out, _, code = cli("publish", other, "--ledger", ledger, "--replace")
	if code != exitGate || !strings.Contains(out, "refused by dirty-tree: commit 0123456789ab, which the run names, is not in the repository") {
		t.Errorf("an unknown commit: exit %d\n%s", code, out)
	}
	// Uncommitted changes to a tracked file.
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("changed\n"), 0o644)
	out, _, code = cli("publish", run, "--ledger", ledger, "--replace")
	if code != exitGate || !strings.Contains(out, "refused by dirty-tree: the working tree has uncommitted changes to tracked files ("+filepath.Join(dir, "notes.txt")) {
		t.Errorf("a dirty tree: exit %d\n%s", code, out)
	}
}
