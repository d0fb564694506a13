package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOneVerdictEverywhere: when an action case's answer check fails the
// attempts its action score passes, the report, actions.json and compare
// all count the same failures: the action columns read the case's
// verdict, not a pass of their own.
func TestOneVerdictEverywhere(t *testing.T) {
	src := opsMini(t)
	dir := writeFiles(t, map[string]string{"suite.yaml": src})
	suitePath, run := filepath.Join(dir, "suite.yaml"), filepath.Join(dir, "run")
	if _, stderr, code := cli("run", "--suite", suitePath, "--model", "fake:perfect", "--out", run, "--quiet"); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	// The write case now wants its answer to name a ticket, which the
	// recorded answers do not: both attempts fail on their answer alone.
	const prompt = "    prompt: Set up a 5 GB volume on nfs called cache-{{token}}.\n"
	if !strings.Contains(src, prompt) {
		t.Fatal("ops-mini.yaml has changed: the test edits its write case")
	}
	edited := strings.Replace(src, prompt, prompt+"    answer: {contains: [TICKET-42]}\n", 1)
	if err := os.WriteFile(suitePath, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := cli("score", run); code != 0 {
		t.Fatalf("score: exit %d: %s", code, stderr)
	}

	type counts struct{ Passed, Failed int }
	type column struct{ Num, Den int }
	type actionsReport struct {
		Models []struct {
			Columns struct {
				Pass column `json:"pass"`
			} `json:"columns"`
		} `json:"models"`
	}
	stdout, stderr, code := cli("report", run, "--json")
	if code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	var rep struct {
		Totals  counts        `json:"totals"`
		Actions actionsReport `json:"actions"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || len(rep.Actions.Models) != 1 {
		t.Fatalf("report --json: %v\n%s", err, stdout)
	}
	if rep.Totals.Failed != 2 {
		t.Errorf("report: %d attempts failed, want 2 (the write case's)", rep.Totals.Failed)
	}
	if p := rep.Actions.Models[0].Columns.Pass; p != (column{0, 2}) {
		t.Errorf("report's action columns: Pass %d/%d, want 0/2", p.Num, p.Den)
	}

	b, err := os.ReadFile(filepath.Join(run, "actions.json"))
	if err != nil {
		t.Fatal(err)
	}
	var file actionsReport
	if err := json.Unmarshal(b, &file); err != nil || len(file.Models) != 1 {
		t.Fatalf("actions.json: %v\n%s", err, b)
	}
	if p := file.Models[0].Columns.Pass; p != (column{0, 2}) {
		t.Errorf("actions.json: Pass %d/%d, want 0/2", p.Num, p.Den)
	}

	stdout, stderr, code = cli("compare", run, run, "--json")
	if code != 0 {
		t.Fatalf("compare: exit %d: %s", code, stderr)
	}
	var cmp struct {
		Total struct {
			New counts `json:"new"`
		} `json:"total"`
		Actions []struct {
			Kind   string `json:"kind"`
			Column string `json:"column"`
			New    counts `json:"new"`
		} `json:"actions"`
	}
	if err := json.Unmarshal([]byte(stdout), &cmp); err != nil {
		t.Fatalf("compare --json: %v\n%s", err, stdout)
	}
	if cmp.Total.New.Failed != 2 {
		t.Errorf("compare: total %d failed, want 2", cmp.Total.New.Failed)
	}
	found := false
	for _, r := range cmp.Actions {
		if r.Kind == "" && r.Column == "pass" {
			found = true
			if r.New.Failed != 2 || r.New.Passed != 0 {
				t.Errorf("compare: action column pass %d passed, %d failed; want 0 and 2", r.New.Passed, r.New.Failed)
			}
		}
	}
	if !found {
		t.Errorf("compare has no pass row over all action cases:\n%s", stdout)
	}
}
