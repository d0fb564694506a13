package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/internal/pipeline"
	"github.com/mcpeval/mcpeval/internal/usage"
)

// TestJudgeStoppedIsSaid: when the run's budget stopped the judge, the
// run says how many of its asks were not made.
func TestJudgeStoppedIsSaid(t *testing.T) {
	var errb bytes.Buffer
	tellDisagreements(&env{stderr: &errb}, &pipeline.Graded{Judges: []usage.JudgeLine{{Model: "anthropic:judge", Asks: 3, NotAsked: 4}}})
	if want := "judge anthropic:judge stopped: the run's budget is spent, so 4 of its asks were not made"; !strings.Contains(errb.String(), want) {
		t.Errorf("stderr lacks %q:\n%s", want, errb.String())
	}
	errb.Reset()
	tellDisagreements(&env{stderr: &errb}, &pipeline.Graded{Judges: []usage.JudgeLine{{Model: "anthropic:judge", Asks: 3}}})
	if strings.Contains(errb.String(), "stopped") {
		t.Errorf("a judge the budget did not stop is said to be stopped:\n%s", errb.String())
	}
}

// TestDollarBudgetNeedsAPricedJudge: a dollar budget cannot hold a paid
// judge no price table lists; the run is refused before anything is sent.
func TestDollarBudgetNeedsAPricedJudge(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-test-not-a-key")
	_, errs, code := cli("run", "--model", "fake:perfect", "--judge", "anthropic:no-such-judge", "--spend", "--budget-usd", "1", "--out", t.TempDir()+"/r")
	if code != 2 || !strings.Contains(errs, "--budget-usd: judge anthropic:no-such-judge is not in the price table") {
		t.Errorf("exit %d, stderr:\n%s", code, errs)
	}
}
