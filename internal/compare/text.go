package compare

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/mcpeval/mcpeval/internal/report/format"
	"github.com/mcpeval/mcpeval/internal/termsafe"
)

// Text writes c for a terminal: the two runs, what changed (with the
// per-tool diff), then a benchstat-like table of what moved (base rate
// [95% CI] n, new rate [95% CI] n, delta, p, the tool errors the cases did
// not expect base → new), and the regressions,
// improvements and newly inconsistent cases spelled out.
func Text(w io.Writer, c *Comparison) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "base  %s  %s%s  (%s)\n", termsafe.Line(c.Base.RunID), termsafe.Line(c.Base.Model), onSurface(c.Base), termsafe.Line(c.Base.Dir))
	fmt.Fprintf(bw, "new   %s  %s%s  (%s)\n", termsafe.Line(c.New.RunID), termsafe.Line(c.New.Model), onSurface(c.New), termsafe.Line(c.New.Dir))

	fmt.Fprintln(bw, "\nwhat changed")
	if !c.HasChanges() {
		fmt.Fprintln(bw, "  nothing: same model, options, system prompt, tools, suite, cases and attempts")
	}
	width := 0
	for _, ch := range c.Changes {
		width = max(width, len(ch.What))
	}
	for _, ch := range c.Changes {
		b, n := describeChange(ch)
		fmt.Fprintf(bw, "  %-*s  %s → %s\n", width, ch.What, termsafe.Line(b), termsafe.Line(n))
		switch ch.What {
		case "tools":
			toolDiffText(bw, c.Tools, "    ")
			if c.OverlayOnly {
				fmt.Fprintln(bw, "    (the servers listed the same definitions: the overlay made the difference)")
			}
		case "server tools":
			toolDiffText(bw, c.ServerTools, "    ")
		case "cases":
			for _, id := range c.CasesAdded {
				fmt.Fprintf(bw, "    + %s\n", termsafe.Line(id))
			}
			for _, id := range c.CasesRemoved {
				fmt.Fprintf(bw, "    - %s\n", termsafe.Line(id))
			}
		}
	}

	fmt.Fprintln(bw, "\nwhat moved")
	if !c.Comparable {
		fmt.Fprintln(bw, "  nothing can be compared: a run is invalid")
		textWarnings(bw, c)
		return bw.Flush()
	}
	rows := c.Rows()
	nameW := len("total")
	for _, r := range rows {
		nameW = max(nameW, len(rowName(r)))
	}
	line := func(name, base, nw, delta, p, toolErrs, note string) {
		fmt.Fprintln(bw, strings.TrimRight(fmt.Sprintf("%-*s  %-22s  %-22s  %7s  %7s  %11s  %s", nameW, name, base, nw, delta, p, toolErrs, note), " "))
	}
	line("", "base", "new", "", "", "tool errors", "")
	line("", "rate [95% CI]      n", "rate [95% CI]      n", "delta", "p", "base → new", "")
	for _, r := range rows {
		line(termsafe.Line(rowName(r)), sideCell(r.Base), sideCell(r.New), deltaCell(r.Movement), pCell(r.Base, r.New, r.P), toolErrorsCell(r), strings.Join(notes(r), ", "))
	}
	if cl := c.costLine(); cl != "" {
		fmt.Fprintf(bw, "\ncost  %s\n", cl)
	}
	actionsText(bw, c)
	fmt.Fprintf(bw, "\np: %s; errors are left out.\n", c.Test)
	fmt.Fprintf(bw, "~: no significant difference at alpha %g.\n", c.Alpha)
	if n, minP := c.Underpowered(); n > 0 {
		fmt.Fprintf(bw, "%s had too few attempts for any change to be significant (the smallest p possible was %s): read their groups and the total.\n", format.N(n, "case"), FormatP(minP))
	}
	list := func(title string, rows []Row, describe func(Row) string) {
		if len(rows) == 0 {
			return
		}
		fmt.Fprintf(bw, "\n%s\n", title)
		for _, r := range rows {
			fmt.Fprintf(bw, "  %s\n", termsafe.Line(describe(r)))
		}
	}
	list(fmt.Sprintf("regressed (significant at %g)", c.Alpha), c.Regressions(), Row.Describe)
	list(fmt.Sprintf("improved (significant at %g)", c.Alpha), c.Improvements(), Row.Describe)
	actionList := func(title string, rows []ActionRow) {
		if len(rows) == 0 {
			return
		}
		fmt.Fprintf(bw, "\n%s\n", title)
		for _, r := range rows {
			fmt.Fprintf(bw, "  %s\n", termsafe.Line(r.Describe()))
		}
	}
	actionList(fmt.Sprintf("action columns regressed (significant at %g)", c.Alpha), c.ActionRegressions())
	actionList(fmt.Sprintf("action columns improved (significant at %g)", c.Alpha), c.ActionImprovements())
	confusionText(bw, c)
	list("became inconsistent (some attempts pass, some fail)", c.NewlyInconsistent(), func(r Row) string {
		return fmt.Sprintf("%s: %d/%d → %d/%d passed", r.Name, r.Base.Passed, r.Base.Graded, r.New.Passed, r.New.Graded)
	})
	if !c.moved() {
		fmt.Fprintf(bw, "\nno significant movement at %g\n", c.Alpha)
	}
	textWarnings(bw, c)
	return bw.Flush()
}

func textWarnings(w io.Writer, c *Comparison) {
	if len(c.Warnings) == 0 {
		return
	}
	fmt.Fprintln(w, "\nwarnings")
	for _, s := range c.Warnings {
		fmt.Fprintf(w, "  %s\n", termsafe.Line(s))
	}
}

func toolDiffText(w io.Writer, diffs []ToolDiff, indent string) {
	for _, d := range diffs {
		switch d.Kind {
		case "added":
			fmt.Fprintf(w, "%s+ %s (added)\n", indent, termsafe.Line(d.Tool))
		case "removed":
			fmt.Fprintf(w, "%s- %s (removed)\n", indent, termsafe.Line(d.Tool))
		default:
			fmt.Fprintf(w, "%s%s\n", indent, termsafe.Line(d.Tool))
			for _, f := range d.Fields {
				fmt.Fprintf(w, "%s  %s\n", indent, termsafe.Line(f.Field))
				if f.Base != "" {
					fmt.Fprintf(w, "%s    - %s\n", indent, termsafe.Line(f.Base))
				}
				if f.New != "" {
					fmt.Fprintf(w, "%s    + %s\n", indent, termsafe.Line(f.New))
				}
			}
		}
	}
}

func rowName(r Row) string {
	if r.Kind == "case" {
		return "  " + r.Name
	}
	return r.Name
}

func sideCell(s Side) string {
	if !s.Present {
		return "—"
	}
	if s.Graded == 0 {
		return fmt.Sprintf("%-17s %3d", format.None, 0)
	}
	f := format.Counts(s.Counts)
	return fmt.Sprintf("%4s %-12s %3d", f.Percent(), f.CI(), s.Graded)
}

func deltaCell(m Movement) string {
	switch m.Verdict {
	case Regressed, Improved:
		return format.Points(m.Delta)
	case Noise:
		return "~"
	}
	return ""
}

func pCell(b, n Side, p float64) string {
	if b.Graded == 0 || n.Graded == 0 {
		return ""
	}
	return FormatP(p)
}

func notes(r Row) []string {
	var ns []string
	switch r.Verdict {
	case Regressed, Improved, Added, Removed:
		ns = append(ns, r.Verdict)
	}
	if r.BecameInconsistent {
		ns = append(ns, "became inconsistent")
	} else if r.Kind == "case" && r.New.Inconsistent {
		ns = append(ns, "inconsistent")
	}
	if r.Base.Errors > 0 || r.New.Errors > 0 {
		ns = append(ns, fmt.Sprintf("errors %d → %d", r.Base.Errors, r.New.Errors))
	}
	return ns
}

// actionsText writes what moved in the action columns: each column over
// every action case, then per kind, in the table's layout.
func actionsText(w io.Writer, c *Comparison) {
	if len(c.Actions) == 0 {
		return
	}
	nameW := len("all action cases")
	for _, r := range c.Actions {
		nameW = max(nameW, len(r.Scope()), 2+len(r.Name))
	}
	line := func(name, base, nw, delta, p, note string) {
		fmt.Fprintln(w, strings.TrimRight(fmt.Sprintf("%-*s  %-22s  %-22s  %7s  %7s  %s", nameW, name, base, nw, delta, p, note), " "))
	}
	fmt.Fprintln(w, "\naction columns (each: scored of counted)")
	line("", "base", "new", "", "", "")
	line("", "rate [95% CI]      n", "rate [95% CI]      n", "delta", "p", "")
	scope := "\x00"
	for _, r := range c.Actions {
		if r.Scope() != scope {
			scope = r.Scope()
			fmt.Fprintln(w, termsafe.Line(scope))
		}
		var note string
		switch r.Verdict {
		case Regressed, Improved, Added, Removed:
			note = r.Verdict
		}
		line("  "+r.Name, sideCell(r.Base), sideCell(r.New), deltaCell(r.Movement), pCell(r.Base, r.New, r.P), note)
	}
}

// moved reports whether anything moved significantly: a row, an action
// column or a tool confusion.
func (c *Comparison) moved() bool {
	return len(c.Regressions())+len(c.Improvements())+len(c.ActionRegressions())+len(c.ActionImprovements())+
		len(c.ConfusionsWith(Grew))+len(c.ConfusionsWith(Shrank)) > 0
}

// toolErrorsCell is a row's count of the tool errors its cases did not
// expect, base → new ("0 → 2"), with — for a side the run lacks.
func toolErrorsCell(r Row) string {
	side := func(s Side) string {
		if !s.Present {
			return format.None
		}
		return fmt.Sprint(s.ToolErrors)
	}
	return side(r.Base) + " → " + side(r.New)
}
