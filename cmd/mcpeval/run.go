package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/audit"
	"github.com/mcpeval/mcpeval/internal/buildinfo"
	"github.com/mcpeval/mcpeval/internal/compare"
	"github.com/mcpeval/mcpeval/internal/export"
	"github.com/mcpeval/mcpeval/internal/judge"
	"github.com/mcpeval/mcpeval/internal/pipeline"
	"github.com/mcpeval/mcpeval/internal/provider"
	"github.com/mcpeval/mcpeval/internal/rundir"
	"github.com/mcpeval/mcpeval/internal/termsafe"
	"github.com/mcpeval/mcpeval/internal/usage"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/fake"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/runner"
	"github.com/mcpeval/mcpeval/suite"
	"github.com/mcpeval/mcpeval/target"
)

const runHelp = `
Usage: mcpeval run [--suite PATH] [--target SPEC] [--model SPEC] [flags]

Puts every case of a suite to a model, the suite's number of attempts each,
over the target's real MCP tools; records every attempt; grades the record.

  --suite    a suite file or directory, or an embedded suite by name
             (default: the embedded household suite)
  --target   builtin:NAME, stdio:COMMAND ARGS..., or http(s)://HOST/mcp
             (default: the suite's target); for a suite of several servers
             (targets:), NAME=SPEC replaces the server NAME alone, repeatable
  --model    fake:perfect (default), fake:refuse, fake:invent, script:FILE,
             anthropic:MODEL, openai:MODEL, gemini:MODEL, bedrock:MODEL_ID,
             azure-openai:DEPLOYMENT, anthropic-bedrock:MODEL_ID or
             anthropic-vertex:MODEL (docs/models.md), with options after
             semicolons:
             "anthropic:claude-sonnet-4-5;effort=medium;max_tokens=8192"

A suite that declares surfaces (docs/targets.md) is run on each of them,
or on those --surface names, each in its own run directory (--out/SURFACE),
and the surfaces are set side by side at the end (mcpeval surfaces). With
several --model every model is run on every surface (--out/MODEL/SURFACE):
the ladder on the first surface, then the table of the whole matrix.

The record is written to --out (default ROOT/runs/RUN_ID, the output root
below) and never overwritten.
--resume RUN runs the attempts an interrupted run lacks, with the budget,
concurrency, turn cap and target pool it was given (a flag given again
overrides one, and the run says which); --retry-errors also runs again those that ended in error (the
record keeps them, superseded by the new ones). One process at a time
writes a run: a second is refused, naming the first's PID.
With --json the summary is printed as JSON on stdout.
A run in which every attempt ended in an error (the provider or the server
was down) exits 6, gate or no gate: it measured an outage, not the model.
--batch sends a dataset of tool-call cases through the provider's batch
API (anthropic, openai) at its batch price, about half: one batch, polled
until it ends (minutes to 24 hours); --resume RUN reads the same batch again.
`

func init() {
	register(&command{name: "run", summary: "put a suite to a model over a target, record and grade it", run: runCmd, gc: limitHeap})
}

type runFlags struct {
	suite, model, out, outRoot   string
	target                       targetFlag
	attempts, concurrency, turns int
	json                         bool
	cases                        stringList
	callTimeout                  time.Duration
	quiet                        bool
	resume                       string
	retryErrors                  bool
	spend                        bool
	budgetTokens                 int64
	budgetUSD                    float64
	judge                        string
	judgeAsks                    int
	prices                       pricesFlag
	headers, envs                repeated
	connect                      connectTimeout
	otlp                         string
	otlpContent                  bool
	targetPool                   int
	batch                        bool
	allowAnyTarget               bool
	// surfaces are those --surface names, surface the one this run
	// measures (surfaces.go).
	surfaces stringList
	surface  string
	// ungraded is set by a --resume of a run that ended but was never
	// graded: it is graded, and nothing is run.
	ungraded bool
	// models and ci are run's model ladder and CI features (ci.go).
	models modelList
	ci     ciFlags
}

func runCmd(ctx context.Context, e *env, args []string) error {
	var f runFlags
	fs := newFlags(e, "run", runHelp+outRootHelp+ciHelp)
	fs.StringVar(&f.suite, "suite", "", "suite `PATH` or embedded suite name")
	f.target.register(fs.FlagSet)
	fs.Var(&f.headers, "target-header", "send `NAME: VALUE` to an HTTP target; ${VAR} in VALUE is read from the environment and never recorded; repeatable")
	fs.Var(&f.envs, "target-env", "set `KEY=VALUE` for a stdio target; ${VAR} in VALUE is read from the environment; repeatable")
	f.connect.register(fs.FlagSet)
	fs.Var(&f.surfaces, "surface", "run on the suite's surface `NAME` (default: every surface it declares, each in its own run directory, side by side); repeatable")
	fs.Var(&f.models, "model", "model `SPEC` (default fake:perfect); repeat for a model ladder, strongest first")
	f.ci.register(fs.FlagSet)
	fs.StringVar(&f.out, "out", "", "run `DIR` (default ROOT/runs/RUN_ID: see --out-root)")
	fs.StringVar(&f.outRoot, "out-root", "", outRootUsage)
	fs.IntVar(&f.attempts, "attempts", 0, "attempts per case (default: the suite's, else 3)")
	fs.IntVar(&f.concurrency, "concurrency", 4, "attempts run at once")
	fs.IntVar(&f.turns, "turn-cap", 0, "most model turns per attempt (default: the suite's, else 8)")
	fs.BoolVar(&f.json, "json", false, "print the summary as JSON on stdout")
	fs.Var(&f.cases, "case", "run only this case `ID` (or group/ prefix); repeatable")
	fs.DurationVar(&f.callTimeout, "call-timeout", 60*time.Second, "longest a tool call may take")
	fs.BoolVar(&f.quiet, "quiet", false, "no progress on stderr")
	fs.BoolVar(&f.spend, "spend", false, "allow calls to a paid model API (or set MCPEVAL_SPEND=yes)")
	fs.Int64Var(&f.budgetTokens, "budget-tokens", 2_000_000, "stop starting attempts, and asking the judge, once this many tokens are billed, the judge's included (0: no limit)")
	floatVar(fs.FlagSet, &f.budgetUSD, "budget-usd", 0, "stop starting attempts, and asking the judge, once this many dollars are spent, the judge's at its own price (0: no limit)")
	fs.StringVar(&f.judge, "judge", "", "ask an advisory judge `SPEC` whether decline answers decline (never changes a grade; fake:phrases for a free one)")
	fs.StringVar(&f.resume, "resume", "", "continue the interrupted run in `RUN`: run exactly the attempts it lacks")
	fs.StringVar(&f.otlp, "otlp", "", "send each attempt as OpenTelemetry traces to the OTLP/HTTP `ENDPOINT` as it is recorded (\"env\": the OTEL_EXPORTER_OTLP_* variables); a dead collector costs a warning, never the run")
	fs.IntVar(&f.targetPool, "target-pool", 0, "server connections a read-only suite's attempts share (default 2; -1: one per concurrency slot)")
	fs.BoolVar(&f.otlpContent, "otlp-content", false, "with --otlp: send prompts, answers, tool arguments and results too (redacted as for publishing)")
	fs.IntVar(&f.judgeAsks, "judge-asks", 0, "ask the judge `N` times about each answer of a case with a rubric, keeping the majority (default: the suite's judge_asks, else 3)")
	fs.BoolVar(&f.batch, "batch", false, "send the attempts through the provider's batch API at its batch price (tool-call cases only; anthropic and openai)")
	fs.BoolVar(&f.allowAnyTarget, "allow-any-target", false, "run a suite's action cases on a target its actions.allow_targets does not name (the record says so, and publish refuses the run)")
	fs.BoolVar(&f.retryErrors, "retry-errors", false, "with --resume: also run again the attempts that ended in error (the record keeps them, superseded)")
	f.prices.register(fs.FlagSet)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("unexpected argument %q (flags only; see mcpeval help run)", pos[0])
	}
	if setFlag(fs, "turn-cap") && f.turns < 1 {
		return usagef("--turn-cap %d: an attempt needs at least 1 model turn (leave the flag out for the suite's cap, else 8)", f.turns)
	}
	return runEach(ctx, e, f, fs)
}

// runState is what the preparation of one run started that its end
// closes, and what the run is printed with.
type runState struct {
	ctx    context.Context
	e      *env
	f      runFlags
	prices *usage.Prices
	prog   *progress
	exp    *export.Live
	// chosenOut is the run directory the output root chose (none given
	// with --out): removed again if nothing was recorded in it.
	chosenOut string
}

// prepare makes the run of the suite on one model, f.model, on one
// surface, f.surface: it checks the flags, reads the run to resume, opens
// the model and the judge, warns, and starts the progress display and the
// exporter. pipeline.RunModels runs what it returns; end prints it.
func (f runFlags) prepare(ctx context.Context, e *env, fs *flagSet) (runner.Config, pipeline.Options, *runState, error) {
	var none runner.Config
	if err := f.checkValues(); err != nil {
		return none, pipeline.Options{}, nil, err
	}
	resume, err := f.prepareResume(e, fs)
	if err != nil {
		return none, pipeline.Options{}, nil, err
	}
	s, tcfg, err := f.suiteAndTarget()
	if err != nil {
		return none, pipeline.Options{}, nil, err
	}
	warn := func(s string) { fmt.Fprintf(e.stderr, "mcpeval run: warning: %s\n", termsafe.Line(s)) }
	if f.ungraded {
		// Killed between its end line and its grades: the pipeline grades
		// it as its run would have, without opening the model.
		prices, err := f.prices.load()
		if err != nil {
			return none, pipeline.Options{}, nil, err
		}
		fmt.Fprintf(e.stderr, "mcpeval run: %s ended but was never graded: grading it\n", termsafe.Line(resume.Dir))
		st := &runState{ctx: ctx, e: e, f: f, prices: prices}
		return runner.Config{Suite: s, Resume: resume}, pipeline.Options{Prices: prices, Warn: warn}, st, nil
	}
	sf, tcfg, err := f.onSurface(s, tcfg, resume) // surfaces.go
	if err != nil {
		return none, pipeline.Options{}, nil, err
	}
	if err := demoSuiteRefusal(f.model, f.suite); err != nil {
		return none, pipeline.Options{}, nil, err
	}
	if err := spendAllowed(e, f.model, f.spend); err != nil {
		return none, pipeline.Options{}, nil, err
	}
	for _, u := range s.UserModels() { // a simulated user's model spends too
		if err := spendAllowed(e, u, f.spend); err != nil {
			return none, pipeline.Options{}, nil, err
		}
	}
	if spec := pipeline.SamplerSpec(s); spendAllowed(e, spec, f.spend) != nil {
		return none, pipeline.Options{}, nil, usagef("the suite's sampling model %s calls a paid model API and nothing has been sent: allow spending with --spend or MCPEVAL_SPEND=yes", spec)
	}
	o, err := f.open(e, s)
	if err != nil {
		return none, pipeline.Options{}, nil, err
	}
	cfg := f.config(s, tcfg, o, resume)
	cfg.Surface = sf
	chosen, err := f.defaultOut(e, &cfg) // outroot.go
	if err != nil {
		return none, pipeline.Options{}, nil, err
	}
	// One model's run is graded as a stream, never held; a ladder's and a
	// surface comparison's runs are kept whole.
	cfg.Lean = len(f.models) <= 1 && len(f.surfaces) == 0 && f.surface == ""
	if err := f.batchOptions(e, &cfg); err != nil {
		return none, pipeline.Options{}, nil, err
	}
	cfg.Warn = warn
	for _, w := range append(audit.CleanupWarnings(s), audit.SharedStateWarnings(s, f.concurrency)...) {
		fmt.Fprintf(e.stderr, "mcpeval run: warning: %s\n", termsafe.Line(w))
	}
	if name, ok := strings.CutPrefix(f.model, "fake:"); ok {
		if w := fake.Warning(name, s); w != "" {
			fmt.Fprintf(e.stderr, "mcpeval run: warning: %s\n", termsafe.Line(w))
		}
	}
	prog := newProgress(e, s, !f.quiet && e.isTerminal)
	cfg.Progress = prog.update
	exp, err := f.exporter(e, s, &cfg)
	if err != nil {
		return none, pipeline.Options{}, nil, err
	}
	if !f.json && !f.quiet && f.model == "fake:perfect" {
		fmt.Fprintln(e.stderr, "mcpeval: running with fake:perfect, which replays each case's key; choose a real model with --model (see mcpeval help run)")
	}
	st := &runState{ctx: ctx, e: e, f: f, prices: o.prices, prog: prog, exp: exp}
	if chosen {
		st.chosenOut = cfg.OutDir
	}
	opts := pipeline.Options{Judge: o.judge, JudgeAsks: f.judgeAsks, JudgeBudget: o.budget, Prices: o.prices, RetryErrors: f.retryErrors, Warn: warn}
	return cfg, opts, st, nil
}

// end closes what prepare started, prints the graded run g (nil when there
// was no record) and turns how it ended into an exit status.
func (st *runState) end(g *pipeline.Graded, err error) error {
	if st.prog != nil {
		st.prog.done()
	}
	closeExporter(st.ctx, st.e, st.exp)
	if g == nil {
		if st.chosenOut != "" {
			os.Remove(st.chosenOut) // nothing was recorded: leave no empty folder
		}
		return err
	}
	return st.f.finish(st.e, g, err, st.prices)
}

// checkOutDir refuses an --out that cannot be a run's folder: one that
// names a file, a FIFO or a device (/dev/null), or lies under one.
func checkOutDir(out string) error {
	for p := filepath.Clean(out); ; p = filepath.Dir(p) {
		st, err := os.Stat(p)
		if err == nil {
			if st.IsDir() {
				return nil
			}
			what := "a file"
			switch {
			case st.Mode()&os.ModeNamedPipe != 0:
				what = "a FIFO"
			case st.Mode()&os.ModeDevice != 0:
				what = "a device"
			}
			if p == filepath.Clean(out) {
				return usagef("--out %s: it is %s, not a folder: name a folder for the run (it is created if missing)", out, what)
			}
			return usagef("--out %s: %s is %s, not a folder", out, p, what)
		}
		if parent := filepath.Dir(p); parent == p {
			return nil
		}
	}
}

// maxConcurrency caps --concurrency: more attempts at once than this
// would only queue at the provider.
const maxConcurrency = 1024

// checkValues refuses flag values no run can use, before anything is read.
func (f *runFlags) checkValues() error {
	if f.attempts < 0 || f.concurrency < 1 || f.turns < 0 {
		return usagef("--attempts and --turn-cap must not be negative, --concurrency must be at least 1")
	}
	if f.concurrency > maxConcurrency {
		return usagef("--concurrency %d: at most %d attempts run at once (a provider's rate limit is reached long before; mcpeval backs off from it by itself)", f.concurrency, maxConcurrency)
	}
	if f.callTimeout <= 0 {
		return usagef("--call-timeout %v: a tool call needs a positive time limit (e.g. 60s)", f.callTimeout)
	}
	if f.out != "" && f.outRoot != "" {
		return usagef("--out names the run's folder itself: --out-root does not go with it")
	}
	if f.out != "" {
		if err := checkOutDir(f.out); err != nil {
			return err
		}
		if _, err := os.Lstat(filepath.Join(f.out, record.FileName)); err == nil {
			return usagef("--out %s already holds a record: a run never overwrites another (choose another --out, or --resume it)", f.out)
		}
	}
	if f.retryErrors && f.resume == "" {
		return usagef("--retry-errors goes with --resume RUN: it runs again the errored attempts of that run")
	}
	if f.judgeAsks < 0 || (f.judgeAsks > 0 && f.judge == "") {
		return usagef("--judge-asks wants a positive number and goes with --judge SPEC")
	}
	if f.budgetTokens < 0 || f.budgetUSD < 0 {
		return usagef("--budget-tokens and --budget-usd must not be negative")
	}
	if f.otlpContent && f.otlp == "" {
		return usagef("--otlp-content goes with --otlp")
	}
	return nil
}

// prepareResume reads the run --resume names, refuses one with nothing
// left to run, and takes its suite, model and budget unless flags say
// otherwise. It returns nil without --resume.
func (f *runFlags) prepareResume(e *env, fs *flagSet) (*record.Run, error) {
	if f.resume == "" {
		return nil, nil
	}
	if f.out != "" || f.attempts != 0 || len(f.cases) > 0 {
		return nil, usagef("--resume continues a run as it was planned: --out, --attempts and --case do not go with it")
	}
	resume, err := readRun(e, f.resume)
	if err != nil {
		return nil, err
	}
	left := resume
	if f.retryErrors {
		left = pipeline.WithoutErrors(resume)
	}
	if left.Complete() && neverGraded(resume.Dir) {
		// Killed between its end line and its grades: grade it.
		f.ungraded = true
	} else if left.Complete() {
		hint := ""
		if !f.retryErrors && len(left.Attempts) > len(pipeline.WithoutErrors(resume).Attempts) {
			hint = " (to run its errored attempts again, add --retry-errors)"
		}
		return nil, usagef("%s is complete: nothing to resume%s", f.resume, hint)
	}
	if f.suite == "" {
		if f.suite, err = resume.Header.Suite.Locate(resume.Dir); err != nil {
			return nil, badInput(err)
		}
	}
	if !setFlag(fs, "model") {
		f.model = resume.Header.Model.Spec
	}
	for _, m := range f.resumeSettings(fs, &resume.Header) {
		fmt.Fprintf(e.stderr, "mcpeval run: --resume %s: %s\n", termsafe.Line(f.resume), m)
	}
	return resume, nil
}

// neverGraded reports whether run directory dir holds no grades; the
// grades of a large run are not read to find out.
func neverGraded(dir string) bool { return !rundir.Graded(dir) }

// overrides returns the target flags as runner.ResolveTarget takes them,
// for the target of surface sf (nil: the suite's).
func (f *runFlags) overrides(sf *suite.Surface) runner.TargetOverrides {
	return runner.TargetOverrides{Surface: sf, Specs: f.target, Headers: f.headers, Env: f.envs, ConnectTimeout: time.Duration(f.connect)}
}

// suiteAndTarget loads the suite and resolves its target with the target
// flags, refusing a suite with nothing to run, a --case it lacks and a
// gate against an unrelated baseline, all before any model request.
func (f *runFlags) suiteAndTarget() (*suite.Suite, target.Config, error) {
	s, err := loadSuite(f.suite)
	if err != nil {
		return nil, target.Config{}, err
	}
	if len(s.Cases) == 0 {
		// validate accepts a suite still being written; a run of it
		// measures nothing.
		return nil, target.Config{}, usagef("%s: suite %s has no cases: nothing to run (add cases; see mcpeval validate)", s.SettingLine("cases"), s.Name)
	}
	tcfg, err := resolveTarget(s, f.overrides(nil))
	if err != nil {
		return nil, tcfg, err
	}
	for _, c := range f.cases {
		if !anySelected(s, c) {
			return nil, tcfg, usagef("--case %s: no case of suite %s has that id or group", c, s.Name)
		}
	}
	if base := f.ci.baseline; base != nil {
		// A gate on unrelated runs would pass or fail on nothing.
		var ids []string
		for _, c := range s.Cases {
			if len(f.cases) == 0 || runner.Selected(c.ID, f.cases) {
				ids = append(ids, c.ID)
			}
		}
		if err := compare.Related(base.Header.Suite.Name, compare.PlannedCases(base), s.Name, ids); err != nil {
			return nil, tcfg, usagef("--gate %s: %v", base.Dir, err)
		}
	}
	return s, tcfg, nil
}

// opened is what a run opens before it starts: the model, the price
// tables, the advisory judge and the budget.
type opened struct {
	model model.Model
	info  model.Info
	// sampler answers the servers' sampling requests when the suite names
	// a model for them (sampling.model); nil: the model under test.
	sampler     model.Model
	samplerInfo model.Info
	prices      *usage.Prices
	judge       judge.Judge
	budget      *usage.Budget
}

func (f *runFlags) open(e *env, s *suite.Suite) (*opened, error) {
	m, info, err := provider.Open(f.model, provider.Options{Suite: s})
	if err != nil {
		return nil, badInput(err)
	}
	o := &opened{model: m, info: info}
	if o.sampler, o.samplerInfo, err = pipeline.OpenSampler(s); err != nil {
		return nil, badInput(err)
	}
	if o.prices, err = f.prices.load(); err != nil {
		return nil, err
	}
	if f.judge != "" {
		if o.judge, err = openJudge(e, f.judge, f.spend); err != nil {
			return nil, err
		}
	}
	sampler := pipeline.SamplerSpec(s)
	if provider.Real(f.model) || provider.Real(f.judge) || provider.Real(sampler) || slices.ContainsFunc(s.UserModels(), provider.Real) {
		// A paid judge's asks, a paid sampling model's answers and a paid
		// user model's turns count against the budget too.
		o.budget = &usage.Budget{Tokens: f.budgetTokens, USD: f.budgetUSD, Prices: o.prices}
		if _, ok := o.prices.Lookup(o.samplerInfo.Provider, o.samplerInfo.Name); !ok && f.budgetUSD > 0 && provider.Real(sampler) {
			return nil, usagef("--budget-usd: the suite's sampling model %s is not in the price table, so its spending cannot be counted in dollars; use --budget-tokens", sampler)
		}
		if p, ok := o.prices.Lookup(info.Provider, info.Name); ok {
			o.budget.Price = &p
		} else if f.budgetUSD > 0 && provider.Real(f.model) {
			return nil, usagef("--budget-usd: %s is not in the price table, so its spending cannot be counted in dollars; use --budget-tokens", f.model)
		}
		if err := judgePriced(f.judge, f.budgetUSD, o.prices); err != nil {
			return nil, err
		}
		for _, u := range s.UserModels() {
			if err := userPriced(u, f.budgetUSD, o.prices); err != nil {
				return nil, err
			}
		}
		o.budget.Prices = o.prices
	}
	return o, nil
}

// config is the runner's configuration for this run.
func (f *runFlags) config(s *suite.Suite, tcfg target.Config, o *opened, resume *record.Run) runner.Config {
	cfg := runner.Config{
		Suite: s, Target: tcfg, Model: o.model, ModelInfo: o.info,
		Attempts: f.attempts, Concurrency: f.concurrency, TurnCap: f.turns,
		Cases: f.cases, OutDir: f.out, Build: buildinfo.Get(), CallTimeout: f.callTimeout,
		Resume: resume, TargetPool: f.targetPool, AllowAnyTarget: f.allowAnyTarget,
		Sampler: o.sampler, SamplerInfo: o.samplerInfo,
	}
	if resume == nil {
		cfg.Extra = budgetExtra(f.budgetTokens, f.budgetUSD)
	}
	if provider.Real(f.model) {
		cfg.Prices = o.prices.Stamp(o.info.Provider, o.info.Name)
	}
	// The pipeline builds the suite's fixtures and fresh targets itself.
	f.ci.configure(&cfg)
	if o.budget != nil {
		cfg.BeforeAttempt = o.budget.Exceeded
		cfg.AfterAttempt = o.budget.Spend
	}
	return cfg
}

// finish prints the graded run and turns how it ended into an exit status.
func (f *runFlags) finish(e *env, g *pipeline.Graded, err error, prices *usage.Prices) error {
	rec, res := g.Record, g.Result
	for _, perr := range g.Problems {
		fmt.Fprintf(e.stderr, "mcpeval run: %v\n", perr)
	}
	tellDisagreements(e, g)
	if perr := printCost(e, f.json, false, res, rec, g.Cost); perr != nil {
		return perr
	}
	if g.Usage != nil && !f.json {
		fmt.Fprintln(e.stdout)
		usage.Text(e.stdout, g.Usage)
	}
	switch {
	case errors.Is(err, runner.ErrInvalid):
		return exitf(exitInvalid, "%v\n%s", err, preflightProblems(rec))
	case err != nil:
		return exitf(exitIncomplete, "%v; the record %s keeps every finished attempt; continue it with:\n  mcpeval run --resume %s", err, rec.Dir, rec.Dir)
	case !rec.Complete() && strings.HasPrefix(rec.End.Reason, runner.StoppedEarly):
		// --stop-early: the sequential test decided; the gate reads it.
		fmt.Fprintf(e.stderr, "mcpeval run: %s (%d of %d planned attempts recorded)\n", termsafe.Line(rec.End.Reason), g.Attempts, len(rec.Header.Planned))
	case !rec.Complete() && strings.HasPrefix(rec.End.Reason, runner.StoppedMoved):
		return exitf(exitIncomplete, "run stopped: %s\nthe record %s keeps every finished attempt; name the server's new URL as the target", rec.End.Reason, rec.Dir)
	case !rec.Complete():
		return exitf(exitIncomplete, "run incomplete (%s); the record %s keeps every finished attempt; continue it with:\n  mcpeval run --resume %s", rec.End.Reason, rec.Dir, rec.Dir)
	}
	return derivedProblems(g)
}

// derivedProblems fails a command whose derived files (grades, usage,
// the judge's opinions) could not all be read or written, each problem
// already said: no gate may pass on grades that are not on disk.
func derivedProblems(g *pipeline.Graded) error {
	if len(g.Problems) == 0 {
		return nil
	}
	return exitf(exitFailure, "%s: the files above could not be read or written; the record is safe, and mcpeval score %s writes them again", g.Record.Dir, g.Record.Dir)
}

// userPriced refuses a dollar budget a paid user model (a case's user:)
// could not be held to: its price is not in the tables.
func userPriced(spec string, budgetUSD float64, prices *usage.Prices) error {
	if budgetUSD <= 0 || !provider.Real(spec) {
		return nil
	}
	info, err := model.ParseSpec(spec)
	if err != nil {
		return badInput(fmt.Errorf("user model: %w", err))
	}
	if _, ok := prices.Lookup(info.Provider, info.Name); !ok {
		return usagef("--budget-usd: user model %s is not in the price table, so its turns cannot be counted in dollars; use --budget-tokens, or price it with --prices FILE", spec)
	}
	return nil
}

// spendAllowed refuses a paid provider unless the user said so, before any
// request is made.
func spendAllowed(e *env, spec string, flagged bool) error {
	if !provider.Real(spec) || flagged || e.getenv("MCPEVAL_SPEND") == "yes" {
		return nil
	}
	return usagef("%s calls a paid model API and nothing has been sent: allow spending with --spend or MCPEVAL_SPEND=yes (the run stops at --budget-tokens, 2,000,000 by default)", spec)
}

// setFlag reports whether the flag name was given.
func setFlag(fs *flagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == name {
			set = true
		}
	})
	return set
}

func anySelected(s *suite.Suite, filter string) bool {
	for _, c := range s.Cases {
		if runner.Selected(c.ID, []string{filter}) {
			return true
		}
	}
	return false
}

func preflightProblems(rec *record.Run) string {
	var b strings.Builder
	for _, c := range rec.Header.Preflight.Checks {
		for _, p := range c.Problems {
			fmt.Fprintf(&b, "  preflight %s: %s\n", c.Tool, p)
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// progress shows a one-line progress display on a terminal.
type progress struct {
	mu      sync.Mutex
	e       *env
	on      bool
	s       *suite.Suite
	counts  map[grade.Outcome]int
	started time.Time
	shown   bool
}

func newProgress(e *env, s *suite.Suite, on bool) *progress {
	return &progress{e: e, s: s, on: on, counts: map[grade.Outcome]int{}, started: time.Now()}
}

func (p *progress) update(pr runner.Progress) {
	if !p.on {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if c := p.s.Case(pr.Attempt.Case); c != nil {
		p.counts[grade.Attempt(p.s, c, pr.Header, pr.Attempt).Outcome]++
	}
	p.shown = true
	fmt.Fprintf(p.e.stderr, "\r\x1b[K[%d/%d] pass %d  fail %d  error %d  %s  %s #%d",
		pr.Done, pr.Total, p.counts[grade.Pass], p.counts[grade.Fail], p.counts[grade.Error],
		time.Since(p.started).Round(time.Second), termsafe.Line(pr.Attempt.Case), pr.Attempt.N)
}

func (p *progress) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.on && p.shown {
		fmt.Fprint(p.e.stderr, "\r\x1b[K")
	}
}

// budgetKey is the key of record.Header.Extra under which a run records
// the budget it was given, for its resume.
const budgetKey = "budget"

// runBudget is a run's budget as its header records it.
type runBudget struct {
	Tokens int64   `json:"tokens"`
	USD    float64 `json:"usd,omitempty"`
}

func budgetExtra(tokens int64, usd float64) map[string]json.RawMessage {
	b, _ := json.Marshal(runBudget{Tokens: tokens, USD: usd})
	return map[string]json.RawMessage{budgetKey: b}
}

// resumeSettings takes the settings the resumed run recorded (its
// concurrency, turn cap, target pool and budget) unless a flag gives
// another, and returns one line for each flag that overrode a recorded
// setting.
func (f *runFlags) resumeSettings(fs *flagSet, h *record.Header) []string {
	var said []string
	keep := func(flagName, what string, recorded int, v *int) {
		switch {
		case !setFlag(fs, flagName):
			*v = recorded
		case *v != recorded:
			said = append(said, fmt.Sprintf("--%s %d overrides the recorded %s %d", flagName, *v, what, recorded))
		}
	}
	if h.Concurrency > 0 {
		keep("concurrency", "concurrency", h.Concurrency, &f.concurrency)
	}
	if h.TurnCap > 0 {
		keep("turn-cap", "turn cap", h.TurnCap, &f.turns)
	}
	if h.TargetPool != 0 {
		keep("target-pool", "target pool", h.TargetPool, &f.targetPool)
	}
	if b, ok := recordedBudget(h); ok {
		if setFlag(fs, "budget-tokens") && f.budgetTokens != b.Tokens {
			said = append(said, fmt.Sprintf("--budget-tokens %d overrides the recorded budget of %d tokens", f.budgetTokens, b.Tokens))
		}
		if setFlag(fs, "budget-usd") && f.budgetUSD != b.USD {
			said = append(said, fmt.Sprintf("--budget-usd %g overrides the recorded budget of $%g", f.budgetUSD, b.USD))
		}
	}
	f.resumeBudget(fs, h)
	return said
}

// resumeBudget makes the budget the run with header h was given hold for
// its resume, unless the flags give it again.
func (f *runFlags) resumeBudget(fs *flagSet, h *record.Header) {
	b, ok := recordedBudget(h)
	if !ok {
		return
	}
	if !setFlag(fs, "budget-tokens") {
		f.budgetTokens = b.Tokens
	}
	if !setFlag(fs, "budget-usd") {
		f.budgetUSD = b.USD
	}
}

// recordedBudget returns the budget header h records, if any.
func recordedBudget(h *record.Header) (runBudget, bool) {
	var b runBudget
	raw, ok := h.Extra[budgetKey]
	if !ok || json.Unmarshal(raw, &b) != nil {
		return runBudget{}, false
	}
	return b, true
}

// exporter starts the OpenTelemetry exporter --otlp asks for and has it
// told of every finished attempt, off the attempt's path; nil without
// --otlp.
func (f *runFlags) exporter(e *env, s *suite.Suite, cfg *runner.Config) (*export.Live, error) {
	if f.otlp == "" {
		return nil, nil
	}
	endpoint := f.otlp
	if endpoint == "env" {
		endpoint = ""
	} else if err := export.CheckEndpoint(endpoint); err != nil {
		return nil, usagef("--otlp %s: %v", endpoint, err)
	}
	exp, err := export.NewLive(s, export.Options{
		Endpoint: endpoint, Content: f.otlpContent,
		Warn: func(m string) { fmt.Fprintf(e.stderr, "mcpeval run: warning: %s\n", termsafe.Line(m)) },
	})
	if err != nil {
		return nil, badInput(fmt.Errorf("--otlp: %w", err))
	}
	progress := cfg.Progress
	cfg.Progress = func(p runner.Progress) {
		if progress != nil {
			progress(p)
		}
		exp.Attempt(p.Header, p.Attempt)
	}
	return exp, nil
}

// closeExporter sends what the exporter still holds, for a few seconds at
// most, and says what it could not send: mcpeval export RUN --otlp sends
// it again from the record.
func closeExporter(ctx context.Context, e *env, exp *export.Live) {
	if exp == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if st := exp.Close(ctx); st.NotSent() > 0 {
		fmt.Fprintf(e.stderr, "mcpeval run: warning: OpenTelemetry: %s (send them again with mcpeval export RUN --otlp)\n", st.String())
	}
}

// batchOptions sets the batch path up with --batch, or for a resumed run
// whose record names batches, and refuses a run no batch API can take.
func (f *runFlags) batchOptions(e *env, cfg *runner.Config) error {
	if !f.batch && (cfg.Resume == nil || len(cfg.Resume.Header.Batches) == 0) {
		return nil
	}
	cfg.Batch = &runner.BatchOptions{Status: func(line string) {
		if !f.quiet {
			fmt.Fprintf(e.stderr, "mcpeval run: %s\n", termsafe.Line(line))
		}
	}}
	if err := runner.CheckBatch(*cfg); err != nil {
		return usagef("--batch: %v", err)
	}
	return nil
}
