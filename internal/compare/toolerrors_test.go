package compare

import (
	"bytes"
	"testing"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/testkit/reporttest"
)

// TestToolErrorsMoved checks that a comparison shows the tool errors the
// cases did not expect on both sides, for the total, groups and cases.
func TestToolErrorsMoved(t *testing.T) {
	s := testSuite(3)
	base, nw := testRun(s, "base", allPass), testRun(s, "new", allPass)
	gb, gn := grade.Run(s, base), grade.Run(s, nw)
	gn.Totals.ToolErrors, gn.Groups[0].ToolErrors, gn.Cases[0].ToolErrors = 4, 4, 4
	c := Compare(base, nw, gb, gn)
	if c.Total.New.ToolErrors != 4 || c.Groups[0].New.ToolErrors != 4 || c.Cases[0].New.ToolErrors != 4 || c.Total.Base.ToolErrors != 0 {
		t.Errorf("total %+v, group %+v, case %+v: want 0 → 4", c.Total, c.Groups[0], c.Cases[0])
	}
	var text, md bytes.Buffer
	if err := Text(&text, c); err != nil {
		t.Fatal(err)
	}
	if err := Markdown(&md, c); err != nil {
		t.Fatal(err)
	}
	reporttest.Contains(t, "text comparison", text.String(), "tool errors", "1.000        0 → 4")
	reporttest.Contains(t, "Markdown comparison", md.String(), "| Tool errors |", "| 1.000 | 0 → 4 |")
}
