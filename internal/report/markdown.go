package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/report/format"
	"github.com/mcpeval/mcpeval/internal/usage"
	"github.com/mcpeval/mcpeval/record"
)

// Markdown writes res for a pull request: a headline rate with its
// interval, a table per group and case, and the failures folded away
// under a details element, and the run's cost. h and cost may be nil;
// opts add to it (WithAgreement).
func Markdown(w io.Writer, res *grade.Result, h *record.Header, cost *usage.Cost, opts ...Option) error {
	o := collect(opts)
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "### mcpeval run %s\n\n", format.CodeSpan(res.RunID))
	var prov strings.Builder
	provenance(&prov, res, h, "")
	fmt.Fprint(bw, format.CodeBlock(prov.String()), "\n") // a model spec or a path may hold backticks
	if !res.Valid {
		fmt.Fprintf(bw, "**Invalid run:** %s\n", mdText(res.Invalid))
		mdWarnings(bw, res)
		return bw.Flush()
	}
	t := res.Totals
	total := format.Counts(t.Counts)
	fmt.Fprintf(bw, "**%s passed** (%d of %d graded, 95%% CI %s)", total.Percent(), t.Passed, t.Graded, total.Range())
	if t.Errors > 0 {
		fmt.Fprintf(bw, "; %s left out (%s)", format.N(t.Errors, "error"), kindList(t.ErrorKinds))
	}
	fmt.Fprint(bw, ".\n\n")
	if cost != nil {
		fmt.Fprintf(bw, "**Cost:** %s.", mdText(cost.Line()))
		if src := cost.Source(); src != "" {
			fmt.Fprintf(bw, " <sub>%s</sub>", mdText(src))
		}
		if cost.Note != "" {
			fmt.Fprintf(bw, " %s.", mdText(cost.Note))
		}
		fmt.Fprint(bw, "\n\n")
	}
	fmt.Fprintln(bw, "| Case | Passed | Rate | 95% CI | Tool errors | Notes |")
	fmt.Fprintln(bw, "|---|---:|---:|---|---:|---|")
	for _, r := range tableRows(res) {
		name := mdText(strings.TrimSpace(r.name))
		if !strings.HasPrefix(r.name, "  ") {
			name = "**" + name + "**"
		}
		f := format.Counts(r.c)
		fmt.Fprintf(bw, "| %s | %s | %s | %s | %d | %s |\n", name, f.Count(), f.Percent(), f.Range(), r.c.ToolErrors, mdText(strings.Join(r.notes, ", ")))
	}
	judgedMarkdown(bw, res, o.agreement)
	if l := ResourceReadsLine(res.ResourceReads); l != "" {
		fmt.Fprintf(bw, "\n%s\n", mdText(l))
	}
	actionsMarkdown(bw, res.Actions)
	confusionMarkdown(bw, res.Confusion)
	var fails []grade.AttemptGrade
	for _, a := range res.Attempts {
		if a.Outcome == grade.Fail {
			fails = append(fails, a)
		}
	}
	if len(fails) > 0 {
		fmt.Fprintf(bw, "\n<details><summary>Failures (%d)</summary>\n\n", len(fails))
		for _, a := range fails {
			fmt.Fprintf(bw, "- %s #%d\n", format.CodeSpan(a.Case), a.N)
			for _, r := range a.Reasons {
				fmt.Fprintf(bw, "  - **%s**: %s\n", mdText(r.Check), mdText(r.Message))
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
				fmt.Fprintf(bw, "- %s #%d: %s\n", format.CodeSpan(a.Case), a.N, mdText(msg))
			}
		}
		fmt.Fprint(bw, "\n</details>\n")
	}
	markdownTranscripts(bw, res, o.transcripts)
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
func mdText(s string) string { return format.Markdown(s) }
