package publish

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/grade/actions"
)

func col(num, den int) actions.Column { return actions.Column{Num: num, Den: den} }

// publishWithActions goes through Publish's steps for the test run with
// action columns added to its grades, as a suite with action cases gives
// them, and writes the files.
func publishWithActions(t *testing.T, e *env) {
	t.Helper()
	p, err := load(e.rec, e.opts.withDefaults())
	if err != nil {
		t.Fatal(err)
	}
	p.in.res.Actions = &actions.Report{Models: []actions.Row{{Model: "m", Scored: 10, Excluded: map[string]int{"provider": 1},
		Columns: actions.Columns{Pass: col(7, 10), Reached: col(18, 20), FirstTime: col(15, 18), Arguments: col(30, 31),
			Confirmation: col(4, 5), Clean: col(9, 10), Declined: col(0, 0), Completion: col(10, 10)}}}}
	row := makeRow(e.rec, p.in.res, p.rv)
	if refusals, _ := checkRules(p.in, false); len(refusals) > 0 {
		t.Fatalf("refused: %v", refusals)
	}
	files, err := p.render(fold(p.in.ledger, row, false))
	if err != nil {
		t.Fatal(err)
	}
	if leaks := findLeaks(p.red, files); len(leaks) > 0 {
		t.Fatalf("leaks: %v", leaks)
	}
	if _, err := writeFiles(files); err != nil {
		t.Fatal(err)
	}
}

// TestLedgerActions publishes a run with action columns: the ledger row
// carries each column with its rate and n, the ledger page and the run
// page show them, Check agrees, and catches an edited column.
func TestLedgerActions(t *testing.T) {
	e := setup(t, "testdata/suite.yaml")
	publishWithActions(t, e)
	l, err := ReadLedger(e.opts.Ledger)
	if err != nil || len(l.Rows) != 1 {
		t.Fatalf("ledger: %v, %+v", err, l)
	}
	a := l.Rows[0].Actions
	if a == nil || a.Scored != 10 || a.Excluded != 1 || len(a.Columns) != 8 {
		t.Fatalf("row actions %+v", a)
	}
	if c := a.Columns[2]; c.Column != "first_time" || c.Num != 15 || c.Den != 18 || c.WilsonLow < 0.6 || c.WilsonHigh > 0.95 {
		t.Errorf("first time column %+v", c)
	}
	if probs, err := Check(e.opts.Ledger, e.opts.Site); err != nil || len(probs) > 0 {
		t.Fatalf("Check: %v %q", err, probs)
	}
	index, _ := os.ReadFile(filepath.Join(e.opts.Site, "index.html"))
	key := l.Rows[0].Key()
	for _, want := range []string{`data-check="` + key + `|action-first_time">83% 15/18<`, `data-check="` + key + `|action-declined">—<`} {
		if !strings.Contains(string(index), want) {
			t.Errorf("the ledger page lacks %s", want)
		}
	}

	// An edited column disagrees with its own rate and with both pages.
	a.Columns[2].Num = 16
	b, _ := l.Encode()
	os.WriteFile(e.opts.Ledger, b, 0o644)
	probs, _ := Check(e.opts.Ledger, e.opts.Site)
	all := strings.Join(probs, "\n")
	for _, want := range []string{"action column first_time: rate 0.8333", "index.html: row " + key + ": action-first_time: the page says 83% 15/18", ".html: action-first_time: the page says 83% 15/18"} {
		if !strings.Contains(all, want) {
			t.Errorf("Check misses %q in:\n%s", want, all)
		}
	}
}

// TestOldLedgerReadable reads a ledger written before rows carried action
// columns, folds a run into it, and checks the old row keeps none.
func TestOldLedgerReadable(t *testing.T) {
	e := setup(t, "testdata/suite.yaml")
	old := `{"format": "` + Format + `", "rows": [{"model": {"spec": "anthropic:old", "provider": "anthropic", "name": "old", "options": {}},
 "target": {"spec": "builtin:household", "tools_hash": "h", "tools": 4, "read_only": true},
 "suite": {"name": "report-test", "hash": "s", "cases": 4}, "tool": {"name": "mcpeval", "version": "0.1", "commit": "c"},
 "run_id": "old", "date": "2026-09-01", "attempts": 2,
 "as_graded": {"passed": 1, "failed": 1, "errors": 0, "graded": 2, "rate": 0.5, "wilson_low": 0.09453120573177604, "wilson_high": 0.9054687942682239},
 "after_review": {"passed": 1, "failed": 1, "errors": 0, "graded": 2, "rate": 0.5, "wilson_low": 0.09453120573177604, "wilson_high": 0.9054687942682239},
 "reviews": {"model_failure": 0, "grader_false_fail": 0, "expectation_in_question": 0, "unreviewed": 1}}]}`
	os.WriteFile(e.opts.Ledger, []byte(old), 0o644)
	l, err := ReadLedger(e.opts.Ledger)
	if err != nil || len(l.Rows) != 1 || l.Rows[0].Actions != nil {
		t.Fatalf("an old ledger: %v, %+v", err, l)
	}
	publishWithActions(t, e)
	l, err = ReadLedger(e.opts.Ledger)
	if err != nil || len(l.Rows) != 2 {
		t.Fatalf("after publishing: %v, %+v", err, l)
	}
	if probs, err := Check(e.opts.Ledger, e.opts.Site); err != nil || len(probs) > 0 {
		t.Errorf("Check: %v %q", err, probs)
	}
	b, _ := os.ReadFile(e.opts.Ledger)
	if n := strings.Count(string(b), `"actions"`); n != 1 {
		t.Errorf("%d rows with action columns, want 1 (the old row has none)", n)
	}
}
