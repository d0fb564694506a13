package report

import (
	"strings"
	"testing"
)

// TestToolErrorsColumn checks that the tool errors the cases did not
// expect are a column of every report: per case, per group and in total,
// in text, Markdown and JSON.
func TestToolErrorsColumn(t *testing.T) {
	res, h := graded(t, "record")
	// Two unexpected tool errors on the first case, as grading counts them.
	res.Cases[0].ToolErrors, res.Groups[0].ToolErrors, res.Totals.ToolErrors = 2, 2, 2
	res.Attempts[0].ToolErrors = 2
	r := render(t, res, h, "record.jsonl", nil)
	for _, want := range []string{
		"95% CI        tool errors  notes",
		"single-tool                       4/5    80%  [38%, 96%]              2  1 error",
		"  single-tool/net-worth           2/3    67%  [21%, 94%]              2  ~ inconsistent",
		"total                            5/10    50%  [24%, 76%]              2  2 errors",
	} {
		if !strings.Contains(r.text, want) {
			t.Errorf("text report lacks %q:\n%s", want, r.text)
		}
	}
	for _, want := range []string{"| Case | Passed | Rate | 95% CI | Tool errors | Notes |", "| single-tool/net-worth | 2/3 | 67% | 21%–94% | 2 |", "| **total** | 5/10 | 50% | 24%–76% | 2 |"} {
		if !strings.Contains(r.md, want) {
			t.Errorf("Markdown report lacks %q:\n%s", want, r.md)
		}
	}
	if n := strings.Count(r.js, `"tool_errors": 2`); n != 4 {
		t.Errorf("JSON report has %d counts of 2 tool errors, want 4 (attempt, case, group, total):\n%s", n, r.js)
	}
}
