package plan

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/report/format"
	"github.com/mcpeval/mcpeval/internal/termsafe"
	"github.com/mcpeval/mcpeval/stats"
)

// Most is the most attempts a plan considers for a row against a
// recorded baseline; MostBoth for a rate alone, where the baseline is to
// be run too.
const (
	Most     = 5000
	MostBoth = 1000
)

// Settings are what a plan is asked for.
type Settings struct {
	// Drop is the drop in pass rate to detect (0.1: ten points).
	Drop float64 `json:"drop"`
	// Power is the chance of detecting it (0.8).
	Power float64 `json:"power"`
	// Alpha is the gate's significance level (0.05).
	Alpha float64 `json:"alpha"`
}

// Row is the plan for one row the gate tests: a case, or the total.
type Row struct {
	// Name is "total" or the case's id.
	Name string `json:"name"`
	// BasePassed and BaseN are the baseline's counts; both 0 for a rate
	// alone.
	BasePassed int `json:"base_passed,omitempty"`
	BaseN      int `json:"base_n,omitempty"`
	// BaseRate is the baseline's pass rate; DroppedTo the rate to detect.
	BaseRate  float64 `json:"base_rate"`
	DroppedTo float64 `json:"dropped_to"`
	// Attempts are the new run's attempts the row needs (for the total,
	// over every case); 0 when no number up to the limit reaches Power.
	Attempts int `json:"attempts"`
	// PerCase is Attempts spread over the cases, for the total row.
	PerCase int `json:"per_case,omitempty"`
	// Power is the exact power at Attempts (at the limit when none
	// reaches it).
	Power float64 `json:"power"`
	// Note says why no number of attempts is enough.
	Note string `json:"note,omitempty"`
}

// Plan is the attempts a gate needs, row by row.
type Plan struct {
	Settings
	// Baseline is the baseline run's directory; empty for a rate alone.
	Baseline string `json:"baseline,omitempty"`
	// Both is true for a rate alone: the baseline is run with as many
	// attempts as the new run, and both are random.
	Both bool  `json:"both,omitempty"`
	Rows []Row `json:"rows"`
}

// ForRate plans a gate for a pass rate alone: neither run is recorded, and
// each will have the attempts the row gives.
func ForRate(rate float64, s Settings) *Plan {
	p := &Plan{Settings: s, Both: true}
	r := Row{Name: "per row", BaseRate: rate, DroppedTo: rate - s.Drop}
	if r.DroppedTo < 0 {
		r.Note = fmt.Sprintf("a rate of %s cannot drop by %s", format.Pct(rate), format.Pct(s.Drop))
	} else {
		r.Attempts, r.Power = stats.AttemptsFor(func(n int) float64 { return stats.GatePowerBoth(n, rate, r.DroppedTo, s.Alpha) }, s.Power, MostBoth)
		if r.Attempts == 0 {
			r.Note = fmt.Sprintf("more than %d attempts", MostBoth)
		}
	}
	p.Rows = append(p.Rows, r)
	return p
}

// ForBaseline plans a gate against the graded baseline res, recorded in
// dir: its total first, then each case it graded.
func ForBaseline(dir string, res *grade.Result, s Settings) *Plan {
	p := &Plan{Settings: s, Baseline: dir}
	cases := 0
	for _, c := range res.Cases {
		if c.Counts.Graded > 0 {
			cases++
		}
	}
	t := row("total", res.Totals.Passed, res.Totals.Graded, s)
	if t.Attempts > 0 && cases > 0 {
		t.PerCase = (t.Attempts + cases - 1) / cases
	}
	p.Rows = append(p.Rows, t)
	for _, c := range res.Cases {
		if c.Counts.Graded > 0 {
			p.Rows = append(p.Rows, row(c.ID, c.Counts.Passed, c.Counts.Graded, s))
		}
	}
	return p
}

// row plans one row against a baseline of passed out of n.
func row(name string, passed, n int, s Settings) Row {
	r := Row{Name: name, BasePassed: passed, BaseN: n}
	if n == 0 {
		r.Note = "the baseline graded no attempt"
		return r
	}
	r.BaseRate = float64(passed) / float64(n)
	r.DroppedTo = r.BaseRate - s.Drop
	if r.DroppedTo < 0 {
		r.Note = fmt.Sprintf("a rate of %s cannot drop by %s", format.Pct(r.BaseRate), format.Pct(s.Drop))
		return r
	}
	r.Attempts, r.Power = stats.AttemptsFor(func(k int) float64 { return stats.GatePower(passed, n, k, r.DroppedTo, s.Alpha) }, s.Power, Most)
	if r.Attempts == 0 {
		r.Note = fmt.Sprintf("unreachable against %d baseline attempts: rerun the baseline with more", n)
	}
	return r
}

// Text writes the plan as a table for a terminal.
func Text(w io.Writer, p *Plan) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "attempts a gate needs to detect a drop of %s at %s power\n", points(p.Drop), format.Pct(p.Power))
	fmt.Fprintf(bw, "(Fisher's exact test, two-sided, alpha %g; power computed exactly)\n", p.Alpha)
	if p.Both {
		fmt.Fprintln(bw, "the baseline is run too, with as many attempts: both runs are random")
	} else {
		fmt.Fprintf(bw, "against the baseline %s as recorded\n", termsafe.Line(p.Baseline))
	}
	fmt.Fprintln(bw)
	nameW := len("per row")
	for _, r := range p.Rows {
		nameW = max(nameW, len(termsafe.Line(r.Name)))
	}
	fmt.Fprintf(bw, "%-*s  %-14s  %-10s  %8s  %6s\n", nameW, "row", "baseline", "drop to", "attempts", "power")
	for _, r := range p.Rows {
		base := format.Pct(r.BaseRate)
		if r.BaseN > 0 {
			base += fmt.Sprintf(" (%d/%d)", r.BasePassed, r.BaseN)
		}
		drop, att, pow := format.Pct(r.DroppedTo), fmt.Sprint(r.Attempts), format.Pct(r.Power)
		if r.DroppedTo < 0 || r.BaseN == 0 && !p.Both {
			drop = "—"
		}
		if r.Attempts == 0 {
			att = "—"
		}
		if r.Attempts == 0 && r.Power == 0 {
			pow = "—"
		}
		line := fmt.Sprintf("%-*s  %-14s  %-10s  %8s  %6s", nameW, termsafe.Line(r.Name), base, drop, att, pow)
		switch {
		case r.Note != "":
			line += "  " + r.Note
		case r.PerCase > 0:
			line += fmt.Sprintf("  (%d per case)", r.PerCase)
		}
		fmt.Fprintln(bw, line)
	}
	return bw.Flush()
}

// JSON writes the plan as indented JSON.
func JSON(w io.Writer, p *Plan) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(p)
}

func points(d float64) string { return fmt.Sprintf("%.0f points", d*100) }
