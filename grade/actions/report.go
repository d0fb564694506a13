package actions

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/stats"
	"github.com/mcpeval/mcpeval/suite"
)

// ColumnKeys name the columns in the order of ColumnNames, as the JSON of
// Columns spells them: for machines, file formats and page attributes.
var ColumnKeys = []string{"pass", "reached", "first_time", "arguments", "confirmation", "clean", "declined", "completion"}

// Row is the columns of a set of attempts: one model's, one model's on
// one kind, or one model's on one case.
type Row struct {
	Model string `json:"model"`
	Kind  string `json:"kind,omitempty"`
	Case  string `json:"case,omitempty"`
	// Scored counts the attempts in the columns.
	Scored int `json:"scored"`
	// Excluded counts the attempts left out of every column, by the kind
	// of error that ended them.
	Excluded map[string]int `json:"excluded,omitempty"`
	Columns  Columns        `json:"columns"`
	// PassLow and PassHigh bound the pass rate with 95% confidence
	// (Wilson); [0, 1] when nothing was scored.
	PassLow  float64 `json:"pass_low"`
	PassHigh float64 `json:"pass_high"`
}

func (r *Row) add(res Result) {
	if res.Excluded != "" {
		if r.Excluded == nil {
			r.Excluded = map[string]int{}
		}
		r.Excluded[res.Excluded]++
		return
	}
	r.Scored++
	r.Columns.Add(res.Columns)
}

// Report is the action scores of one or more runs over a suite.
type Report struct {
	Suite string `json:"suite"`
	// Models, Kinds and Cases are the rows per model, per model and kind
	// (in the order of suite.Kinds), and per model and case (in suite
	// order).
	Models []Row `json:"models"`
	Kinds  []Row `json:"kinds"`
	Cases  []Row `json:"cases"`
	// Attempts are every attempt of an action case, scored.
	Attempts []Scored `json:"attempts"`
	// Warnings are things a reader should know (cases the suite no longer
	// has).
	Warnings []string `json:"warnings,omitempty"`
}

// HasAttempts reports whether r holds any attempt of an action case: a run
// that ran none has rows, all zero, that no table should show. A report
// read back without its attempts (a ledger's, a published page's) has
// them when a model's row counts any.
func (r *Report) HasAttempts() bool {
	if r == nil {
		return false
	}
	if len(r.Attempts) > 0 {
		return true
	}
	for _, m := range r.Models {
		if m.Scored > 0 || len(m.Excluded) > 0 {
			return true
		}
	}
	return false
}

// Scored is an attempt's result with the model that made it.
type Scored struct {
	Model string `json:"model"`
	Result
}

// Aggregator adds up the verdicts of a run's attempts of action cases,
// per model, per kind and per case: Run for each run, then Add for each
// of its attempts in record order, then Report. It reaches no verdict of
// its own: grade reaches each (Score, with what the answer tells folded
// in) and hands it here, so the columns agree with the case's verdict.
type Aggregator struct {
	s     *suite.Suite
	rep   *Report
	rows  map[[3]string]*Row // by model, kind and case: the model's row, a kind's, a case's
	order []string
}

// NewAggregator starts adding up verdicts over suite s.
func NewAggregator(s *suite.Suite) *Aggregator {
	return &Aggregator{s: s, rep: &Report{Suite: s.Name}, rows: map[[3]string]*Row{}}
}

// Run starts the run with header h: its model gets a row even when it has
// no action attempt. Add does it too.
func (ag *Aggregator) Run(h *record.Header) {
	m := h.Model.Spec
	if _, ok := ag.rows[[3]string{m}]; !ok {
		ag.rows[[3]string{m}] = &Row{Model: m}
		ag.order = append(ag.order, m)
	}
}

// Add adds res, the verdict of an attempt of the run with header h. An
// attempt of a case the suite no longer has is warned about; one of a
// case that is not an action case is left out.
func (ag *Aggregator) Add(h *record.Header, res Result) {
	ag.Run(h)
	m := h.Model.Spec
	c := ag.s.Case(res.Case)
	if c == nil {
		ag.rep.Warnings = append(ag.rep.Warnings, fmt.Sprintf("%s: attempt %s is of a case the suite no longer has", h.RunID, res.Key()))
		return
	}
	if c.Action == nil {
		return
	}
	ag.rep.Attempts = append(ag.rep.Attempts, Scored{Model: m, Result: res})
	for _, k := range [][3]string{{m}, {m, c.Action.Kind}, {m, c.Action.Kind, c.ID}} {
		if ag.rows[k] == nil {
			ag.rows[k] = &Row{Model: m, Kind: k[1], Case: k[2]}
		}
		ag.rows[k].add(res)
	}
}

// Report adds up what was added.
func (ag *Aggregator) Report() *Report {
	rep := ag.rep
	for _, m := range ag.order {
		rep.Models = append(rep.Models, finish(ag.rows[[3]string{m}]))
		for _, k := range suite.Kinds {
			if r := ag.rows[[3]string{m, k}]; r != nil {
				rep.Kinds = append(rep.Kinds, finish(r))
			}
		}
		for _, c := range ag.s.Cases {
			if c.Action == nil {
				continue
			}
			if r := ag.rows[[3]string{m, c.Action.Kind, c.ID}]; r != nil {
				rep.Cases = append(rep.Cases, finish(r))
			}
		}
	}
	return rep
}

func finish(r *Row) Row {
	r.PassLow, r.PassHigh = stats.Wilson(r.Columns.Pass.Num, r.Columns.Pass.Den)
	return *r
}

// JSON writes the report as indented JSON.
func JSON(w io.Writer, r *Report) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// Text writes the report as aligned tables for a terminal, then the
// reasons of every attempt that did not pass.
func Text(w io.Writer, r *Report) error {
	fmt.Fprintf(w, "Action scores, suite %s (each column: scored of counted; excluded attempts count in none)\n", r.Suite)
	for _, sec := range sections(r) {
		fmt.Fprintf(w, "\n%s\n", sec.title)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, strings.Join(sec.head, "\t"))
		for _, row := range sec.rows {
			fmt.Fprintln(tw, strings.Join(row, "\t"))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	writeFailures(w, r, "\n%s\n", "  %s\n")
	for _, warn := range r.Warnings {
		fmt.Fprintf(w, "warning: %s\n", warn)
	}
	return nil
}

// Markdown writes the report as Markdown tables.
func Markdown(w io.Writer, r *Report) error {
	fmt.Fprintf(w, "## Action scores: %s\n\nEach column is scored of counted; excluded attempts count in none.\n", r.Suite)
	for _, sec := range sections(r) {
		fmt.Fprintf(w, "\n### %s\n\n", sec.title)
		fmt.Fprintf(w, "| %s |\n", strings.Join(sec.head, " | "))
		seps := make([]string, len(sec.head))
		for i := range seps {
			seps[i] = "---"
		}
		fmt.Fprintf(w, "|%s|\n", strings.Join(seps, "|"))
		for _, row := range sec.rows {
			for i, c := range row {
				row[i] = strings.ReplaceAll(c, "|", `\|`)
			}
			fmt.Fprintf(w, "| %s |\n", strings.Join(row, " | "))
		}
	}
	writeFailures(w, r, "\n### %s\n\n", "- %s\n")
	for _, warn := range r.Warnings {
		fmt.Fprintf(w, "\n> warning: %s\n", warn)
	}
	return nil
}

type section struct {
	title string
	head  []string
	rows  [][]string
}

func sections(r *Report) []section {
	head := func(first ...string) []string {
		h := append(first, "Scored", "Pass", "Pass 95% CI")
		h = append(h, ColumnNames[1:]...)
		return append(h, "Excluded")
	}
	line := func(row Row, first ...string) []string {
		cells := append(first, fmt.Sprint(row.Scored), row.Columns.Pass.String(), fmt.Sprintf("[%.2f, %.2f]", row.PassLow, row.PassHigh))
		for _, c := range row.Columns.List()[1:] {
			cells = append(cells, c.String())
		}
		return append(cells, excluded(row.Excluded))
	}
	by := []section{{title: "By model", head: head("Model")}, {title: "By kind", head: head("Model", "Kind")}, {title: "By case", head: head("Model", "Case", "Kind")}}
	for _, row := range r.Models {
		by[0].rows = append(by[0].rows, line(row, row.Model))
	}
	for _, row := range r.Kinds {
		by[1].rows = append(by[1].rows, line(row, row.Model, row.Kind))
	}
	for _, row := range r.Cases {
		by[2].rows = append(by[2].rows, line(row, row.Model, row.Case, row.Kind))
	}
	return by
}

func excluded(m map[string]int) string {
	if len(m) == 0 {
		return "0"
	}
	kinds := slices.Sorted(maps.Keys(m))
	var parts []string
	for _, k := range kinds {
		parts = append(parts, fmt.Sprintf("%d %s", m[k], k))
	}
	return strings.Join(parts, ", ")
}

func writeFailures(w io.Writer, r *Report, titleF, lineF string) {
	var lines []string
	for _, a := range r.Attempts {
		if a.Pass || a.Excluded != "" {
			continue
		}
		lines = append(lines, fmt.Sprintf("%s %s: %s", a.Model, a.Key(), strings.Join(a.Reasons, "; ")))
	}
	if len(lines) == 0 {
		return
	}
	fmt.Fprintf(w, titleF, "Attempts that did not pass")
	for _, l := range lines {
		fmt.Fprintf(w, lineF, l)
	}
}
