package compare

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/report/format"
	"github.com/mcpeval/mcpeval/internal/usage"
	"github.com/mcpeval/mcpeval/internal/usage/price"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/stats"
)

// DefaultAlpha is the significance level a Comparison starts with.
const DefaultAlpha = 0.05

// Test names the significance test, as reports say it.
const Test = "Fisher's exact test (two-sided) on passed vs failed attempts"

// Comparison is what changed between two runs and what moved.
type Comparison struct {
	Base RunInfo `json:"base"`
	New  RunInfo `json:"new"`
	// Changes are the differences in what was measured, in a fixed order
	// (model, options, system prompt, tools, overlay, suite, cases,
	// attempts, dataset, target, ...). Empty when the runs measured the
	// same thing.
	Changes []Change `json:"changes"`
	// Tools is the per-tool diff of the definitions the model was shown.
	Tools []ToolDiff `json:"tools,omitempty"`
	// ServerTools is the per-tool diff of the definitions as the servers
	// listed them, before any overlay; set when either run used an overlay
	// and the server's definitions differ.
	ServerTools []ToolDiff `json:"server_tools,omitempty"`
	// OverlayOnly is true when the shown tools differ but the servers
	// listed the same definitions: the overlay made the difference.
	OverlayOnly bool `json:"overlay_only,omitempty"`
	// CasesAdded and CasesRemoved are the cases only the new run, or only
	// the base run, planned.
	CasesAdded   []string `json:"cases_added,omitempty"`
	CasesRemoved []string `json:"cases_removed,omitempty"`

	// Test names the significance test; Alpha is its level.
	Test  string  `json:"test"`
	Alpha float64 `json:"alpha"`
	// Comparable is false when either run is invalid (its preflight
	// failed): then nothing moved, because nothing was graded.
	Comparable bool `json:"comparable"`
	// Total, Groups and Cases are what moved.
	Total  Row   `json:"total"`
	Groups []Row `json:"groups"`
	Cases  []Row `json:"cases"`
	// Actions are what moved in the action columns, over every action
	// case and then per kind: each column's rate base vs new, with the
	// same test. Empty when neither run has action cases.
	Actions []ActionRow `json:"actions,omitempty"`
	// Confusions are how the tool confusions either run made moved (see
	// ConfusionRow); empty when neither made any.
	Confusions []ConfusionRow `json:"confusions,omitempty"`
	// Warnings are things a reader should know (an unfinished run, a
	// suite changed since grading, ...).
	Warnings []string `json:"warnings,omitempty"`
	// Cost is what each run cost: per run, per attempt and per success.
	Cost Costs `json:"cost"`

	base, nw *record.Run
}

// Costs are the two runs' costs.
type Costs struct {
	Base *usage.Cost `json:"base"`
	New  *usage.Cost `json:"new"`
}

// RunInfo names one side of a comparison.
type RunInfo struct {
	RunID    string `json:"run_id"`
	Dir      string `json:"dir"`
	Model    string `json:"model"`
	Valid    bool   `json:"valid"`
	Complete bool   `json:"complete"`
	// Surface names the surface of the suite the run measured, if any.
	Surface string `json:"surface,omitempty"`
}

// Change is one difference in what the two runs measured.
type Change struct {
	// What names the difference: "model", "option effort", "system
	// prompt", "tools", ...
	What string `json:"what"`
	Base string `json:"base"`
	New  string `json:"new"`
}

// ToolDiff is how one tool's definition differs between the runs.
type ToolDiff struct {
	Tool string `json:"tool"`
	// Kind is "added", "removed" or "changed".
	Kind string `json:"kind"`
	// Fields are the changed fields of a changed tool: "description",
	// "title", "read_only", or a path into the input schema such as
	// "input_schema.properties.months.description".
	Fields []FieldDiff `json:"fields,omitempty"`
}

// FieldDiff is one changed field; an empty side means the field was not
// set there.
type FieldDiff struct {
	Field string `json:"field"`
	Base  string `json:"base"`
	New   string `json:"new"`
}

// Side is one run's counts in a row.
type Side struct {
	// Present is false when the run did not attempt the case (or group).
	Present bool `json:"present"`
	grade.Counts
	// Inconsistent is set on case rows whose attempts both passed and
	// failed.
	Inconsistent bool `json:"inconsistent,omitempty"`
}

// Row is one line of what moved: the total, a group or a case.
type Row struct {
	// Kind is "total", "group" or "case".
	Kind  string `json:"kind"`
	Name  string `json:"name"`
	Group string `json:"group,omitempty"`
	Base  Side   `json:"base"`
	New   Side   `json:"new"`
	Movement
	// BecameInconsistent marks a case that was consistent in the base run
	// and is inconsistent in the new one.
	BecameInconsistent bool `json:"became_inconsistent,omitempty"`
}

// Movement is how a rate moved between the two runs.
type Movement struct {
	// Delta is the new rate less the base rate, when both graded some
	// attempts.
	Delta float64 `json:"delta"`
	// P is the p-value of the test on the 2×2 table of passed and failed
	// attempts; 1 when either side graded nothing.
	P float64 `json:"p"`
	// MinP is the smallest p-value these numbers of attempts could give:
	// when it is not below Alpha, no change of this row can be significant.
	MinP float64 `json:"min_p"`
	// Significant is true when P is below the comparison's Alpha.
	Significant bool `json:"significant"`
	// Verdict is "regressed" or "improved" for a significant movement,
	// "~" for one within noise, "added" or "removed" for a row only one
	// run has, "" when neither graded anything.
	Verdict string `json:"verdict"`
}

// Verdicts of a row.
const (
	Regressed = "regressed"
	Improved  = "improved"
	Noise     = "~"
	Added     = "added"
	Removed   = "removed"
)

// Compare compares run nw, graded gn, with run base, graded gb. The grades
// should come from the same suite, so that the same grader judged both.
// The comparison starts at DefaultAlpha; SetAlpha changes it. The runs are
// priced from the attempts they hold (Price); a caller that read them as
// streams, without their attempts, sets Cost from the usage.Tally it fed
// them to, as report prices a run.
func Compare(base, nw *record.Run, gb, gn *grade.Result) *Comparison {
	c := &Comparison{
		Base:  info(base, gb),
		New:   info(nw, gn),
		Test:  Test,
		Alpha: DefaultAlpha,
	}
	c.changes(&base.Header, &nw.Header)
	for _, w := range gb.Warnings {
		c.Warnings = append(c.Warnings, "base: "+w)
	}
	for _, w := range gn.Warnings {
		c.Warnings = append(c.Warnings, "new: "+w)
	}
	c.Comparable = gb.Valid && gn.Valid
	if !gb.Valid {
		c.Warnings = append(c.Warnings, "the base run is invalid (its preflight failed), so nothing was graded and nothing can be compared: "+gb.Invalid)
	}
	if !gn.Valid {
		c.Warnings = append(c.Warnings, "the new run is invalid (its preflight failed), so nothing was graded and nothing can be compared: "+gn.Invalid)
	}
	c.Total = Row{Kind: "total", Name: "total",
		Base: Side{Present: gb.Valid, Counts: gb.Totals.Counts},
		New:  Side{Present: gn.Valid, Counts: gn.Totals.Counts}}
	if c.Comparable {
		c.rows(gb, gn)
		c.Actions = actionRows(gb.Actions, gn.Actions)
		c.Confusions = confusionRows(gb.Confusion, gn.Confusion)
	}
	c.SetAlpha(DefaultAlpha)
	c.base, c.nw = base, nw
	c.Price(nil)
	return c
}

// Price prices both runs with prices (nil: the built-in tables).
func (c *Comparison) Price(prices *price.Set) {
	c.Cost = Costs{Base: usage.NewCost(c.base, c.Total.Base.Passed, prices), New: usage.NewCost(c.nw, c.Total.New.Passed, prices)}
}

// costLine says the cost per success base → new, and per run.
func (c *Comparison) costLine() string {
	b, n := c.Cost.Base, c.Cost.New
	switch {
	case b == nil || n == nil:
		return ""
	case b.State == usage.Fake && n.State == usage.Fake:
		return "$0 (fake): both models are fakes"
	}
	return fmt.Sprintf("%s → %s per success (%s → %s per run)", b.PerSuccess(), n.PerSuccess(), b.Run(), n.Run())
}

func info(r *record.Run, g *grade.Result) RunInfo {
	ri := RunInfo{RunID: r.Header.RunID, Dir: r.Dir, Model: g.Model, Valid: g.Valid, Complete: r.Complete()}
	if r.Header.Surface != nil {
		ri.Surface = r.Header.Surface.Name
	}
	return ri
}

// rows builds the group and case rows: the new run's order first, then
// what only the base run has.
func (c *Comparison) rows(gb, gn *grade.Result) {
	bg := map[string]grade.GroupStats{}
	for _, g := range gb.Groups {
		bg[g.Name] = g
	}
	seen := map[string]bool{}
	for _, g := range gn.Groups {
		b, ok := bg[g.Name]
		seen[g.Name] = true
		c.Groups = append(c.Groups, Row{Kind: "group", Name: g.Name, Base: Side{Present: ok, Counts: b.Counts}, New: Side{Present: true, Counts: g.Counts}})
	}
	for _, g := range gb.Groups {
		if !seen[g.Name] {
			c.Groups = append(c.Groups, Row{Kind: "group", Name: g.Name, Base: Side{Present: true, Counts: g.Counts}})
		}
	}
	bc := map[string]grade.CaseStats{}
	for _, cs := range gb.Cases {
		bc[cs.ID] = cs
	}
	seenCase := map[string]bool{}
	for _, cs := range gn.Cases {
		b, ok := bc[cs.ID]
		seenCase[cs.ID] = true
		r := Row{Kind: "case", Name: cs.ID, Group: cs.Group,
			Base: Side{Present: ok, Counts: b.Counts, Inconsistent: b.Inconsistent},
			New:  Side{Present: true, Counts: cs.Counts, Inconsistent: cs.Inconsistent}}
		r.BecameInconsistent = ok && cs.Inconsistent && !b.Inconsistent
		c.Cases = append(c.Cases, r)
	}
	for _, cs := range gb.Cases {
		if !seenCase[cs.ID] {
			c.Cases = append(c.Cases, Row{Kind: "case", Name: cs.ID, Group: cs.Group, Base: Side{Present: true, Counts: cs.Counts, Inconsistent: cs.Inconsistent}})
		}
	}
	// Keep each group's cases together, in the order of the group rows.
	order := map[string]int{}
	for i, g := range c.Groups {
		order[g.Name] = i
	}
	sort.SliceStable(c.Cases, func(i, j int) bool { return order[c.Cases[i].Group] < order[c.Cases[j].Group] })
}

// SetAlpha sets the significance level and marks every row anew.
func (c *Comparison) SetAlpha(alpha float64) {
	c.Alpha = alpha
	c.Total.mark(alpha)
	for i := range c.Groups {
		c.Groups[i].mark(alpha)
	}
	for i := range c.Cases {
		c.Cases[i].mark(alpha)
	}
	for i := range c.Actions {
		c.Actions[i].mark(alpha)
	}
	for i := range c.Confusions {
		c.Confusions[i].mark(alpha)
	}
	sortConfusions(c.Confusions)
}

func (r *Row) mark(alpha float64) { r.Movement = move(r.Base, r.New, alpha) }

// move tests how a rate moved from side b to side n, at level alpha.
func move(bs, ns Side, alpha float64) Movement {
	var m Movement
	b, n := bs.Counts, ns.Counts
	m.P = stats.Fisher(b.Passed, b.Failed, n.Passed, n.Failed)
	m.MinP = stats.MinFisher(b.Graded, n.Graded)
	if b.Graded > 0 && n.Graded > 0 {
		m.Delta = n.Rate - b.Rate
	}
	m.Significant = b.Graded > 0 && n.Graded > 0 && m.P < alpha
	switch {
	case bs.Present && !ns.Present:
		m.Verdict = Removed
	case !bs.Present && ns.Present:
		m.Verdict = Added
	case b.Graded == 0 || n.Graded == 0:
		m.Verdict = ""
	case m.Significant && m.Delta < 0:
		m.Verdict = Regressed
	case m.Significant && m.Delta > 0:
		m.Verdict = Improved
	default:
		m.Verdict = Noise
	}
	return m
}

// Rows returns the total, then every group followed by its cases.
func (c *Comparison) Rows() []Row {
	rows := []Row{c.Total}
	for _, g := range c.Groups {
		rows = append(rows, g)
		for _, cs := range c.Cases {
			if cs.Group == g.Name {
				rows = append(rows, cs)
			}
		}
	}
	return rows
}

// Regressions returns the rows that moved down significantly: the total,
// groups, then cases.
func (c *Comparison) Regressions() []Row {
	var out []Row
	for _, r := range append(append([]Row{c.Total}, c.Groups...), c.Cases...) {
		if r.Verdict == Regressed {
			out = append(out, r)
		}
	}
	return out
}

// Improvements returns the rows that moved up significantly.
func (c *Comparison) Improvements() []Row {
	var out []Row
	for _, r := range append(append([]Row{c.Total}, c.Groups...), c.Cases...) {
		if r.Verdict == Improved {
			out = append(out, r)
		}
	}
	return out
}

// NewlyInconsistent returns the cases that became inconsistent.
func (c *Comparison) NewlyInconsistent() []Row {
	var out []Row
	for _, r := range c.Cases {
		if r.BecameInconsistent {
			out = append(out, r)
		}
	}
	return out
}

// Underpowered counts the case rows present in both runs whose numbers of
// attempts are too small for any change to be significant at Alpha, and
// returns the smallest p-value the most common such row could give.
func (c *Comparison) Underpowered() (n int, minP float64) {
	for _, r := range c.Cases {
		if r.Base.Graded > 0 && r.New.Graded > 0 && r.MinP >= c.Alpha {
			n++
			minP = max(minP, r.MinP)
		}
	}
	return n, minP
}

// Describe writes a row for a person on one line: "group fx: 100% (9/9) →
// 0% (0/9), p=1.1e-05".
func (r Row) Describe() string {
	name := r.Kind + " " + r.Name
	if r.Kind == "total" {
		name = "total"
	}
	return fmt.Sprintf("%s: %s (%d/%d) → %s (%d/%d), p=%s", name,
		format.Pct(r.Base.Rate), r.Base.Passed, r.Base.Graded, format.Pct(r.New.Rate), r.New.Passed, r.New.Graded, FormatP(r.P))
}

// FormatP writes a p-value: three decimals, or two significant digits
// below 0.001.
func FormatP(p float64) string {
	if p >= 0.001 {
		return fmt.Sprintf("%.3f", p)
	}
	return fmt.Sprintf("%.1e", p)
}

func joinNonEmpty(sep string, parts ...string) string {
	var keep []string
	for _, p := range parts {
		if p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, sep)
}
