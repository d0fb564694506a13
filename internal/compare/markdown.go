package compare

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mcpeval/mcpeval/internal/report/format"
	"github.com/mcpeval/mcpeval/internal/termsafe"
)

// Markdown writes c for a pull-request comment or a GitHub step summary:
// a headline (regressed, improved or no significant movement), what
// changed with the tool diff folded away, and the table of what moved.
func Markdown(w io.Writer, c *Comparison) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "### mcpeval compare: `%s` → `%s`\n\n", mdCode(c.Base.RunID), mdCode(c.New.RunID))
	fmt.Fprintf(bw, "Base **%s**%s, new **%s**%s.\n\n", mdText(c.Base.Model), mdSurface(c.Base), mdText(c.New.Model), mdSurface(c.New))
	if cl := c.costLine(); cl != "" {
		fmt.Fprintf(bw, "**Cost:** %s.\n\n", mdText(cl))
	}
	regs := c.Regressions()
	actRegs := c.ActionRegressions()
	switch {
	case !c.Comparable:
		fmt.Fprint(bw, "**Nothing to compare:** a run is invalid (see the warnings).\n\n")
	case len(regs)+len(actRegs) > 0:
		fmt.Fprintf(bw, "**Regressed** (significant at α = %g):\n\n", c.Alpha)
		for _, r := range regs {
			fmt.Fprintf(bw, "- %s\n", mdText(r.Describe()))
		}
		for _, r := range actRegs {
			fmt.Fprintf(bw, "- %s\n", mdText(r.Describe()))
		}
		fmt.Fprintln(bw)
	case c.moved():
		fmt.Fprintf(bw, "**Improved** (significant at α = %g), no significant regression.\n\n", c.Alpha)
	default:
		fmt.Fprintf(bw, "**No significant movement** at α = %g.\n\n", c.Alpha)
	}

	fmt.Fprintln(bw, "#### What changed")
	fmt.Fprintln(bw)
	if !c.HasChanges() {
		fmt.Fprint(bw, "Nothing: same model, options, system prompt, tools, suite, cases and attempts.\n\n")
	} else {
		fmt.Fprintln(bw, "| | Base | New |")
		fmt.Fprintln(bw, "|---|---|---|")
		for _, ch := range c.Changes {
			b, n := describeChange(ch)
			fmt.Fprintf(bw, "| %s | %s | %s |\n", mdText(ch.What), mdText(b), mdText(n))
		}
		fmt.Fprintln(bw)
		mdToolDiff(bw, "Tool definitions shown to the model", c.Tools, c.OverlayOnly)
		mdToolDiff(bw, "Tool definitions as the servers listed them", c.ServerTools, false)
		if len(c.CasesAdded)+len(c.CasesRemoved) > 0 {
			fmt.Fprintf(bw, "<details><summary>Cases: %d added, %d removed</summary>\n\n```diff\n", len(c.CasesAdded), len(c.CasesRemoved))
			for _, id := range c.CasesAdded {
				fmt.Fprintf(bw, "+ %s\n", fence(id))
			}
			for _, id := range c.CasesRemoved {
				fmt.Fprintf(bw, "- %s\n", fence(id))
			}
			fmt.Fprint(bw, "```\n\n</details>\n\n")
		}
	}

	if c.Comparable {
		fmt.Fprintln(bw, "#### What moved")
		fmt.Fprintln(bw)
		fmt.Fprintln(bw, "| | Base | New | Δ | p | Tool errors | |")
		fmt.Fprintln(bw, "|---|---:|---:|---:|---:|---:|---|")
		for _, r := range c.Rows() {
			name := mdText(r.Name)
			if r.Kind != "case" {
				name = "**" + name + "**"
			} else {
				name = "&nbsp;&nbsp;" + name
			}
			fmt.Fprintf(bw, "| %s | %s | %s | %s | %s | %s | %s |\n", name, mdSide(r.Base), mdSide(r.New), deltaCell(r.Movement), pCell(r.Base, r.New, r.P), toolErrorsCell(r), mdText(strings.Join(notes(r), ", ")))
		}
		mdActions(bw, c)
		fmt.Fprintf(bw, "\np: %s; errors are left out. ~: no significant difference at α = %g.", c.Test, c.Alpha)
		if n, minP := c.Underpowered(); n > 0 {
			fmt.Fprintf(bw, " %s had too few attempts for any change to be significant (smallest possible p %s).", format.N(n, "case"), FormatP(minP))
		}
		fmt.Fprintln(bw)
		mdConfusions(bw, c)
		if inc := c.NewlyInconsistent(); len(inc) > 0 {
			fmt.Fprintf(bw, "\n**Became inconsistent:** ")
			var parts []string
			for _, r := range inc {
				parts = append(parts, fmt.Sprintf("`%s` (%d/%d → %d/%d)", mdCode(r.Name), r.Base.Passed, r.Base.Graded, r.New.Passed, r.New.Graded))
			}
			fmt.Fprintln(bw, strings.Join(parts, ", "))
		}
	}
	if len(c.Warnings) > 0 {
		fmt.Fprintln(bw, "\n<details><summary>Warnings</summary>")
		fmt.Fprintln(bw)
		for _, s := range c.Warnings {
			fmt.Fprintf(bw, "- %s\n", mdText(s))
		}
		fmt.Fprintln(bw, "\n</details>")
	}
	return bw.Flush()
}

func mdToolDiff(w io.Writer, title string, diffs []ToolDiff, overlayOnly bool) {
	if len(diffs) == 0 {
		return
	}
	verb := "differ"
	if len(diffs) == 1 {
		verb = "differs"
	}
	fmt.Fprintf(w, "<details><summary>%s: %s %s</summary>\n\n", title, format.N(len(diffs), "tool"), verb)
	if overlayOnly {
		fmt.Fprint(w, "The servers listed the same definitions: the overlay made the difference.\n\n")
	}
	fmt.Fprintln(w, "```diff")
	for _, d := range diffs {
		switch d.Kind {
		case "added":
			fmt.Fprintf(w, "+ %s (added)\n", fence(d.Tool))
		case "removed":
			fmt.Fprintf(w, "- %s (removed)\n", fence(d.Tool))
		default:
			fmt.Fprintf(w, "@@ %s @@\n", fence(d.Tool))
			for _, f := range d.Fields {
				fmt.Fprintf(w, "  %s\n", fence(f.Field))
				if f.Base != "" {
					fmt.Fprintf(w, "- %s\n", fence(f.Base))
				}
				if f.New != "" {
					fmt.Fprintf(w, "+ %s\n", fence(f.New))
				}
			}
		}
	}
	fmt.Fprint(w, "```\n\n</details>\n\n")
}

func mdSide(s Side) string {
	if !s.Present {
		return format.None
	}
	if s.Graded == 0 {
		return format.None + " (n=0)"
	}
	f := format.Counts(s.Counts)
	return f.Percent() + " " + f.Range() + " n=" + strconv.Itoa(s.Graded)
}

// mdText makes text safe in a Markdown table cell or paragraph: no HTML,
// no table breaks, no links or images, one line.
func mdText(s string) string { return format.Markdown(s) }

// mdCode makes text safe inside a code span.
func mdCode(s string) string { return format.MarkdownCode(s) }

// mdActions writes what moved in the action columns as a table: each
// column over every action case, then per kind.
func mdActions(w io.Writer, c *Comparison) {
	if len(c.Actions) == 0 {
		return
	}
	fmt.Fprint(w, "\n#### What moved in the action columns\n\nEach column is scored of counted; the same test as above.\n\n")
	fmt.Fprintln(w, "| | Base | New | Δ | p | |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---|")
	scope := "\x00"
	for _, r := range c.Actions {
		if r.Scope() != scope {
			scope = r.Scope()
			fmt.Fprintf(w, "| **%s** | | | | | |\n", mdText(scope))
		}
		var note string
		switch r.Verdict {
		case Regressed, Improved, Added, Removed:
			note = r.Verdict
		}
		fmt.Fprintf(w, "| &nbsp;&nbsp;%s | %s | %s | %s | %s | %s |\n", mdText(r.Name), mdSide(r.Base), mdSide(r.New), deltaCell(r.Movement), pCell(r.Base, r.New, r.P), note)
	}
}

// fence makes text safe on one line of a fenced code block.
func fence(s string) string {
	return strings.NewReplacer("\n", `\n`, "\r", `\r`, "```", "'''").Replace(termsafe.Line(s))
}
