package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/internal/testkit/wiremodel"
	"github.com/mcpeval/mcpeval/record"
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
	if _, stderr, code := cli("run", "--suite", suite, "--out", base, "--quiet"); code != 0 {
		t.Fatalf("base run: exit %d: %s", code, stderr)
	}
	if _, stderr, code := cli("run", "--suite", suite, "--model", script, "--out", bad, "--quiet"); code != 0 {
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
		_, stderr, code := cli(tt.args...)
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
	if out, stderr, code := cli("validate", ex); code != 0 {
		t.Fatalf("validate: exit %d\n%s%s", code, out, stderr)
	}
	for dataset, want := range map[string]int{"pr": 15, "merge": 12} {
		out, stderr, code := cli("run", "--suite", ex, "--dataset", dataset, "--out", filepath.Join(t.TempDir(), dataset), "--quiet", "--json")
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
	out, stderr, code := cli("run", "--suite", filepath.Join(dir, "suite.yaml"), "--attempts", "1", "--json", "--quiet",
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

// TestGateOnNothingGraded: with the provider refusing every request, every
// attempt is an error and nothing is graded. The run completes and its
// record is whole, but it exits 6 even with no gate set, so that a script
// can tell an outage from a result; a gate cannot pass on it either:
// --min-pass, --gate and compare --gate exit 6 and say why. A run where more attempts
// errored than --max-error-rate allows exits 6 too; raising the share
// lets the gate judge the rest.
func TestGateOnNothingGraded(t *testing.T) {
	dir := writeFiles(t, map[string]string{"suite.yaml": gateSuite})
	suitePath := filepath.Join(dir, "suite.yaml")
	s, err := loadSuite(suitePath)
	if err != nil {
		t.Fatal(err)
	}
	refuse := make([]wiremodel.Fault, 1000)
	for i := range refuse {
		refuse[i] = wiremodel.Fault{Status: http.StatusUnauthorized}
	}
	// serve points the openai provider at a wire model that refuses the
	// first requests as faults says and answers the rest from the keys.
	serve := func(faults []wiremodel.Fault) {
		h := &wiremodel.Handler{API: wiremodel.OpenAI, Keys: wiremodel.Keys(s), Faults: faults, APIKey: openaiKey}
		srv := httptest.NewServer(h)
		t.Cleanup(srv.Close)
		t.Setenv("OPENAI_BASE_URL", srv.URL+"/v1")
	}
	t.Setenv("OPENAI_API_KEY", openaiKey)
	t.Setenv("MCPEVAL_SPEND", "")
	serve(refuse)

	base := filepath.Join(dir, "base")
	if _, stderr, code := cli("run", "--suite", suitePath, "--out", base, "--quiet"); code != exitOK {
		t.Fatalf("base run: exit %d: %s", code, stderr)
	}
	openai := []string{"run", "--suite", suitePath, "--model", "openai:gpt-test", "--spend", "--quiet", "--concurrency", "1"}
	down1 := filepath.Join(dir, "down")
	_, stderr, code := cli(append(openai, "--out", down1)...)
	if code != exitTooFew || !strings.Contains(stderr, "no attempt was graded: all 10 ended in an error (provider 10)") || strings.Contains(stderr, "gate") {
		t.Fatalf("a run with the provider down and no gate: exit %d, want 6 saying nothing was graded: %s", code, stderr)
	}
	rec, _ := record.Read(down1)
	if rec == nil || len(rec.Attempts) != 10 {
		t.Fatalf("the run with the provider down recorded %v", rec)
	}
	for _, a := range rec.Attempts {
		if a.Error == nil || a.Error.Kind != record.KindProvider {
			t.Fatalf("attempt %s #%d did not end in a provider error: %+v", a.Case, a.N, a.Error)
		}
	}

	// The shards of such a run, and their merge, alike.
	var shards []string
	for _, k := range []string{"1/2", "2/2"} {
		sh := filepath.Join(dir, "shard"+k[:1])
		if _, stderr, code := cli(append(openai, "--out", sh, "--shard", k)...); code != exitTooFew {
			t.Fatalf("shard %s with the provider down: exit %d, want 6: %s", k, code, stderr)
		}
		shards = append(shards, sh)
	}
	if _, stderr, code := cli(append([]string{"merge", "--out", filepath.Join(dir, "merged")}, shards...)...); code != exitTooFew || !strings.Contains(stderr, "no attempt was graded: all 10 ended in an error") {
		t.Errorf("merging the shards of a run with the provider down: exit %d, want 6: %s", code, stderr)
	}

	const nothing = "openai:gpt-test: no attempt was graded: all 10 ended in an error (provider 10), so no gate can pass"
	tests := []struct {
		args   []string
		code   int
		stderr string
	}{
		{append(openai, "--out", filepath.Join(dir, "d1"), "--min-pass", "0.5"), exitTooFew, nothing},
		{append(openai, "--out", filepath.Join(dir, "d2"), "--gate", base), exitTooFew, nothing},
		{[]string{"compare", "--gate", base, down1}, exitTooFew, nothing},
		{[]string{"compare", "--gate", base, base}, exitOK, ""},
	}
	for _, tt := range tests {
		_, stderr, code := cli(tt.args...)
		if code != tt.code || !strings.Contains(stderr, tt.stderr) || strings.Contains(stderr, "gate passed") {
			t.Errorf("mcpeval %s: exit %d, stderr %q; want exit %d and %q", strings.Join(tt.args, " "), code, stderr, tt.code, tt.stderr)
		}
		if tt.code == exitTooFew && !strings.Contains(stderr, "gate cannot pass: too few graded attempts to judge") {
			t.Errorf("mcpeval %s: stderr %q does not say the gate cannot pass", strings.Join(tt.args, " "), stderr)
		}
	}

	// Three of ten attempts refused (30%): too many errors for the default
	// 20%, enough graded attempts for a gate that accepts half.
	serve(refuse[:3])
	_, stderr, code = cli(append(openai, "--out", filepath.Join(dir, "p1"), "--min-pass", "0.5")...)
	if code != exitTooFew || !strings.Contains(stderr, "3 of 10 attempts ended in an error (30%; provider 3), more than the 20% a gate accepts") {
		t.Errorf("30%% errors under the default share: exit %d, stderr %q", code, stderr)
	}
	serve(refuse[:3])
	_, stderr, code = cli(append(openai, "--out", filepath.Join(dir, "p2"), "--min-pass", "0.5", "--max-error-rate", "0.5")...)
	if code != exitOK || !strings.Contains(stderr, "gate passed") {
		t.Errorf("30%% errors with --max-error-rate 0.5: exit %d, stderr %q", code, stderr)
	}
	_, stderr, code = cli(append(openai, "--out", filepath.Join(dir, "p3"), "--max-error-rate", "0")...)
	if code != exitUsage || !strings.Contains(stderr, "--max-error-rate 0: want a fraction above 0 and at most 1") {
		t.Errorf("--max-error-rate 0: exit %d, stderr %q", code, stderr)
	}
}

// TestGateSummaryOnAnUnfinishedRun: when the run itself fails (here its
// preflight finds the data drifted, exit 3), the gates are never checked,
// and the Markdown summary says so instead of "Gate passed".
func TestGateSummaryOnAnUnfinishedRun(t *testing.T) {
	drifted := strings.Replace(gateSuite, "attempts: 5\n", "attempts: 5\npreflight:\n  - tool: get_net_worth\n    expect: {net_worth_sgd: 1}\n", 1)
	dir := writeFiles(t, map[string]string{"suite.yaml": drifted})
	summary := filepath.Join(dir, "summary.md")
	_, stderr, code := cli("run", "--suite", filepath.Join(dir, "suite.yaml"), "--out", filepath.Join(dir, "run"), "--quiet", "--min-pass", "0.9", "--summary", summary)
	if code != exitInvalid {
		t.Fatalf("exit %d, want %d: %s", code, exitInvalid, stderr)
	}
	b, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "Gate passed") || !strings.Contains(string(b), "**Gate not checked:** the run did not finish as planned") {
		t.Errorf("summary of an invalid run under --min-pass:\n%s", b)
	}
}
