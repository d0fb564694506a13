package main

// The run command's CI features: gates against a baseline record and a
// pass-rate threshold, datasets, JUnit XML, a Markdown summary for a pull
// request, description overlays, model ladders and shards. run.go parses
// its own flags and prepares one model's run (runFlags.prepare); runEach
// here hands every model to pipeline.RunModels and prints what it found.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/compare"
	"github.com/mcpeval/mcpeval/internal/ladder"
	"github.com/mcpeval/mcpeval/internal/overlay"
	"github.com/mcpeval/mcpeval/internal/pipeline"
	"github.com/mcpeval/mcpeval/internal/report"
	"github.com/mcpeval/mcpeval/internal/rundir"
	"github.com/mcpeval/mcpeval/internal/sequential"
	"github.com/mcpeval/mcpeval/internal/termsafe"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/runner"
)

const ciHelp = `
Model ladders: give --model several times, the strongest model first. Each
model gets its own run (under --out DIR/MODEL, or runs/RUN_ID), and a
ladder sets them side by side: a case failing on the strongest model is a
case defect or a product gap; one passing there and failing lower down
points at the tool descriptions.

CI:
  --dataset NAME   run only the cases of that dataset (e.g. pr, merge)
  --shard K/N      run slice K of N of the attempt matrix; combine the
                   shards' records with mcpeval merge
  --overlay FILE   replace tool and parameter descriptions the model sees,
                   and rewrite tool results before it sees them (outputs:)
                   (the record keeps both versions and their hashes)
  --gate BASE      after the run, compare it with the baseline record BASE
                   and exit 5 on a significant regression (Fisher's exact
                   test, --alpha, default 0.05)
  --stop-early     with --gate: stop the run as soon as a sequential test
                   against the baseline's total has decided either way,
                   and gate on its decision (--looks, default 5; --drop,
                   default 0.1; --power, default 0.8; docs/statistics.md)
  --min-pass F     exit 5 when the pass rate is below F (0.9 for 90%)
  --max-error-rate F
                   a gate (--gate, --min-pass) cannot pass on a run with
                   no graded attempt, or whose attempts ended in an error
                   more often than F (default 0.2): it exits 6, too few
                   graded attempts to judge
  --bar RATE       with several --model: mark the models whose pass
                   rate's lower 95% Wilson bound reaches RATE, and name
                   the cheapest of them (as mcpeval ladder --bar)
  --junit FILE     write JUnit XML (one test per case)
  --summary FILE   append a Markdown summary (e.g. "$GITHUB_STEP_SUMMARY")
`

// ciFlags are run's CI flags.
type ciFlags struct {
	gate, dataset, junit, summary, overlay, shard string
	alpha, minPass, maxErrorRate                  float64
	stopEarly                                     bool
	bar                                           float64
	looks                                         int
	drop, power                                   float64

	ov       *overlay.Overlay
	sh       *record.Shard
	baseline *record.Run
}

func (c *ciFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&c.dataset, "dataset", "", "run only the cases of dataset `NAME`")
	fs.StringVar(&c.shard, "shard", "", "run slice `K/N` of the attempt matrix")
	fs.StringVar(&c.overlay, "overlay", "", "description overlay `FILE`")
	fs.StringVar(&c.gate, "gate", "", "exit 5 on a significant regression against the baseline run `DIR`")
	floatVar(fs, &c.alpha, "alpha", compare.DefaultAlpha, "significance `LEVEL` of --gate")
	floatVar(fs, &c.bar, "bar", 0, "with several --model: mark the models whose pass rate's lower 95% Wilson bound reaches `RATE` and name the cheapest")
	fs.BoolVar(&c.stopEarly, "stop-early", false, "with --gate: stop once a sequential test against the baseline has decided, and gate on its decision")
	fs.IntVar(&c.looks, "looks", sequential.DefaultLooks, "with --stop-early: the `N` looks of the sequential test")
	floatVar(fs, &c.drop, "drop", 0.1, "with --stop-early: the drop in pass rate (a `FRACTION`) ruled out before stopping for no regression")
	floatVar(fs, &c.power, "power", 0.8, "with --stop-early: the chance (a `FRACTION`) of calling a drop of --drop a regression that stopping keeps")
	floatVar(fs, &c.minPass, "min-pass", 0, "exit 5 when the pass rate is below this `FRACTION` (0.9 for 90%)")
	floatVar(fs, &c.maxErrorRate, "max-error-rate", pipeline.DefaultMaxErrorRate, "exit 6 from a gate when more than this `FRACTION` of attempts ended in an error")
	fs.StringVar(&c.junit, "junit", "", "write JUnit XML to `FILE`")
	fs.StringVar(&c.summary, "summary", "", "append a Markdown summary to `FILE`")
}

// configure sets the runner's dataset, shard and overlay.
func (c *ciFlags) configure(cfg *runner.Config) {
	cfg.Dataset = c.dataset
	cfg.Shard = c.sh
	if c.ov != nil {
		cfg.Overlay = c.ov.Apply
		cfg.OverlayInfo = c.ov.Info()
		if len(c.ov.Outputs) > 0 {
			cfg.RewriteResult = c.ov.Rewrite
		}
	}
}

// modelList is the repeatable --model flag; a spec may hold commas.
type modelList []string

func (m *modelList) String() string { return strings.Join(*m, " ") }

func (m *modelList) Set(v string) error {
	if strings.TrimSpace(v) == "" {
		return errors.New("empty model spec")
	}
	*m = append(*m, v)
	return nil
}

// check checks the CI flags before any work starts, and loads the
// overlay, the shard and the baseline.
func (c *ciFlags) check(e *env, f runFlags, models int) error {
	if err := c.checkCombination(f, models); err != nil {
		return err
	}
	if err := c.checkLevels(); err != nil {
		return err
	}
	if err := checkOutputs(c.junit, c.summary); err != nil {
		return err
	}
	if err := c.loadShard(); err != nil {
		return err
	}
	if err := c.loadOverlay(e, f); err != nil {
		return err
	}
	if err := c.loadBaseline(e); err != nil {
		return err
	}
	return c.checkDataset(f)
}

// checkCombination refuses CI flags that do not go with --resume or with
// a ladder of several models.
func (c *ciFlags) checkCombination(f runFlags, models int) error {
	if f.resume != "" && (c.dataset != "" || c.shard != "") {
		return usagef("--resume continues a run as it was planned: --dataset and --shard do not go with it")
	}
	if models > 1 && f.resume != "" {
		return usagef("--resume continues one run: give at most one --model")
	}
	if c.stopEarly && (c.gate == "" || f.resume != "" || f.batch) {
		return usagef("--stop-early goes with --gate BASE, on a new run sent attempt by attempt (not --resume, not --batch)")
	}
	if c.bar > 0 && models < 2 {
		return usagef("--bar marks the models of a ladder: give two or more --model (or use mcpeval ladder RUN... --bar)")
	}
	if models > 1 && c.gate != "" {
		return usagef("--gate compares one model's run with its baseline: give one --model (compare ladder runs with mcpeval compare)")
	}
	return nil
}

// checkLevels checks --alpha, --min-pass and --max-error-rate are in range.
func (c *ciFlags) checkLevels() error {
	if c.alpha <= 0 || c.alpha >= 1 {
		return usagef("--alpha %g: want a significance level between 0 and 1, such as 0.05", c.alpha)
	}
	if c.minPass < 0 || c.minPass > 1 {
		return usagef("--min-pass %g: want a fraction between 0 and 1 (0.9 for 90%%)", c.minPass)
	}
	if c.bar < 0 || c.bar > 1 {
		return usagef("--bar %v: want a pass rate from 0 to 1, such as 0.9", c.bar)
	}
	if c.looks < 1 || c.drop <= 0 || c.drop >= 1 || c.power <= 0 || c.power >= 1 {
		return usagef("--looks wants at least 1, --drop and --power a fraction between 0 and 1 (0.1, 0.8)")
	}
	if c.maxErrorRate <= 0 || c.maxErrorRate > 1 {
		return usagef("--max-error-rate %g: want a fraction above 0 and at most 1 (0.2 for 20%%)", c.maxErrorRate)
	}
	return nil
}

// loadShard parses --shard.
func (c *ciFlags) loadShard() error {
	if c.shard == "" {
		return nil
	}
	sh, err := pipeline.ParseShard(c.shard)
	if err != nil {
		return usagef("--shard: %v", err)
	}
	c.sh = &sh
	return nil
}

// loadOverlay loads --overlay, or for a resumed run with none given the
// overlay that run used, which must not have changed since.
func (c *ciFlags) loadOverlay(e *env, f runFlags) error {
	var resumed *record.Overlay
	if c.overlay == "" && f.resume != "" {
		// A resumed run must see the tools it saw: reuse its overlay.
		if old, err := readRun(e, f.resume); err == nil && old.Header.Overlay != nil {
			resumed = old.Header.Overlay
			c.overlay = resumed.Path
		}
	}
	if c.overlay == "" {
		return nil
	}
	ov, err := overlay.Load(c.overlay)
	if err != nil {
		return badInput(err)
	}
	if resumed != nil && ov.Hash() != resumed.Hash {
		return usagef("cannot resume %s: its overlay %s has changed since (hash %.12s, the run used %.12s); start a new run instead", f.resume, c.overlay, ov.Hash(), resumed.Hash)
	}
	c.ov = ov
	return nil
}

// loadBaseline reads the baseline run of --gate.
func (c *ciFlags) loadBaseline(e *env) error {
	if c.gate == "" {
		return nil
	}
	base, err := readRun(e, c.gate)
	if err != nil {
		return err
	}
	c.baseline = base
	return nil
}

// checkDataset checks some case of the suite is in the --dataset given,
// and names the datasets the suite has when none is.
func (c *ciFlags) checkDataset(f runFlags) error {
	if c.dataset == "" {
		return nil
	}
	s, err := loadSuite(f.suite)
	if err != nil {
		return err
	}
	var names []string
	seen := map[string]bool{}
	for _, cs := range s.Cases {
		d := s.DatasetOf(cs)
		if d == c.dataset {
			return nil
		}
		if d != "" && !seen[d] {
			seen[d] = true
			names = append(names, d)
		}
	}
	if len(names) == 0 {
		return usagef("--dataset %s: suite %s has no datasets (set dataset: on the suite or its cases)", c.dataset, s.Name)
	}
	return usagef("--dataset %s: no case of suite %s is in that dataset (it has %s)", c.dataset, s.Name, strings.Join(names, ", "))
}

// stopEarlyConfig is the sequential test --stop-early asks for; nil
// without it.
func (c *ciFlags) stopEarlyConfig() *pipeline.StopEarly {
	if !c.stopEarly {
		return nil
	}
	return &pipeline.StopEarly{Looks: c.looks, Drop: c.drop, Power: c.power}
}

// gates are the gates the CI flags set.
func (c *ciFlags) gates() pipeline.Gates {
	return pipeline.Gates{MinPass: c.minPass, Baseline: c.gate, MaxErrorRate: c.maxErrorRate}
}

// runEach runs the suite on each model given (one run each, on each
// surface) through pipeline.RunModels, then prints the comparison with the
// baseline and the ladder, writes the JUnit XML and the summary, and
// turns the gates' verdict into an exit status.
func runEach(ctx context.Context, e *env, f runFlags, fs *flagSet) error {
	models := []string(f.models)
	if len(models) == 0 {
		models = []string{pipeline.DefaultModel}
	}
	if err := f.ci.check(e, f, len(models)); err != nil {
		return err
	}
	for _, m := range models {
		if err := spendAllowed(e, m, f.spend); err != nil {
			return err
		}
	}
	surfaces, err := f.surfaceNames() // surfaces.go
	if err != nil {
		return err
	}
	if f.ci.stopEarly && len(surfaces) > 1 {
		return usagef("--stop-early stops one run: name one --surface")
	}
	h := newRunHooks(e, f, fs, len(models) > 1, len(surfaces) > 1)
	res, firstErr := pipeline.RunModels(ctx, pipeline.LadderConfig{
		Models: models, Surfaces: surfaces, Out: f.out,
		Prepare: h.prepare, Done: h.done,
		Gates: f.ci.gates(), Baseline: f.ci.baseline, Alpha: f.ci.alpha,
		StopEarly: f.ci.stopEarlyConfig(), Bar: f.ci.bar,
	})
	runs := res.Graded()
	if len(runs) == 0 {
		return firstErr
	}
	if res.Comparison != nil && !f.json {
		fmt.Fprintf(e.stdout, "\ncompared with the baseline %s\n\n", f.ci.baseline.Dir)
		compare.Text(e.stdout, res.Comparison)
	}
	if res.Ladder != nil && (len(surfaces) < 2 || !f.json) {
		printLadder(e, f, res)
	}
	if len(surfaces) > 1 {
		// Last: the table of every model on every surface ends the output.
		if err := printSurfaces(e, f, runs, res.Ladder); err != nil { // surfaces.go
			firstErr = err
			res.Comparison, res.Checked = nil, false
		}
	}
	if dc := res.Sequential; dc != nil && !dc.Early {
		fmt.Fprintf(e.stderr, "mcpeval run: sequential test: %s\n", dc)
	}
	var verdict pipeline.Verdict
	if res.Checked {
		verdict = res.Verdict
	}
	if err := writeRunsJUnit(ctx, e, f.ci.junit, runs); err != nil {
		return err
	}
	if err := writeRunsSummary(ctx, e, f.ci, runs, res.Comparison, res.Ladder, verdict, res.Checked); err != nil {
		return err
	}
	if firstErr != nil {
		return firstErr
	}
	if err := gateError(verdict); err != nil {
		return err
	}
	if err := nothingGraded(runs); err != nil {
		return err
	}
	if f.ci.gates().Set() {
		fmt.Fprintln(e.stderr, "mcpeval run: gate passed")
	}
	return nil
}

// runHooks are the command's side of pipeline.RunModels: each run's flags
// made into its configuration, its header and its end printed.
type runHooks struct {
	e, sub *env
	f      runFlags
	fs     *flagSet
	// ladder and surfaces are set when several models, or several
	// surfaces, are run.
	ladder, surfaces bool
	// cur is the run under way; failed is set once a surface's run failed.
	cur    *runState
	failed bool
}

func newRunHooks(e *env, f runFlags, fs *flagSet, ladder, surfaces bool) *runHooks {
	h := &runHooks{e: e, sub: e, f: f, fs: fs, ladder: ladder, surfaces: surfaces}
	if (ladder || surfaces) && f.json {
		quiet := *e
		quiet.stdout = io.Discard // --json prints the ladder or the table alone
		h.sub = &quiet
	}
	return h
}

// prepare heads run r's output and makes its configuration from the flags.
func (h *runHooks) prepare(ctx context.Context, r *pipeline.LadderRun) (runner.Config, pipeline.Options, error) {
	g := h.f
	g.model, g.out, g.surface = r.Model, r.Out, r.Surface
	if (h.ladder || h.surfaces) && !h.f.json {
		if r.Index > 0 {
			fmt.Fprintln(h.e.stdout)
		}
		fmt.Fprintf(h.e.stdout, "== %s ==\n", h.label(r))
	}
	cfg, opts, st, err := g.prepare(ctx, h.sub, h.fs) // run.go
	h.cur = st
	return cfg, opts, err
}

// done prints run r as it ends, and returns the error its exit calls
// for: with several surfaces the first failed run's error, the later ones
// said on stderr; in a ladder each model's error said on stderr.
func (h *runHooks) done(r *pipeline.LadderRun) error {
	err := r.Err
	if h.cur != nil {
		err = h.cur.end(r.Graded, r.Err)
		h.cur = nil
	}
	if err != nil && h.surfaces && !h.ladder {
		if h.failed {
			fmt.Fprintf(h.e.stderr, "mcpeval run: %s: %v\n", h.label(r), err)
			return nil
		}
		h.failed = true // returned, and so told, at the end
	}
	var oes overlay.Errors
	if errors.As(err, &oes) {
		err = badInput(oes)
	}
	if err == nil || !h.ladder {
		return err
	}
	return ladderRunError(h.e, h.label(r), err)
}

// label names run r in the output, made safe for a terminal: its model in
// a ladder, "surface NAME" over several surfaces, "MODEL on surface NAME"
// in a matrix of both.
func (h *runHooks) label(r *pipeline.LadderRun) string {
	switch {
	case h.ladder && h.surfaces:
		return termsafe.Line(r.Model) + " on " + surfaceLabel(r.Surface)
	case h.ladder:
		return termsafe.Line(r.Model)
	}
	return surfaceLabel(r.Surface)
}

// ladderRunError says on stderr what went wrong with the run of a ladder
// that label names (already safe for a terminal) and returns the exit the
// error calls for, its message already said.
func ladderRunError(e *env, label string, err error) error {
	var ex *exitError
	if errors.As(err, &ex) {
		if ex.msg != "" {
			fmt.Fprintf(e.stderr, "mcpeval run: %s: %s\n", label, termsafe.String(ex.msg))
		}
		return &exitError{code: ex.code}
	}
	if !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintf(e.stderr, "mcpeval run: %s: %s\n", label, termsafe.String(err.Error()))
		return &exitError{code: exitFailure}
	}
	return err
}

// printLadder prints the ladder of res (as JSON with --json), and says
// what could not be written under --out.
func printLadder(e *env, f runFlags, res *pipeline.LadderResult) {
	if f.json {
		ladder.JSON(e.stdout, res.Ladder)
	} else {
		fmt.Fprintln(e.stdout, "\nmodel ladder"+ladderSurface(res))
		ladder.Text(e.stdout, res.Ladder)
	}
	for _, err := range res.Problems {
		fmt.Fprintf(e.stderr, "mcpeval run: %v\n", err)
	}
}

// ladderSurface says which surface a ladder over several surfaces sets the
// models side by side on: " on surface NAME"; "" for one surface.
func ladderSurface(res *pipeline.LadderResult) string {
	if res.LadderSurface == "" {
		return ""
	}
	return " on " + surfaceLabel(res.LadderSurface)
}

// writeRunsJUnit writes the runs as JUnit XML to --junit, if given.
func writeRunsJUnit(ctx context.Context, e *env, path string, runs []*pipeline.Graded) error {
	if path == "" {
		return nil
	}
	var jr []report.JUnitRun
	for _, r := range runs {
		jr = append(jr, report.JUnitRun{Record: r.Record, Result: r.Result, Durations: r.WallTime})
	}
	return rundir.WriteOutput(ctx, path, e.stdout, func(w io.Writer) error { return report.JUnit(w, jr...) })
}

// writeRunsSummary appends to --summary, if given, each run's report, the
// comparison with the baseline, the ladder and the gates' verdict; checked
// is false when a run failed before the gates could be checked.
func writeRunsSummary(ctx context.Context, e *env, c ciFlags, runs []*pipeline.Graded, cmp *compare.Comparison, lad *ladder.Ladder, verdict pipeline.Verdict, checked bool) error {
	if c.summary == "" {
		return nil
	}
	return appendFile(ctx, e, c.summary, func(w io.Writer) error {
		for _, r := range runs {
			if err := report.Markdown(w, r.Result, &r.Record.Header, r.Cost); err != nil {
				return err
			}
			fmt.Fprintln(w)
		}
		if cmp != nil {
			if err := compare.Markdown(w, cmp); err != nil {
				return err
			}
			fmt.Fprintln(w)
		}
		if lad != nil {
			if err := ladder.Markdown(w, lad); err != nil {
				return err
			}
			fmt.Fprintln(w)
		}
		if srs := surfaceRuns(runs); severalSurfaces(srs) { // surfaces.go
			if err := report.SurfacesMarkdown(w, report.BuildSurfaces(srs)); err != nil {
				return err
			}
			fmt.Fprintln(w)
		}
		gateMarkdown(w, c.gates(), verdict, checked)
		return nil
	})
}

// gateError is the exit a gate verdict calls for: exitTooFew when a run
// had too few graded attempts to judge, exitGate when a gate failed, nil
// when every gate passed.
func gateError(v pipeline.Verdict) error {
	switch {
	case len(v.TooFew) > 0:
		return exitf(exitTooFew, "gate cannot pass: too few graded attempts to judge:\n  %s", strings.Join(v.Reasons(), "\n  "))
	case len(v.Failed) > 0:
		return exitf(exitGate, "gate failed:\n  %s", strings.Join(v.Failed, "\n  "))
	}
	return nil
}

// nothingGraded is exitTooFew, gate or no gate, when a run's every
// attempt ended in an error: the run measured an outage, not the model,
// and a script must be able to tell. A run on a surface is named by its
// model and its surface, as a gate's verdict names a cell of a matrix.
func nothingGraded(runs []*pipeline.Graded) error {
	var why []string
	for _, r := range runs {
		res := r.Result
		if r.Record != nil && r.Record.Header.Surface != nil {
			named := *res
			named.Model += " on surface " + termsafe.Line(r.Record.Header.Surface.Name)
			res = &named
		}
		if s := pipeline.NothingGraded(res); s != "" {
			why = append(why, s)
		}
	}
	if len(why) == 0 {
		return nil
	}
	return exitf(exitTooFew, "%s\n  the run measured an outage, not the model: see the errors in its report, and run them again with mcpeval run --resume RUN --retry-errors", strings.Join(why, "\n"))
}

// compareGate is "mcpeval compare --gate": the new run nw, compared with
// the baseline base in cmp, must have enough graded attempts to judge and
// no significant regression.
func compareGate(cmp *compare.Comparison, nw *grade.Result, base string) error {
	v := pipeline.Gates{Baseline: base}.Check([]*grade.Result{nw}, cmp)
	if len(v.TooFew) == 0 && len(v.Failed) > 0 {
		return exitf(exitGate, "gate failed: %s", strings.Join(v.Failed, "\n  "))
	}
	return gateError(v)
}

// gateMarkdown writes the gates' verdict for a Markdown summary; checked
// is false when a run failed before the gates could be checked.
func gateMarkdown(w io.Writer, g pipeline.Gates, v pipeline.Verdict, checked bool) {
	if !g.Set() {
		return
	}
	switch {
	case !checked:
		fmt.Fprint(w, "**Gate not checked:** the run did not finish as planned (see above), so it cannot pass a gate.\n\n")
		return
	case v.Passed():
		fmt.Fprint(w, "**Gate passed.**\n\n")
		return
	case len(v.TooFew) > 0:
		fmt.Fprint(w, "**Gate cannot pass: too few graded attempts to judge:**\n\n")
	default:
		fmt.Fprint(w, "**Gate failed:**\n\n")
	}
	for _, s := range v.Reasons() {
		fmt.Fprintf(w, "- %s\n", report.EscapeMarkdown(strings.TrimSpace(s)))
	}
	fmt.Fprintln(w)
}

// appendFile appends what write writes to the file path names, creating
// it if needed (as GitHub's $GITHUB_STEP_SUMMARY expects); "-" is stdout.
func appendFile(ctx context.Context, e *env, path string, write func(io.Writer) error) error {
	if err := rundir.AppendOutput(ctx, path, e.stdout, write); err != nil {
		return fmt.Errorf("writing summary: %w", err)
	}
	return nil
}

// checkOutputs checks the files a command's output flags name (an empty
// one is not given) before the command starts any work.
func checkOutputs(paths ...string) error {
	for _, p := range paths {
		if p == "" {
			continue
		}
		if err := rundir.CheckOutput(p); err != nil {
			return badInput(err)
		}
	}
	return nil
}

// writeJUnit writes one graded run as JUnit XML to the file path names
// ("-": stdout).
func writeJUnit(ctx context.Context, e *env, path string, run report.JUnitRun) error {
	return rundir.WriteOutput(ctx, path, e.stdout, func(w io.Writer) error { return report.JUnit(w, run) })
}
