package compare

import (
	"fmt"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/grade/actions"
	"github.com/mcpeval/mcpeval/internal/report/format"
	"github.com/mcpeval/mcpeval/suite"
)

// ActionRow is how one action column moved between the runs, over every
// action case or over one kind of them. Its sides count the column's
// items: Passed is what scored, Graded what was counted, Failed the rest.
type ActionRow struct {
	// Kind is the case kind the row covers ("write", "decline", ...); ""
	// for every action case.
	Kind string `json:"kind,omitempty"`
	// Column is the column's key (actions.ColumnKeys), Name its heading.
	Column string `json:"column"`
	Name   string `json:"name"`
	Base   Side   `json:"base"`
	New    Side   `json:"new"`
	Movement
}

func (r *ActionRow) mark(alpha float64) { r.Movement = move(r.Base, r.New, alpha) }

// Scope names what the row covers: "all action cases" or "kind write".
func (r ActionRow) Scope() string {
	if r.Kind == "" {
		return "all action cases"
	}
	return "kind " + r.Kind
}

// Describe writes the row for a person on one line: "action column First
// time, kind write: 100% (20/20) → 25% (5/20), p=2.3e-07".
func (r ActionRow) Describe() string {
	return fmt.Sprintf("action column %s, %s: %s (%s) → %s (%s), p=%s", r.Name, r.Scope(),
		format.Pct(r.Base.Rate), format.Counts(r.Base.Counts).Count(), format.Pct(r.New.Rate), format.Counts(r.New.Counts).Count(), FormatP(r.P))
}

// ActionRegressions returns the action columns that moved down
// significantly.
func (c *Comparison) ActionRegressions() []ActionRow { return c.actionsWith(Regressed) }

// ActionImprovements returns the action columns that moved up
// significantly.
func (c *Comparison) ActionImprovements() []ActionRow { return c.actionsWith(Improved) }

func (c *Comparison) actionsWith(verdict string) []ActionRow {
	var out []ActionRow
	for _, r := range c.Actions {
		if r.Verdict == verdict {
			out = append(out, r)
		}
	}
	return out
}

// actionScope is one run's columns over every action case, and per kind.
type actionScope struct {
	all    actions.Columns
	has    bool
	byKind map[string]actions.Columns
}

// scopes adds up rep's columns over its models: a comparison sets one
// run against another, whatever model each measured.
func scopes(rep *actions.Report) actionScope {
	s := actionScope{byKind: map[string]actions.Columns{}}
	if rep == nil {
		return s
	}
	for _, m := range rep.Models {
		s.all.Add(m.Columns)
		s.has = true
	}
	for _, k := range rep.Kinds {
		c := s.byKind[k.Kind]
		c.Add(k.Columns)
		s.byKind[k.Kind] = c
	}
	return s
}

// actionRows are the action columns of both runs side by side: every
// column over all action cases, then per kind in the order of
// suite.Kinds. A column neither run counted anything in is left out.
func actionRows(base, nw *actions.Report) []ActionRow {
	b, n := scopes(base), scopes(nw)
	if !b.has && !n.has {
		return nil
	}
	var rows []ActionRow
	add := func(kind string, bc, nc actions.Columns, bp, np bool) {
		bl, nl := bc.List(), nc.List()
		for i := range bl {
			if bl[i].Den == 0 && nl[i].Den == 0 {
				continue
			}
			rows = append(rows, ActionRow{Kind: kind, Column: actions.ColumnKeys[i], Name: actions.ColumnNames[i],
				Base: columnSide(bl[i], bp), New: columnSide(nl[i], np)})
		}
	}
	add("", b.all, n.all, b.has, n.has)
	for _, k := range suite.Kinds {
		bc, bok := b.byKind[k]
		nc, nok := n.byKind[k]
		if bok || nok {
			add(k, bc, nc, bok, nok)
		}
	}
	return rows
}

// columnSide reads an action column as a Side: scored of counted, with
// its rate and 95% interval.
func columnSide(c actions.Column, present bool) Side {
	r := format.Column(c)
	return Side{Present: present, Counts: grade.Counts{Passed: c.Num, Failed: c.Den - c.Num, Graded: c.Den, Rate: r.Value, WilsonLow: r.Low, WilsonHigh: r.High}}
}
