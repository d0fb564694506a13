package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/termsafe"
	"github.com/mcpeval/mcpeval/record"
)

// Markdown writes res for a pull request: a headline rate with its
// interval, a table per group and case, and the failures folded away
// under a details element. h may be nil.
func Markdown(w io.Writer, res *grade.Result, h *record.Header) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "### mcpeval run `%s`\n\n", res.RunID)
	fmt.Fprintln(bw, "```")
	provenance(bw, res, h, "")
	fmt.Fprint(bw, "```\n\n")
	if !res.Valid {
		fmt.Fprintf(bw, "**Invalid run:** %s\n", mdText(res.Invalid))
		mdWarnings(bw, res)
		return bw.Flush()
	}
	t := res.Totals
	fmt.Fprintf(bw, "**%s passed** (%d of %d graded, 95%% CI %s–%s)", rate(t.Counts), t.Passed, t.Graded, pct(t.WilsonLow), pct(t.WilsonHigh))
	if t.Errors > 0 {
		fmt.Fprintf(bw, "; %d error%s left out (%s)", t.Errors, plural(t.Errors), kindList(t.ErrorKinds))
	}
	fmt.Fprint(bw, ".\n\n")
	fmt.Fprintln(bw, "| Case | Passed | Rate | 95% CI | Notes |")
	fmt.Fprintln(bw, "|---|---:|---:|---|---|")
	for _, r := range tableRows(res) {
		name := mdText(strings.TrimSpace(r.name))
		if !strings.HasPrefix(r.name, "  ") {
			name = "**" + name + "**"
		}
		fmt.Fprintf(bw, "| %s | %d/%d | %s | %s–%s | %s |\n", name, r.c.Passed, r.c.Graded, rate(r.c), pct(r.c.WilsonLow), pct(r.c.WilsonHigh), mdText(strings.Join(r.notes, ", ")))
	}
	var fails []grade.AttemptGrade
	for _, a := range res.Attempts {
		if a.Outcome == grade.Fail {
			fails = append(fails, a)
		}
	}
	if len(fails) > 0 {
		fmt.Fprintf(bw, "\n<details><summary>Failures (%d)</summary>\n\n", len(fails))
		for _, a := range fails {
			fmt.Fprintf(bw, "- `%s` #%d\n", a.Case, a.N)
			for _, r := range a.Reasons {
				fmt.Fprintf(bw, "  - **%s**: %s\n", r.Check, mdText(r.Message))
			}
		}
		fmt.Fprint(bw, "\n</details>\n")
	}
	if t.Errors > 0 {
		fmt.Fprintf(bw, "\n<details><summary>Errors (%d, left out of the rates)</summary>\n\n", t.Errors)
		for _, a := range res.Attempts {
			if a.Outcome == grade.Error {
				msg := a.ErrorKind
				if len(a.Reasons) > 0 {
					msg = a.Reasons[0].Message
				}
				fmt.Fprintf(bw, "- `%s` #%d: %s\n", a.Case, a.N, mdText(msg))
			}
		}
		fmt.Fprint(bw, "\n</details>\n")
	}
	mdWarnings(bw, res)
	return bw.Flush()
}

func mdWarnings(w io.Writer, res *grade.Result) {
	if len(res.Warnings) == 0 {
		return
	}
	fmt.Fprint(w, "\n**Warnings**\n\n")
	for _, s := range res.Warnings {
		fmt.Fprintf(w, "- %s\n", mdText(s))
	}
}

// mdText keeps text from breaking a table or turning into markup, or
// acting on a terminal that shows it.
func mdText(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "<", "&lt;", ">", "&gt;", "*", `\*`, "`", "'").Replace(termsafe.String(s))
}
