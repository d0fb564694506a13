package ladder

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/report/format"
	"github.com/mcpeval/mcpeval/internal/termsafe"
	"github.com/mcpeval/mcpeval/internal/usage"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
)

// Readings of a case on the ladder.
const (
	// Defect: the case fails on the strongest model.
	Defect = "defect"
	// Descriptions: the case passes on the strongest model and fails on a
	// weaker one.
	Descriptions = "descriptions"
)

// Ladder is several models' runs of one suite, side by side.
type Ladder struct {
	// Rungs are the runs, strongest model first.
	Rungs []Rung `json:"rungs"`
	// Cases are every case any run graded, in the order they first appear.
	Cases []Case `json:"cases"`
	// Calibrated is true when the strongest model is a real one (not a
	// fake or a script, whose passes prove the pipe, not the cases), it
	// graded attempts, and every case it ran passed every graded attempt
	// there.
	Calibrated bool `json:"calibrated"`
	// NotCalibrated says why the ladder is not calibrated; empty when it
	// is.
	NotCalibrated string `json:"not_calibrated,omitempty"`
	// Warnings say where the runs are not comparable (another suite, other
	// tool definitions, an invalid or unfinished run).
	Warnings []string `json:"warnings,omitempty"`
	// Bar is the pass rate a rung must reach to clear it (SetBar); 0 when
	// none was set.
	Bar float64 `json:"bar,omitempty"`
	// Cheapest is the index in Rungs of the priced rung that clears the bar
	// at the lowest cost per success; nil when no bar is set or no priced
	// rung clears it.
	Cheapest *int `json:"cheapest,omitempty"`
}

// Rung is one model's run.
type Rung struct {
	Model string `json:"model"`
	RunID string `json:"run_id"`
	Dir   string `json:"dir"`
	Valid bool   `json:"valid"`
	// Fake is true for a fake or scripted model.
	Fake   bool         `json:"fake,omitempty"`
	Totals grade.Counts `json:"totals"`
	// Cost is what the run cost: per run, attempt and success.
	Cost *usage.Cost `json:"cost"`
	// Clears is true when a bar is set and the lower 95% Wilson bound of
	// the rung's pass rate reaches it.
	Clears bool `json:"clears,omitempty"`
	// Frontier is true when the rung is on the cost/pass Pareto frontier:
	// priced, and no other priced rung is both as cheap per attempt and
	// as good, and better on one (bar.go).
	Frontier bool `json:"frontier,omitempty"`
}

// Case is one case across the ladder.
type Case struct {
	ID    string `json:"id"`
	Group string `json:"group"`
	// Counts are the case's counts on each rung, nil where the run did not
	// grade it.
	Counts []*grade.Counts `json:"counts"`
	// Reading is Defect, Descriptions or "".
	Reading string `json:"reading,omitempty"`
	// Why says the reading in words, naming the models.
	Why string `json:"why,omitempty"`
}

// Build sets runs (with their grades, in the same order) side by side; the
// first is the strongest model. The runs are held whole; BuildFrom takes
// runs read as streams.
func Build(runs []*record.Run, results []*grade.Result) *Ladder {
	in := make([]Input, len(runs))
	for i, r := range runs {
		in[i] = Input{Run: r, Result: results[i], Attempts: len(r.Attempts), Cost: usage.NewCost(r, results[i].Totals.Passed, nil)}
	}
	return BuildFrom(in)
}

// Input is one run for BuildFrom: the run (its header and end; its
// attempts need not be held), its grades, how many attempts it recorded,
// and what it cost.
type Input struct {
	Run      *record.Run
	Result   *grade.Result
	Attempts int
	Cost     *usage.Cost
}

// BuildFrom sets runs side by side, the strongest model first, as Build
// does, from what was counted as each was read.
func BuildFrom(runs []Input) *Ladder {
	l := &Ladder{}
	index := map[string]int{}
	for i, in := range runs {
		r, res := in.Run, in.Result
		l.Rungs = append(l.Rungs, Rung{Model: res.Model, RunID: r.Header.RunID, Dir: r.Dir, Valid: res.Valid, Fake: isFake(r.Header.Model), Totals: res.Totals.Counts,
			Cost: in.Cost})
		if !res.Valid {
			l.Warnings = append(l.Warnings, fmt.Sprintf("%s (%s) is invalid: nothing was graded", res.Model, r.Dir))
		} else if !r.Complete() {
			l.Warnings = append(l.Warnings, fmt.Sprintf("%s (%s) is incomplete: %d of %d planned attempts recorded", res.Model, r.Dir, in.Attempts, len(r.Header.Planned)))
		}
		if i > 0 {
			h0, h := &runs[0].Run.Header, &r.Header
			if h.Suite.Hash != h0.Suite.Hash {
				l.Warnings = append(l.Warnings, fmt.Sprintf("%s ran another suite (hash %.12s, the strongest ran %.12s)", res.Model, h.Suite.Hash, h0.Suite.Hash))
			}
			if h.ToolsHash != h0.ToolsHash {
				l.Warnings = append(l.Warnings, fmt.Sprintf("%s saw other tool definitions (hash %.12s, the strongest saw %.12s)", res.Model, h.ToolsHash, h0.ToolsHash))
			}
		}
		for _, cs := range res.Cases {
			j, ok := index[cs.ID]
			if !ok {
				j = len(l.Cases)
				index[cs.ID] = j
				l.Cases = append(l.Cases, Case{ID: cs.ID, Group: cs.Group, Counts: make([]*grade.Counts, len(runs))})
			}
			c := cs.Counts
			l.Cases[j].Counts[i] = &c
		}
	}
	caseMissing := false
	for i := range l.Cases {
		c := &l.Cases[i]
		top := c.Counts[0]
		switch {
		case top == nil || top.Graded == 0:
			if top == nil {
				caseMissing = true
			}
		case top.Failed > 0:
			c.Reading = Defect
			c.Why = fmt.Sprintf("fails on %s, the strongest model (%d/%d): a case defect or a product gap, not a description problem", l.Rungs[0].Model, top.Passed, top.Graded)
		default:
			var lower []string
			for k, cnt := range c.Counts[1:] {
				if cnt != nil && cnt.Failed > 0 {
					lower = append(lower, fmt.Sprintf("%s (%d/%d)", l.Rungs[k+1].Model, cnt.Passed, cnt.Graded))
				}
			}
			if len(lower) > 0 {
				c.Reading = Descriptions
				c.Why = fmt.Sprintf("passes on %s, fails on %s: the descriptions (or the tools' output) do not carry a weaker model", l.Rungs[0].Model, strings.Join(lower, ", "))
			}
		}
	}
	l.NotCalibrated = l.whyNotCalibrated(caseMissing)
	l.Calibrated = len(runs) > 0 && l.NotCalibrated == ""
	l.setFrontier()
	return l
}

// whyNotCalibrated says why the ladder is not calibrated, or "" when it
// is; caseMissing is true when a case some run graded was not run on the
// strongest model.
func (l *Ladder) whyNotCalibrated(caseMissing bool) string {
	if len(l.Rungs) == 0 {
		return "no runs"
	}
	top := l.Rungs[0]
	switch {
	case !top.Valid:
		return fmt.Sprintf("%s, the strongest model, has an invalid run: nothing was graded", top.Model)
	case top.Fake:
		return fmt.Sprintf("%s, the strongest model, is a fake model: its passes prove the pipe, not that a model can pass the cases; put a real model first", top.Model)
	case top.Totals.Graded == 0:
		return fmt.Sprintf("%s, the strongest model, has no graded attempt (%d ended in an error): nothing shows a model can pass the cases", top.Model, top.Totals.Errors)
	case l.Count(Defect) > 0:
		n := l.Count(Defect)
		return fmt.Sprintf("%d case%s fail%s on %s (case defects or product gaps): fix those before reading weaker models' failures as description problems", n, format.S(n), verbS(n), top.Model)
	case caseMissing:
		return fmt.Sprintf("%s, the strongest model, did not run every case the others ran", top.Model)
	}
	return ""
}

// isFake reports whether a run's model is a fake or a script, by the
// record's flag or, for records that lack it, by the provider's name.
func isFake(m model.Info) bool { return usage.IsFake(m) }

// SetBar marks the rungs whose pass rate's lower 95% Wilson bound
// reaches bar (a rate from 0 to 1) and, among the priced ones, the
// cheapest per success: the model to pick when the bar is all that
// matters. An invalid run or one with nothing graded clears no bar.
func (l *Ladder) SetBar(bar float64) {
	l.Bar, l.Cheapest = bar, nil
	for i := range l.Rungs {
		r := &l.Rungs[i]
		r.Clears = clears(r, bar)
		if !r.Clears || r.Cost == nil || r.Cost.State != usage.Priced || r.Cost.PerSuccessUSD == nil {
			continue
		}
		if l.Cheapest == nil || *r.Cost.PerSuccessUSD < *l.Rungs[*l.Cheapest].Cost.PerSuccessUSD {
			l.Cheapest = &i
		}
	}
}

// costLines says each rung's cost per success and, with a bar, whether it
// clears it: the rows under the totals.
func (l *Ladder) costLines() (label string, cells []string, barLabel string, bars []string) {
	for _, r := range l.Rungs {
		cells = append(cells, r.Cost.PerSuccess())
		if r.Clears {
			bars = append(bars, "yes")
		} else {
			bars = append(bars, "no")
		}
	}
	if l.Bar > 0 {
		barLabel = fmt.Sprintf("clears %s", format.Pct(l.Bar))
	}
	return "$/success", cells, barLabel, bars
}

// cheapestLine says which model clears the bar most cheaply; "" without a
// bar.
func (l *Ladder) cheapestLine() string {
	switch {
	case l.Bar == 0:
		return ""
	case l.Cheapest == nil:
		return fmt.Sprintf("no priced model clears %s (its pass rate's lower 95%% Wilson bound)", format.Pct(l.Bar))
	}
	r := l.Rungs[*l.Cheapest]
	return fmt.Sprintf("cheapest to clear %s (its pass rate's lower 95%% Wilson bound): %s at %s per success (%s, Wilson low %s)",
		format.Pct(l.Bar), r.Model, r.Cost.PerSuccess(), cell(&r.Totals), format.Pct(r.Totals.WilsonLow))
}

// Count returns how many cases have the reading.
func (l *Ladder) Count(reading string) int {
	n := 0
	for _, c := range l.Cases {
		if c.Reading == reading {
			n++
		}
	}
	return n
}

// Text writes the ladder for a terminal: a column per model (pass rate and
// n), a line per case with its reading, the totals, the cost per success
// (and, with a bar, which rungs clear it and the cheapest that does), and
// the calibration.
func Text(w io.Writer, l *Ladder) error {
	bw := bufio.NewWriter(w)
	nameW := len("clears 100%") // the longest label under the cases
	for _, c := range l.Cases {
		nameW = max(nameW, len(c.ID))
	}
	colW := 10
	for _, r := range l.Rungs {
		colW = max(colW, len(r.Model))
	}
	head := fmt.Sprintf("%-*s", nameW, "")
	for i, r := range l.Rungs {
		label := r.Model
		if i == 0 {
			label += "*"
		}
		head += fmt.Sprintf("  %-*s", colW+1, termsafe.Line(label))
	}
	fmt.Fprintln(bw, strings.TrimRight(head, " "))
	for _, c := range l.Cases {
		line := fmt.Sprintf("%-*s", nameW, termsafe.Line(c.ID))
		for _, cnt := range c.Counts {
			line += fmt.Sprintf("  %-*s", colW+1, cell(cnt))
		}
		if c.Reading != "" {
			line += "  " + c.Reading
		}
		fmt.Fprintln(bw, strings.TrimRight(line, " "))
	}
	line := fmt.Sprintf("%-*s", nameW, "total")
	for _, r := range l.Rungs {
		t := r.Totals
		line += fmt.Sprintf("  %-*s", colW+1, cell(&t))
	}
	fmt.Fprintln(bw, strings.TrimRight(line, " "))
	label, costs, barLabel, bars := l.costLines()
	row := func(label string, cells []string) {
		line := fmt.Sprintf("%-*s", nameW, label)
		for _, c := range cells {
			line += fmt.Sprintf("  %-*s", colW+1, c)
		}
		fmt.Fprintln(bw, strings.TrimRight(line, " "))
	}
	row(label, costs)
	if barLabel != "" {
		row(barLabel, bars)
		fmt.Fprintf(bw, "\n%s\n", termsafe.Line(l.cheapestLine()))
	}
	if f := l.frontierLine(); f != "" {
		fmt.Fprintf(bw, "\n%s\n", termsafe.Line(f))
	}
	fmt.Fprintf(bw, "\n* the strongest model, given first: the suite is calibrated on it.\n")
	calibration(bw, l, "")
	if len(l.Warnings) > 0 {
		fmt.Fprintln(bw, "\nwarnings")
		for _, s := range l.Warnings {
			fmt.Fprintf(bw, "  %s\n", termsafe.Line(s))
		}
	}
	return bw.Flush()
}

func calibration(w io.Writer, l *Ladder, bullet string) {
	if len(l.Rungs) == 0 {
		return
	}
	top := termsafe.Line(l.Rungs[0].Model)
	if l.Calibrated {
		fmt.Fprintf(w, "%scalibrated: every case passes on %s, so failures lower down point at the descriptions.\n", bullet, top)
	} else {
		fmt.Fprintf(w, "%snot calibrated: %s.\n", bullet, termsafe.Line(l.NotCalibrated))
	}
	for _, c := range l.Cases {
		if c.Why != "" {
			fmt.Fprintf(w, "%s  %s: %s\n", bullet, termsafe.Line(c.ID), termsafe.Line(c.Why))
		}
	}
}

// Markdown writes the ladder as a Markdown table with the calibration
// reading.
func Markdown(w io.Writer, l *Ladder) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "### mcpeval model ladder")
	fmt.Fprintln(bw)
	fmt.Fprint(bw, "| Case |")
	for i, r := range l.Rungs {
		label := md(r.Model)
		if i == 0 {
			label += " (strongest)"
		}
		fmt.Fprintf(bw, " %s |", label)
	}
	fmt.Fprint(bw, " Reading |\n|---|")
	for range l.Rungs {
		fmt.Fprint(bw, "---:|")
	}
	fmt.Fprintln(bw, "---|")
	for _, c := range l.Cases {
		fmt.Fprintf(bw, "| %s |", md(c.ID))
		for _, cnt := range c.Counts {
			fmt.Fprintf(bw, " %s |", cell(cnt))
		}
		fmt.Fprintf(bw, " %s |\n", c.Reading)
	}
	fmt.Fprint(bw, "| **total** |")
	for _, r := range l.Rungs {
		t := r.Totals
		fmt.Fprintf(bw, " **%s** |", cell(&t))
	}
	fmt.Fprintln(bw, " |")
	label, costs, barLabel, bars := l.costLines()
	fmt.Fprintf(bw, "| %s |", label)
	for _, c := range costs {
		fmt.Fprintf(bw, " %s |", md(c))
	}
	fmt.Fprintln(bw, " |")
	if barLabel != "" {
		fmt.Fprintf(bw, "| %s |", barLabel)
		for _, b := range bars {
			fmt.Fprintf(bw, " %s |", b)
		}
		fmt.Fprintln(bw, " |")
		fmt.Fprintf(bw, "\n**%s**\n", md(l.cheapestLine()))
	}
	if f := l.frontierLine(); f != "" {
		fmt.Fprintf(bw, "\n%s\n", md(f))
	}
	fmt.Fprintln(bw)
	var b strings.Builder
	calibration(&b, l, "")
	for _, line := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
		if strings.HasPrefix(line, "  ") {
			fmt.Fprintf(bw, "- %s\n", md(strings.TrimSpace(line)))
		} else {
			fmt.Fprintf(bw, "%s\n\n", md(line))
		}
	}
	for _, s := range l.Warnings {
		fmt.Fprintf(bw, "\n> %s\n", md(s))
	}
	return bw.Flush()
}

// JSON writes the ladder as indented JSON.
func JSON(w io.Writer, l *Ladder) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(l)
}

func cell(c *grade.Counts) string {
	if c == nil {
		return "—"
	}
	if c.Graded == 0 {
		return "— n=0"
	}
	return fmt.Sprintf("%.0f%% n=%d", math.Round(c.Rate*100), c.Graded)
}

// md makes text safe in Markdown (format.Markdown).
func md(s string) string { return format.Markdown(s) }

func verbS(n int) string {
	if n == 1 {
		return "s"
	}
	return ""
}
