package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const gateSuite = `name: gate-demo
target: builtin:household
attempts: 5
cases:
  - id: balances/net-worth
    mode: tool-call
    prompt: What's our net worth?
    expect_tools: [get_net_worth]
    key: {calls: [{tool: get_net_worth}]}
  - id: history/six-months
    mode: tool-call
    prompt: How has our net worth moved over the last six months?
    expect_tools: [get_net_worth_history]
    expect_args: {months: 6}
    key: {calls: [{tool: get_net_worth_history, args: {months: 6}}]}
`

const breakScript = `balances/net-worth:
  - call: get_net_worth
history/six-months:
  - call: get_net_worth_history
    args: {months: 12}
`

func mainIn(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(context.Background(), args, nil, &out, &errb)
	return code, out.String(), errb.String()
}

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestGateExitCodes: a significant regression, on compare --gate and on
// run --gate, and a pass rate under --min-pass, exit 5 (exitGate); no
// regression exits 0.
func TestGateExitCodes(t *testing.T) {
	dir := writeFiles(t, map[string]string{"suite.yaml": gateSuite, "break.yaml": breakScript})
	suite, script := filepath.Join(dir, "suite.yaml"), "script:"+filepath.Join(dir, "break.yaml")
	base, bad := filepath.Join(dir, "base"), filepath.Join(dir, "bad")
	if code, _, stderr := mainIn(t, "run", "--suite", suite, "--out", base, "--quiet"); code != 0 {
		t.Fatalf("base run: exit %d: %s", code, stderr)
	}
	if code, _, stderr := mainIn(t, "run", "--suite", suite, "--model", script, "--out", bad, "--quiet"); code != 0 {
		t.Fatalf("bad run: exit %d: %s", code, stderr)
	}
	tests := []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"compare", "--gate", base, base}, exitOK, ""},
		{[]string{"compare", base, bad}, exitOK, ""},
		{[]string{"compare", "--gate", base, bad}, exitGate, "group history: 100% (5/5) → 0% (0/5), p=0.008"},
		{[]string{"run", "--suite", suite, "--model", script, "--out", filepath.Join(dir, "r1"), "--quiet", "--gate", base}, exitGate, "what changed between the runs: model"},
		{[]string{"run", "--suite", suite, "--out", filepath.Join(dir, "r2"), "--quiet", "--gate", base, "--min-pass", "1"}, exitOK, "gate passed"},
		{[]string{"run", "--suite", suite, "--model", script, "--out", filepath.Join(dir, "r3"), "--quiet", "--min-pass", "0.9"}, exitGate, "pass rate 50.0% (5/10"},
		{[]string{"run", "--suite", suite, "--out", filepath.Join(dir, "r4"), "--quiet", "--gate", filepath.Join(dir, "none")}, exitUsage, "none"},
		{[]string{"run", "--suite", suite, "--out", filepath.Join(dir, "r5"), "--quiet", "--min-pass", "90"}, exitUsage, "want a fraction between 0 and 1"},
		{[]string{"run", "--suite", suite, "--out", filepath.Join(dir, "r6"), "--quiet", "--model", "fake:perfect", "--model", "fake:refuse", "--gate", base}, exitUsage, "give one --model"},
	}
	for _, tt := range tests {
		code, _, stderr := mainIn(t, tt.args...)
		if code != tt.code || !strings.Contains(stderr, tt.stderr) {
			t.Errorf("mcpeval %s: exit %d, stderr %q; want exit %d and %q", strings.Join(tt.args, " "), code, stderr, tt.code, tt.stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "r4")); err == nil {
		t.Errorf("a run with a missing baseline started anyway")
	}
}

// TestExampleSuite: examples/household-ci validates and both of its
// datasets run and pass with fake:perfect.
func TestExampleSuite(t *testing.T) {
	const ex = "../../examples/household-ci"
	if code, out, stderr := mainIn(t, "validate", ex); code != 0 {
		t.Fatalf("validate: exit %d\n%s%s", code, out, stderr)
	}
	for dataset, want := range map[string]int{"pr": 15, "merge": 12} {
		code, out, stderr := mainIn(t, "run", "--suite", ex, "--dataset", dataset, "--out", filepath.Join(t.TempDir(), dataset), "--quiet", "--json")
		if code != 0 {
			t.Fatalf("--dataset %s: exit %d: %s", dataset, code, stderr)
		}
		var s summary
		if err := json.Unmarshal([]byte(out), &s); err != nil {
			t.Fatal(err)
		}
		if s.Totals.Graded != want || s.Totals.Passed != want {
			t.Errorf("--dataset %s: %+v, want %d of %d passed", dataset, s.Totals, want, want)
		}
		for _, c := range s.Cases {
			if !strings.HasPrefix(c.ID, dataset+"/") {
				t.Errorf("--dataset %s ran %s", dataset, c.ID)
			}
			if strings.HasPrefix(c.Group, "pr") || strings.HasPrefix(c.Group, "merge") {
				t.Errorf("case %s is grouped by its dataset prefix (%s), not by its tool or family", c.ID, c.Group)
			}
		}
	}
}

// TestLadderJSON: several --model flags with --json print the ladder alone,
// as JSON, strongest model first.
func TestLadderJSON(t *testing.T) {
	dir := writeFiles(t, map[string]string{"suite.yaml": gateSuite, "break.yaml": breakScript})
	code, out, stderr := mainIn(t, "run", "--suite", filepath.Join(dir, "suite.yaml"), "--attempts", "1", "--json", "--quiet",
		"--model", "fake:perfect", "--model", "script:"+filepath.Join(dir, "break.yaml"), "--out", filepath.Join(dir, "ladder"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var l struct {
		Rungs []struct{ Model string }
		Cases []struct{ ID, Reading string }
	}
	if err := json.Unmarshal([]byte(out), &l); err != nil {
		t.Fatalf("not one JSON document: %v\n%s", err, out)
	}
	if len(l.Rungs) != 2 || l.Rungs[0].Model != "fake:perfect" {
		t.Errorf("rungs %+v", l.Rungs)
	}
	for _, c := range l.Cases {
		want := ""
		if c.ID == "history/six-months" {
			want = "descriptions"
		}
		if c.Reading != want {
			t.Errorf("%s: reading %q, want %q", c.ID, c.Reading, want)
		}
	}
}
