package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const turnsSuiteYAML = `name: turns
target: builtin:household
attempts: 1
cases:
  - id: single-tool/whose-net-worth
    prompt: What's the net worth?
    tools: {accepted: [get_net_worth]}
    figures: [{value: 2394755, currency: SGD, kind: money}]
    turns:
      - when: {asked: true}
        say: The household's.
`

const turnsScriptYAML = `single-tool/whose-net-worth:
  - say: Whose net worth do you mean, yours or the household's?
  - call: get_net_worth
  - say: The household's net worth is S$2,394,755.
`

// TestScoreRegradesUserTurns runs a case whose model asks back, answered
// by a user turn, then scores the run again against an edited suite: the
// answer graded is the model's last one, read from the record, and nothing
// is run again.
func TestScoreRegradesUserTurns(t *testing.T) {
	dir := writeFiles(t, map[string]string{"suite.yaml": turnsSuiteYAML, "script.yaml": turnsScriptYAML})
	suitePath, run := filepath.Join(dir, "suite.yaml"), filepath.Join(dir, "run")
	if _, stderr, code := cli("run", "--suite", suitePath, "--model", "script:"+filepath.Join(dir, "script.yaml"), "--out", run, "--quiet"); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	rec, err := os.ReadFile(filepath.Join(run, "record.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(rec), `"user":{"entry":1,"text":"The household's."}`) {
		t.Errorf("the record does not mark the user's turn:\n%s", rec)
	}
	if got := verdicts(t, filepath.Join(run, "grades.json")); got != "pass" {
		t.Fatalf("graded %s, want pass on the last answer", got)
	}
	edited := strings.Replace(turnsSuiteYAML, "value: 2394755", "value: 2000000", 1)
	if err := os.WriteFile(suitePath, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := cli("score", run); code != 0 {
		t.Fatalf("score: exit %d: %s", code, stderr)
	}
	if got := verdicts(t, filepath.Join(run, "grades.json")); got != "fail: figures" {
		t.Errorf("re-graded %s, want a fail on the figure", got)
	}
}

// verdicts reads a grades.json's attempts as "verdict: check, ...".
func verdicts(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Attempts []struct {
			Verdict string `json:"verdict"`
			Reasons []struct {
				Check string `json:"check"`
			} `json:"reasons"`
		} `json:"attempts"`
	}
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, a := range res.Attempts {
		s := a.Verdict
		var checks []string
		for _, r := range a.Reasons {
			checks = append(checks, r.Check)
		}
		if len(checks) > 0 {
			s += ": " + strings.Join(checks, ", ")
		}
		out = append(out, s)
	}
	return strings.Join(out, "; ")
}
