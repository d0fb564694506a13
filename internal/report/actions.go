package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/mcpeval/mcpeval/grade/actions"
	"github.com/mcpeval/mcpeval/internal/report/format"
	"github.com/mcpeval/mcpeval/internal/termsafe"
)

// actionLine is one line of the action table: a model, or one of its
// kinds (indented under it).
type actionLine struct {
	name   string
	isKind bool
	cells  []string
}

// actionHead heads the action table's figures, as the Markdown table
// heads them; the text table writes them in lower case.
func actionHead() []string {
	h := append([]string{"Scored", "Pass", "95% CI"}, actions.ColumnNames[1:]...)
	return append(h, "Excluded")
}

// actionLines are the action table of rep: each model, then its kinds,
// as actions.Text lays them out. Every column is scored of counted; the
// pass column carries its rate and 95% interval.
// The pass interval is written by ci (format.Rate.CI or Range).
func actionLines(rep *actions.Report, ci func(format.Rate) string) []actionLine {
	var lines []actionLine
	for _, m := range rep.Models {
		lines = append(lines, actionLine{name: m.Model, cells: actionCells(m, ci)})
		for _, k := range rep.Kinds {
			if k.Model == m.Model {
				lines = append(lines, actionLine{name: k.Kind, isKind: true, cells: actionCells(k, ci)})
			}
		}
	}
	return lines
}

func actionCells(r actions.Row, ci func(format.Rate) string) []string {
	pass := format.Column(r.Columns.Pass)
	cells := []string{strconv.Itoa(r.Scored), pass.Cell(), ci(pass)}
	for _, c := range r.Columns.List()[1:] {
		cells = append(cells, columnCount(c))
	}
	ex := "0"
	if len(r.Excluded) > 0 {
		ex = format.Kinds(r.Excluded)
	}
	return append(cells, ex)
}

// columnCount writes an action column as scored of counted, None when
// nothing was counted (a kind the column does not apply to).
func columnCount(c actions.Column) string {
	if c.Den == 0 {
		return format.None
	}
	return format.Column(c).Count()
}

const actionNote = "each column: scored of counted; attempts ended by an error count in none"

// actionsText writes the action columns of rep for a terminal.
func actionsText(w io.Writer, rep *actions.Report) error {
	if !rep.HasAttempts() {
		return nil
	}
	fmt.Fprintf(w, "\naction scores (%s)\n", actionNote)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := strings.ReplaceAll(strings.ToLower(strings.Join(actionHead(), "\t")), "ci", "CI")
	fmt.Fprintln(tw, "model / kind\t"+head)
	for _, l := range actionLines(rep, format.Rate.CI) {
		name := termsafe.Line(l.name)
		if l.isKind {
			name = "  " + name
		}
		fmt.Fprintln(tw, name+"\t"+strings.Join(l.cells, "\t"))
	}
	return tw.Flush()
}

// actionsMarkdown writes the action columns of rep as a Markdown table.
func actionsMarkdown(w io.Writer, rep *actions.Report) {
	if !rep.HasAttempts() {
		return
	}
	head := actionHead()
	fmt.Fprintf(w, "\n#### Action scores\n\n%s.\n\n", strings.ToUpper(actionNote[:1])+actionNote[1:])
	fmt.Fprintf(w, "| Model / kind | %s |\n", strings.Join(head, " | "))
	fmt.Fprintf(w, "|---|%s\n", strings.Repeat("---:|", len(head)-1)+"---|")
	for _, l := range actionLines(rep, format.Rate.Range) {
		name := "**" + mdText(l.name) + "**"
		if l.isKind {
			name = "&nbsp;&nbsp;" + mdText(l.name)
		}
		cells := make([]string, len(l.cells))
		for i, c := range l.cells {
			cells[i] = mdText(c)
		}
		fmt.Fprintf(w, "| %s | %s |\n", name, strings.Join(cells, " | "))
	}
}
