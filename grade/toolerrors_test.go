package grade

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// TestUnexpectedToolErrors checks that a tool error a question case does
// not expect fails it, even when the model retried and then succeeded;
// that an error the case expects does not; that a rejected call counts as
// one; and that tool_errors: note only counts them.
func TestUnexpectedToolErrors(t *testing.T) {
	s := loadSearch(t)
	c := mustCase(t, s, "search/csv-files-checked")
	bad := searchCall
	bad.Args, bad.IsError, bad.Result = []byte(`{"pattern":"[*.csv"}`), true, "invalid pattern: [*.csv"
	right := "I found two: data.csv and sales 2026.csv."

	g := Attempt(s, c, searchHeader(), answered(c, right, searchCall))
	checkReasons(t, g, nil)
	if g.ToolErrors != 0 {
		t.Errorf("a clean attempt counts %d tool errors", g.ToolErrors)
	}
	// Retried and then succeeded: the error still fails the case.
	g = Attempt(s, c, searchHeader(), answered(c, right, bad, searchCall))
	checkReasons(t, g, []string{"tool_errors: call 1 (search_files) returned an error, and the case does not expect one (list the tool in expected_errors if the case provokes it, or set tool_errors: note): invalid pattern: [*.csv"})
	if g.ToolErrors != 1 {
		t.Errorf("tool errors %d, want 1", g.ToolErrors)
	}
	rejected := searchCall
	rejected.Rejected = "unknown argument glob"
	checkReasons(t, Attempt(s, c, searchHeader(), answered(c, right, rejected, searchCall)), []string{"tool_errors: call 1 (search_files) was rejected by the server"})

	// An error the case provokes on purpose neither fails nor counts.
	m := mustCase(t, s, "search/missing-file")
	refused := record.Call{ID: "1", Name: "read_file", Args: []byte(`{"path":"notes.txt"}`), Shown: true, IsError: true, Result: "ENOENT"}
	if g := Attempt(s, m, searchHeader(), answered(m, "The file notes.txt does not exist.", refused)); g.Outcome != Pass || g.ToolErrors != 0 {
		t.Errorf("an expected error: %s with %d tool errors%s", g.Outcome, g.ToolErrors, reasonsText(g.Reasons))
	}

	// tool_errors: note counts the error and passes the case.
	s.ToolErrors = "note"
	g = Attempt(s, c, searchHeader(), answered(c, right, bad, searchCall))
	checkReasons(t, g, nil)
	if g.ToolErrors != 1 {
		t.Errorf("with tool_errors: note: tool errors %d, want 1", g.ToolErrors)
	}

	// The count is kept per case and in the totals.
	s.ToolErrors = ""
	run := &record.Run{Header: *searchHeader(), Attempts: []record.Attempt{*answered(c, right, bad, searchCall), *answered(c, right, bad, bad, searchCall)}}
	run.Attempts[1].N = 2
	res := Run(s, run)
	if res.Totals.ToolErrors != 3 || res.Totals.Failed != 2 || len(res.Cases) != 1 || res.Cases[0].ToolErrors != 3 || res.Groups[0].ToolErrors != 3 {
		t.Errorf("totals %+v, cases %+v, groups %+v: want 3 tool errors and 2 failed", res.Totals, res.Cases, res.Groups)
	}
	if !strings.Contains(reasonsText(res.Attempts[1].Reasons), "call 2 (search_files)") {
		t.Errorf("second attempt's reasons:%s", reasonsText(res.Attempts[1].Reasons))
	}
}

// TestSuiteDocMessages checks that the failure messages docs/suite.md
// shows for a retried tool error and a claimed action are the ones
// grading gives, and that tool_errors: note passes the retry.
func TestSuiteDocMessages(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "suite.md"))
	if err != nil {
		t.Fatal(err)
	}
	s := loadSearch(t)
	c := &suite.Case{ID: "search/csv-files", Prompt: "Which CSV files are in the data folder?",
		Tools: suite.ToolRules{Required: []string{"search_files"}}, Answer: &suite.AnswerCheck{Contains: []string{"data.csv"}}}
	bad := searchCall
	bad.Args, bad.IsError, bad.Result = []byte(`{"pattern":"[*.csv"}`), true, "invalid pattern: [*.csv"
	g := Attempt(s, c, searchHeader(), answered(c, "data.csv", bad, searchCall))
	if len(g.Reasons) != 1 || !strings.Contains(string(doc), "\n"+g.Reasons[0].String()+"\n") {
		t.Errorf("docs/suite.md does not show the reason grading gives:%s", reasonsText(g.Reasons))
	}
	checkReasons(t, Attempt(s, c, searchHeader(), answered(c, "data.csv", searchCall)), nil)
	s.ToolErrors = suite.ToolErrorsNote
	checkReasons(t, Attempt(s, c, searchHeader(), answered(c, "data.csv", bad, searchCall)), nil)

	d := declineSuite(t, "")
	dc := mustCase(t, d, "decline/reset")
	g = Attempt(d, dc, nil, answered(dc, "I've reset the password for you."))
	if len(g.Reasons) != 1 || !strings.Contains(string(doc), "\n"+g.Reasons[0].String()+"\n") {
		t.Errorf("docs/suite.md does not show the reason grading gives:%s", reasonsText(g.Reasons))
	}
}
