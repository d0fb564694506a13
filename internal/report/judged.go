package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/report/format"
	"github.com/mcpeval/mcpeval/internal/termsafe"
)

// judgedText writes the cases graded by a judge model (graded_by: judge)
// apart from the table above, whose total leaves them out: a line per
// case, their own total, then each of their attempts whose judge's asks
// split or gave no majority.
func judgedText(w io.Writer, res *grade.Result) {
	if res.Judged == nil {
		return
	}
	width := len("judged total")
	for _, c := range res.Cases {
		if c.Judged {
			width = max(width, len(termsafe.Line(c.ID))+2)
		}
	}
	fmt.Fprintf(w, "\njudged by a model (graded_by: judge): rates apart, not in the total above\n")
	line := func(cols ...any) {
		fmt.Fprintln(w, strings.TrimRight(fmt.Sprintf("%-*s  %7s  %5s  %-12s  %s", cols...), " "))
	}
	judged := map[string]bool{}
	for _, c := range res.Cases {
		if !c.Judged {
			continue
		}
		judged[c.ID] = true
		f := format.Counts(c.Counts)
		line(width, "  "+termsafe.Line(c.ID), f.Count(), f.Percent(), f.CI(), strings.Join(errorNote(c.Errors, nil), ", "))
	}
	f := format.Counts(*res.Judged)
	line(width, "judged total", f.Count(), f.Percent(), f.CI(), strings.Join(errorNote(res.Judged.Errors, nil), ", "))
	for _, a := range res.Attempts {
		if !judged[a.Case] {
			continue
		}
		switch j := a.Judged; {
		case a.ErrorKind == grade.ErrorNoVerdict && len(a.Reasons) > 0:
			fmt.Fprintf(w, "  %s #%d: %s\n", termsafe.Line(a.Case), a.N, termsafe.Line(a.Reasons[0].Message))
		case j != nil && j.Split():
			fmt.Fprintf(w, "  %s #%d: judge %s split (%s), majority %s\n", termsafe.Line(a.Case), a.N, termsafe.Line(j.Model), j.Tally(), j.Verdict)
		}
	}
}
