package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

// Spread is the min, median and max of some figures.
type Spread struct {
	Min    float64 `json:"min"`
	Median float64 `json:"median"`
	Max    float64 `json:"max"`
	N      int     `json:"n"`
}

// spreadOf returns the spread of xs (the median of an even count is the
// mean of the middle two); the zero Spread for none.
func spreadOf(xs []float64) Spread {
	if len(xs) == 0 {
		return Spread{}
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	med := s[n/2]
	if n%2 == 0 {
		med = (s[n/2-1] + s[n/2]) / 2
	}
	return Spread{Min: s[0], Median: med, Max: s[n-1], N: n}
}

// Size is one tool at one size over the rounds.
type Size struct {
	Tool    string  `json:"tool"`
	Samples int     `json:"samples"`
	BoundS  float64 `json:"bound_s"`
	WallS   Spread  `json:"wall_s"`
	// WallOverBound is each round's wall time over the bound.
	WallOverBound Spread `json:"wall_over_bound"`
	CPUS          Spread `json:"cpu_s"`
	Requests      Spread `json:"requests"`
	PeakTreeMiB   Spread `json:"peak_tree_mib"`
	PeakProcMiB   Spread `json:"peak_proc_mib"`
}

// Marginal is one tool's CPU per model request, the slope of CPU time
// over model requests across the sizes of each round.
type Marginal struct {
	Tool string `json:"tool"`
	// MsPerRequest spreads the rounds' slopes, in milliseconds of CPU per
	// model request.
	MsPerRequest Spread `json:"ms_per_request"`
	// FixedS spreads the rounds' intercepts: the CPU seconds of a run
	// with no model request (start-up and shut-down).
	FixedS Spread `json:"fixed_s"`
	// Rounds are the rounds whose slope is counted.
	Rounds []int `json:"rounds"`
}

// Report is what report prints.
type Report struct {
	Concurrency int        `json:"concurrency"`
	LatencyS    float64    `json:"latency_s"`
	Turns       int        `json:"turns"`
	Runs        []Run      `json:"runs"`
	Sizes       []Size     `json:"sizes"`
	Marginal    []Marginal `json:"marginal"`
}

// bound is the least wall time samples attempts of turns model requests
// each can take at concurrency, each request answered after latency.
func bound(samples, concurrency, turns int, latency float64) float64 {
	if concurrency <= 0 {
		return 0
	}
	waves := (samples + concurrency - 1) / concurrency
	return float64(waves*turns) * latency
}

// slope fits y = a + b·x by least squares and returns b and a; ok is
// false when the xs do not differ.
func slope(xs, ys []float64) (b, a float64, ok bool) {
	n := float64(len(xs))
	if len(xs) < 2 || len(xs) != len(ys) {
		return 0, 0, false
	}
	var sx, sy, sxx, sxy float64
	for i := range xs {
		sx += xs[i]
		sy += ys[i]
		sxx += xs[i] * xs[i]
		sxy += xs[i] * ys[i]
	}
	d := n*sxx - sx*sx
	if d == 0 {
		return 0, 0, false
	}
	b = (n*sxy - sx*sy) / d
	return b, (sy - b*sx) / n, true
}

// build makes the report of runs, tools in the order they first appear.
func build(runs []Run, concurrency, turns int, latency float64) Report {
	r := Report{Concurrency: concurrency, LatencyS: latency, Turns: turns, Runs: runs}
	type key struct {
		tool    string
		samples int
	}
	var tools []string
	var keys []key
	by := map[key][]Run{}
	for _, x := range runs {
		if !slices.Contains(tools, x.Tool) {
			tools = append(tools, x.Tool)
		}
		k := key{x.Tool, x.Samples}
		if _, ok := by[k]; !ok {
			keys = append(keys, k)
		}
		by[k] = append(by[k], x)
	}
	slices.SortStableFunc(keys, func(a, b key) int {
		if c := slices.Index(tools, a.tool) - slices.Index(tools, b.tool); c != 0 {
			return c
		}
		return a.samples - b.samples
	})
	for _, k := range keys {
		s := Size{Tool: k.tool, Samples: k.samples, BoundS: bound(k.samples, concurrency, turns, latency)}
		var wall, over, cpu, req, tree, proc []float64
		for _, x := range by[k] {
			wall = append(wall, x.WallS)
			if s.BoundS > 0 {
				over = append(over, x.WallS/s.BoundS)
			}
			cpu = append(cpu, x.CPUS)
			req = append(req, float64(x.Requests))
			tree = append(tree, float64(x.PeakTreeKiB)/1024)
			proc = append(proc, float64(x.PeakProcKiB)/1024)
		}
		s.WallS, s.WallOverBound, s.CPUS = spreadOf(wall), spreadOf(over), spreadOf(cpu)
		s.Requests, s.PeakTreeMiB, s.PeakProcMiB = spreadOf(req), spreadOf(tree), spreadOf(proc)
		r.Sizes = append(r.Sizes, s)
	}
	for _, t := range tools {
		rounds := map[int][]Run{}
		var order []int
		for _, x := range runs {
			if x.Tool != t || x.Requests < 0 {
				continue
			}
			if _, ok := rounds[x.Round]; !ok {
				order = append(order, x.Round)
			}
			rounds[x.Round] = append(rounds[x.Round], x)
		}
		m := Marginal{Tool: t}
		var ms, fixed []float64
		for _, k := range order {
			var xs, ys []float64
			for _, x := range rounds[k] {
				xs = append(xs, float64(x.Requests))
				ys = append(ys, x.CPUS)
			}
			if b, a, ok := slope(xs, ys); ok {
				ms = append(ms, 1000*b)
				fixed = append(fixed, a)
				m.Rounds = append(m.Rounds, k)
			}
		}
		if len(ms) > 0 {
			m.MsPerRequest, m.FixedS = spreadOf(ms), spreadOf(fixed)
			r.Marginal = append(r.Marginal, m)
		}
	}
	return r
}

// readRuns reads a results file's lines, refusing a bad one by its line
// number.
func readRuns(rd io.Reader, name string) ([]Run, error) {
	var runs []Run
	sc := bufio.NewScanner(rd)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var x Run
		if err := json.Unmarshal([]byte(line), &x); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, n, err)
		}
		if x.Tool == "" {
			return nil, fmt.Errorf("%s:%d: no tool", name, n)
		}
		runs = append(runs, x)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	return runs, nil
}

func reportCmd(w io.Writer, args []string) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print the report as JSON")
	concurrency := fs.Int("concurrency", 32, "attempts at once, for the bound")
	latency := fs.Duration("latency", 500*time.Millisecond, "the stand-in's latency, for the bound")
	turns := fs.Int("turns", 2, "model turns an attempt, for the bound")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errors.New("report: one results file")
	}
	f, err := os.Open(fs.Arg(0))
	if err != nil {
		return fmt.Errorf("reading the results: %w", err)
	}
	defer f.Close()
	runs, err := readRuns(f, fs.Arg(0))
	if err != nil {
		return err
	}
	r := build(runs, *concurrency, *turns, latency.Seconds())
	if *asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	return r.text(w)
}

// text prints the report as tables.
func (r Report) text(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(w, "each run, in the order run (load: the 1-minute load average at its start; bound: ceil(samples/%d) x %d turns x %gs)\n", r.Concurrency, r.Turns, r.LatencyS)
	fmt.Fprintln(tw, "round\ttool\tsamples\tload\twall s\tbound s\tCPU s\trequests\tpeak tree MiB\tlargest process MiB\texit\t")
	for _, x := range r.Runs {
		fmt.Fprintf(tw, "%d\t%s\t%d\t%.2f\t%.2f\t%.2f\t%.2f\t%d\t%.1f\t%.1f\t%d\t\n", x.Round, x.Tool, x.Samples, x.Load1,
			x.WallS, bound(x.Samples, r.Concurrency, r.Turns, r.LatencyS), x.CPUS, x.Requests,
			float64(x.PeakTreeKiB)/1024, float64(x.PeakProcKiB)/1024, x.Exit)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "each tool and size over the rounds: min / median / max")
	fmt.Fprintln(tw, "tool\tsamples\tn\twall s\twall / bound\tCPU s\trequests\tpeak tree MiB\t")
	for _, s := range r.Sizes {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t\n", s.Tool, s.Samples, s.WallS.N,
			s.WallS.fmt("%.2f"), s.WallOverBound.fmt("%.2f"), s.CPUS.fmt("%.2f"), s.Requests.fmt("%.0f"), s.PeakTreeMiB.fmt("%.0f"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(r.Marginal) == 0 {
		return nil
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "marginal CPU per model request: each round's slope of tree CPU over model requests across the sizes")
	fmt.Fprintln(tw, "tool\trounds\tms / request\tfixed CPU s\t")
	for _, m := range r.Marginal {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t\n", m.Tool, len(m.Rounds), m.MsPerRequest.fmt("%.2f"), m.FixedS.fmt("%.2f"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, line := range r.ratios() {
		fmt.Fprintln(w, line)
	}
	return nil
}

// ratios are promptfoo's medians over mcpeval's, when both were run.
func (r Report) ratios() []string {
	var mc, pf *Marginal
	for i := range r.Marginal {
		switch r.Marginal[i].Tool {
		case "mcpeval":
			mc = &r.Marginal[i]
		case "promptfoo":
			pf = &r.Marginal[i]
		}
	}
	if mc == nil || pf == nil || mc.MsPerRequest.Median <= 0 {
		return nil
	}
	out := []string{"", fmt.Sprintf("promptfoo / mcpeval, medians: marginal CPU per model request %.1fx", pf.MsPerRequest.Median/mc.MsPerRequest.Median)}
	for _, a := range r.Sizes {
		if a.Tool != "mcpeval" {
			continue
		}
		for _, b := range r.Sizes {
			if b.Tool == "promptfoo" && b.Samples == a.Samples && a.WallS.Median > 0 && a.PeakTreeMiB.Median > 0 {
				out = append(out, fmt.Sprintf("  at %d samples: wall %.1fx, CPU %.1fx, peak tree memory %.1fx", a.Samples,
					b.WallS.Median/a.WallS.Median, ratio(b.CPUS.Median, a.CPUS.Median), b.PeakTreeMiB.Median/a.PeakTreeMiB.Median))
			}
		}
	}
	return out
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return math.Inf(1)
	}
	return a / b
}

func (s Spread) fmt(f string) string {
	if s.N == 0 {
		return "-"
	}
	return fmt.Sprintf(f+" / "+f+" / "+f, s.Min, s.Median, s.Max)
}
