package htmlreport

import (
	"strings"
	"testing"
)

// TestToolErrorsOnThePage checks that the run page counts the tool errors
// the cases did not expect, in total and per group and case.
func TestToolErrorsOnThePage(t *testing.T) {
	p := fixture(t)
	p.Result.Totals.ToolErrors = 3
	p.Result.Groups[0].ToolErrors = 3
	p.Result.Cases[0].ToolErrors = 3
	page := render(t, p)
	if got := checks(page)["tool-errors"]; got != "3" {
		t.Errorf("tool-errors: page says %q, want 3", got)
	}
	if !strings.Contains(page, ">tool errors</th>") {
		t.Error("the table has no tool errors column")
	}
	if n := strings.Count(page, `<td class="num">3</td>`); n != 2 {
		t.Errorf("%d cells of 3 tool errors, want 2 (the group's and the case's)", n)
	}
}
