package view

import (
	"strings"
	"testing"
)

// TestLadderCost: each model on the ladder shows its cost per success
// under its pass rate.
func TestLadderCost(t *testing.T) {
	root := standardRuns(t)
	_, ts := newTest(t, root)
	code, body, _ := get(t, ts.URL, "/ladder?run=new-run&run=base-run")
	if code != 200 {
		t.Fatalf("ladder: %d\n%s", code, body)
	}
	if n := strings.Count(body, `data-check="cost-success">$0 (fake) per success</div>`); n != 2 {
		t.Errorf("%d models show a cost per success, want 2:\n%s", n, body)
	}
}

// TestRunCost: a run's page says what it cost.
func TestRunCost(t *testing.T) {
	root := standardRuns(t)
	_, ts := newTest(t, root)
	code, body, _ := get(t, ts.URL, "/run/base-run")
	if code != 200 || !strings.Contains(body, `<h2>Cost</h2>`) || !strings.Contains(body, `data-check="cost-state">$0 (fake)`) {
		t.Errorf("run page (%d) shows no cost:\n%s", code, body)
	}
}
