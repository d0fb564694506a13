package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// opsMini reads the pipeline tests' suite: one write case on builtin:ops,
// whose key creates a 5 GB volume, and one question that must be declined.
func opsMini(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "internal", "pipeline", "testdata", "ops-mini.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// argumentsColumn reads the Arguments column of the first model in an
// action report file.
func argumentsColumn(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return argumentsIn(t, path, b)
}

// argumentsIn reads the Arguments column of the first model in the action
// report rep, read from where.
func argumentsIn(t *testing.T, where string, rep []byte) string {
	t.Helper()
	var r struct {
		Models []struct {
			Columns struct {
				Arguments struct{ Num, Den int } `json:"arguments"`
			} `json:"columns"`
		} `json:"models"`
	}
	if err := json.Unmarshal(rep, &r); err != nil || len(r.Models) == 0 {
		t.Fatalf("%s: %v\n%s", where, err, rep)
	}
	b, _ := json.Marshal(r.Models[0].Columns.Arguments)
	return string(b)
}

// TestScoreRefreshesActions: after the suite is edited, score rewrites
// every graded file of the run, actions.json as well as grades.json, so
// that no file of the run keeps the old suite's verdicts.
func TestScoreRefreshesActions(t *testing.T) {
	src := opsMini(t)
	dir := writeFiles(t, map[string]string{"suite.yaml": src})
	suitePath, run := filepath.Join(dir, "suite.yaml"), filepath.Join(dir, "run")
	if _, stderr, code := cli("run", "--suite", suitePath, "--out", run, "--quiet"); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	before := argumentsColumn(t, filepath.Join(run, "actions.json"))
	if before != `{"Num":6,"Den":6}` {
		t.Fatalf("arguments before the edit: %s, want 6/6", before)
	}
	// The suite now wants a 6 GB volume: the recorded calls (5 GB) get
	// one argument wrong each.
	edited := strings.NewReplacer("size_gb: {literal: 5}", "size_gb: {literal: 6}", "a 5 GB volume", "a 6 GB volume").Replace(src)
	if err := os.WriteFile(suitePath, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := cli("score", run); code != 0 {
		t.Fatalf("score: exit %d: %s", code, stderr)
	}
	after := argumentsColumn(t, filepath.Join(run, "actions.json"))
	if after != `{"Num":4,"Den":6}` {
		t.Errorf("actions.json after re-scoring against the edited suite: arguments %s, want 4/6", after)
	}
	if graded := argumentsColumnOf(t, filepath.Join(run, "grades.json")); graded != after {
		t.Errorf("grades.json says arguments %s, actions.json %s", graded, after)
	}
}

// argumentsColumnOf reads the Arguments column of the action report
// carried in grades.json.
func argumentsColumnOf(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Actions json.RawMessage `json:"actions"`
	}
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	return argumentsIn(t, path+": actions", res.Actions)
}

// TestMergeWritesEveryFile: the merged run of a sharded action suite gets
// the same derived files as an unsharded run, action columns included.
func TestMergeWritesEveryFile(t *testing.T) {
	dir := writeFiles(t, map[string]string{"suite.yaml": opsMini(t)})
	suitePath := filepath.Join(dir, "suite.yaml")
	var shards []string
	for _, k := range []string{"1/2", "2/2"} {
		out := filepath.Join(dir, "shard"+k[:1])
		if _, stderr, code := cli("run", "--suite", suitePath, "--shard", k, "--out", out, "--quiet"); code != 0 {
			t.Fatalf("shard %s: exit %d: %s", k, code, stderr)
		}
		shards = append(shards, out)
	}
	merged := filepath.Join(dir, "merged")
	if _, stderr, code := cli(append([]string{"merge", "--out", merged}, shards...)...); code != 0 {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	if got := argumentsColumn(t, filepath.Join(merged, "actions.json")); got != `{"Num":6,"Den":6}` {
		t.Errorf("the merged run's actions.json: arguments %s, want 6/6", got)
	}
	if graded := argumentsColumnOf(t, filepath.Join(merged, "grades.json")); graded != `{"Num":6,"Den":6}` {
		t.Errorf("the merged run's grades.json: arguments %s, want 6/6", graded)
	}
}

// TestLimitHeap: score, report and run set the soft memory limit for as
// long as they run and put the previous one back, and leave alone one the
// environment sets.
func TestLimitHeap(t *testing.T) {
	prev := debug.SetMemoryLimit(-1)
	restore := limitHeap()
	if got := debug.SetMemoryLimit(-1); got != heapLimit {
		t.Errorf("the limit while a command runs: %d, want %d", got, heapLimit)
	}
	restore()
	if got := debug.SetMemoryLimit(-1); got != prev {
		t.Errorf("the limit after: %d, want the previous %d", got, prev)
	}
	t.Setenv("GOMEMLIMIT", "1GiB")
	limitHeap()()
	if got := debug.SetMemoryLimit(-1); got != prev {
		t.Errorf("with GOMEMLIMIT set, the limit became %d", got)
	}
}
