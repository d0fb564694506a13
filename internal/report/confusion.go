package report

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/report/format"
	"github.com/mcpeval/mcpeval/internal/termsafe"
)

// TopConfusions is how many confusions the reports name, the most
// frequent first.
const TopConfusions = 5

// descLimit is how many characters of a tool's description a report
// quotes.
const descLimit = 160

// Description returns tool's description as the confusion recorded it,
// on one line and cut to a length a report can quote; "(no description)"
// when the tool listing lacked it.
func Description(c *grade.Confusion, tool string) string {
	d, ok := c.Tools[tool]
	if !ok || strings.TrimSpace(d) == "" {
		return "(no description)"
	}
	d = strings.Join(strings.Fields(d), " ")
	if utf8.RuneCountInString(d) > descLimit {
		d = string([]rune(d)[:descLimit-1]) + "…"
	}
	return d
}

// ConfusionLine says one confusion for people: how many of the key's
// calls of the wanted tool went to the other one.
func ConfusionLine(c *grade.Confusion, cell grade.ConfusionCell) string {
	list := attemptList(cell.Attempts)
	if cell.More > 0 {
		list += fmt.Sprintf("; and %d more", cell.More)
	}
	return fmt.Sprintf("%d of %d key calls of %s went to %s (%s)", cell.Count, grade.Total(c.Calls, cell.Wanted), cell.Wanted, cell.Called, list)
}

// attemptList names attempts as "case #1, #2; other #1".
func attemptList(as []grade.AttemptRef) string {
	var b strings.Builder
	for i, a := range as {
		switch {
		case i == 0:
			fmt.Fprintf(&b, "%s #%d", a.Case, a.N)
		case as[i-1].Case == a.Case:
			fmt.Fprintf(&b, ", #%d", a.N)
		default:
			fmt.Fprintf(&b, "; %s #%d", a.Case, a.N)
		}
	}
	return b.String()
}

// confusionText writes the run's top confusions for a terminal, each with
// the two tools' descriptions one above the other; nothing when the
// model never called another tool than the key's.
func confusionText(w io.Writer, c *grade.Confusion) {
	top := c.Top(TopConfusions)
	if len(top) == 0 {
		return
	}
	fmt.Fprintf(w, "\nTool confusion (key calls the model made to another tool, the most frequent first):\n")
	for _, cell := range top {
		fmt.Fprintf(w, "  %s\n", termsafe.Line(ConfusionLine(c, cell)))
		fmt.Fprintf(w, "    wanted %s: %s\n", termsafe.Line(cell.Wanted), termsafe.Line(Description(c, cell.Wanted)))
		fmt.Fprintf(w, "    called %s: %s\n", termsafe.Line(cell.Called), termsafe.Line(Description(c, cell.Called)))
	}
}

// confusionMarkdown writes the run's top confusions as a table, the two
// tools' descriptions side by side; nothing when there is none.
func confusionMarkdown(w io.Writer, c *grade.Confusion) {
	top := c.Top(TopConfusions)
	if len(top) == 0 {
		return
	}
	fmt.Fprint(w, "\n**Tool confusion** (key calls the model made to another tool):\n\n")
	fmt.Fprintln(w, "| Wanted | Called instead | Key calls | Wanted tool's description | Called tool's description |")
	fmt.Fprintln(w, "|---|---|---:|---|---|")
	for _, cell := range top {
		fmt.Fprintf(w, "| %s | %s | %d of %d | %s | %s |\n", format.CodeSpanCell(cell.Wanted), format.CodeSpanCell(cell.Called),
			cell.Count, grade.Total(c.Calls, cell.Wanted), mdText(Description(c, cell.Wanted)), mdText(Description(c, cell.Called)))
	}
}
