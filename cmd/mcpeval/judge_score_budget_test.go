package main

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/internal/testkit/wiremodel"
	"github.com/mcpeval/mcpeval/internal/usage"
	"github.com/mcpeval/mcpeval/suite"
)

const judgedSuite = `name: judged
target: builtin:household
attempts: 1
cases:
  - id: agent/summary
    prompt: Tell me how my money is doing.
    judge:
      rubric: Says what the net worth is, from the tool's figures.
      pass_when: The answer states a net worth.
    graded_by: judge
    key: {calls: [{tool: get_net_worth}], answer: "Your net worth is S$2,394,755."}
`

// TestScoreJudgeBudget: a paid judge on score, over the Anthropic wire
// format, is held to --budget-tokens: the first ask spends the budget, the
// other two are not made, the run says so, and usage.json has the judge's
// row with its priced tokens and the asks not made.
func TestScoreJudgeBudget(t *testing.T) {
	dir := writeFiles(t, map[string]string{"suite.yaml": judgedSuite})
	run := filepath.Join(dir, "r")
	if _, stderr, code := cli("run", "--suite", filepath.Join(dir, "suite.yaml"), "--out", run, "--quiet"); code != exitOK {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	// The judge is asked about the fake model's answer against the rubric.
	prompt := "<request>\nTell me how my money is doing.\n</request>\n\n<rubric>\nSays what the net worth is, from the tool's figures.\n</rubric>\n\n" +
		"<pass_when>\nThe answer states a net worth.\n</pass_when>\n\n<answer>\nYour net worth is S$2,394,755.\n</answer>"
	h := &wiremodel.Handler{API: wiremodel.Anthropic, APIKey: anthropicKey,
		Keys: map[string]suite.Key{prompt: {Answer: `{"verdict": "pass", "reason": "states it"}`}}}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	t.Setenv("ANTHROPIC_BASE_URL", srv.URL)
	t.Setenv("ANTHROPIC_API_KEY", anthropicKey)
	t.Setenv("MCPEVAL_SPEND", "")

	_, stderr, code := cli("score", run, "--judge", "anthropic:claude-haiku-4-5", "--spend", "--judge-asks", "3", "--budget-tokens", "1")
	if code != exitOK {
		t.Fatalf("score: exit %d: %s", code, stderr)
	}
	if want := "judge anthropic:claude-haiku-4-5 stopped: the run's budget is spent, so 2 of its asks were not made"; !strings.Contains(stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, stderr)
	}
	if h.Count() != 1 {
		t.Errorf("the judge was asked %d times, want once", h.Count())
	}
	b, err := os.ReadFile(filepath.Join(run, "usage.json"))
	if err != nil {
		t.Fatal(err)
	}
	var u usage.Summary
	if err := json.Unmarshal(b, &u); err != nil {
		t.Fatal(err)
	}
	if len(u.Judges) != 1 || u.Judges[0].Asks != 1 || u.Judges[0].NotAsked != 2 || u.Judges[0].Tokens.Billed() == 0 || u.Judges[0].CostUSD == nil || *u.Judges[0].CostUSD <= 0 {
		t.Fatalf("usage.json judges %+v: want one priced ask and two not made", u.Judges)
	}
	if u.Total.CostUSD == nil || *u.Total.CostUSD != *u.Judges[0].CostUSD || u.Total.Tokens != u.Judges[0].Tokens {
		t.Errorf("total %+v: want the judge's cost, the fake model's being none", u.Total)
	}

	// A dollar budget cannot hold a judge no table prices.
	_, stderr, code = cli("score", run, "--judge", "anthropic:no-such-judge", "--spend", "--budget-usd", "1")
	if code != exitUsage || !strings.Contains(stderr, "--budget-usd: judge anthropic:no-such-judge is not in the price table") {
		t.Errorf("exit %d: %s", code, stderr)
	}
}
