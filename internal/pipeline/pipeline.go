package pipeline

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/fixture"
	"github.com/mcpeval/mcpeval/internal/judge"
	"github.com/mcpeval/mcpeval/internal/rundir"
	"github.com/mcpeval/mcpeval/internal/usage"
	"github.com/mcpeval/mcpeval/internal/usage/price"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/runner"
	"github.com/mcpeval/mcpeval/suite"
)

// Options say what Run and Score do besides grading. The zero value grades
// and writes every derived file, asking no judge.
type Options struct {
	// Judge, when set, is asked whether the run's decline answers decline,
	// and reads the answers of the cases with a rubric against it. An
	// attempt the run directory already holds its model's opinion on (the
	// same rubric prompt too, for a ruling) is not asked again
	// (judge.Resume): a resumed run asks only about its new attempts.
	// The opinions, old and new, are stored and attached to the grades;
	// a decline opinion never changes one.
	Judge judge.Judge
	// Rejudge asks Judge about every attempt again, even those it already
	// gave an opinion on; what the replaced opinions cost stays counted.
	Rejudge bool
	// JudgeConcurrency is how many answers are put to the judge at once;
	// 0 means 4.
	JudgeConcurrency int
	// JudgeAsks is how many times the judge is asked about each answer of
	// a case with a rubric, the majority kept; 0 means the suite's
	// judge_asks, else 3.
	JudgeAsks int
	// JudgeBudget, when set, counts the judge's tokens with the run's, and
	// the judge is asked no more once it is spent (a question not asked is
	// an abstention, recorded).
	JudgeBudget *usage.Budget
	// Prices price the run's usage; nil means the built-in tables.
	Prices *price.Set
	// RetryErrors, with a resumed run (runner.Config.Resume), runs again
	// every attempt of it that ended in error, besides those it lacks. The
	// new attempts are appended; the record keeps the errored ones, which
	// the new ones supersede (record.Run.Superseded).
	RetryErrors bool
	// Warn, when set, is told of what is worth knowing and changes nothing
	// (a stale lock taken over).
	Warn func(string)
}

// ErrNothingToResume is returned by Run for a resumed run that, read again
// under its lock, has nothing left to run and has been graded.
var ErrNothingToResume = errors.New("nothing to resume")

// Graded is a graded run and what was derived from it.
type Graded struct {
	Suite *suite.Suite
	// Record is the run as read. For a run graded as a stream
	// (ScoreStream) it holds no attempts: Attempts counts them.
	Record *record.Run
	// Attempts counts the run's attempts (len(Record.Attempts) for a run
	// read whole).
	Attempts int
	// Result is the graded run, action columns included, as grades.json
	// holds it.
	Result *grade.Result
	// Cost is what the run cost, in all, per attempt and per passing
	// attempt, as results show it.
	Cost *usage.Cost
	// WallTime is the attempts' wall time summed per case.
	WallTime map[string]time.Duration
	// Usage is what the run cost, for a real model; nil for a fake one,
	// whose usage says nothing.
	Usage *usage.Summary
	// Disagreements are the attempts the advisory judge reads otherwise
	// than the grade (judge.Disagreements): where reviewers start.
	Disagreements []string
	// Split are the attempts whose judge's asks disagreed with each other
	// (judge.Split), the majority kept.
	Split []string
	// JudgeUsage and JudgeCostUSD are what the judge's rubric readings
	// cost, as judge.json records them; JudgeCostUSD is nil when no
	// ruling was priced.
	JudgeUsage   model.Usage
	JudgeCostUSD *float64
	// Judges are what every ask of the judge cost, a line per judge
	// model, decline asks included; usage.json holds them as rows of
	// their own, counted in its total.
	Judges []usage.JudgeLine
	// Problems are derived files that could not be read or written, each
	// naming its file. The record is safe either way, and "mcpeval score"
	// writes them again.
	Problems []error
}

// Run runs cfg (runner.Run), then grades the record, attaches the judge's
// opinions, totals the usage and writes every derived file, as Score does.
// What the suite itself asks for is done without being asked: the fixtures
// of its action cases (when cfg.Fixtures is nil) and a fresh target for
// every attempt (when the suite says fresh_target).
//
// With cfg.Lean the record is graded as a stream (ScoreDir), and
// Graded.Record holds no attempts.
//
// A resumed run that ended but was never graded (its process was killed
// before it wrote its grades) is graded as a stream, and nothing is run.
//
// The error is runner.Run's. A run that stopped early (interrupted, out of
// budget) or whose preflight failed (runner.ErrInvalid) is still graded
// and written, and returned with its error; when there is no record at
// all, Graded is nil.
func Run(ctx context.Context, cfg runner.Config, opts Options) (*Graded, error) {
	if cfg.Suite != nil {
		if fx, ok := fixture.For(cfg.Suite); ok && cfg.Fixtures == nil {
			cfg.Fixtures = fx
		}
		cfg.FreshTarget = cfg.FreshTarget || cfg.Suite.FreshTarget
	}
	dir := cfg.OutDir
	if cfg.Resume != nil {
		dir = cfg.Resume.Dir
	}
	if dir != "" {
		// One writer at a time: two processes appending to one record
		// would interleave it.
		lock, err := rundir.Lock(dir, opts.Warn)
		if err != nil {
			return nil, err
		}
		defer lock.Unlock()
	}
	if cfg.Resume != nil {
		// Read again under the lock: another process may have added to it
		// since the caller read it.
		old, err := record.Read(cfg.Resume.Dir)
		if err != nil {
			return nil, fmt.Errorf("resuming %s: %w", cfg.Resume.Dir, err)
		}
		if opts.RetryErrors {
			old = WithoutErrors(old)
		}
		if old.Complete() && neverGraded(cfg.Resume.Dir) {
			// Its process was killed between its end line and its
			// grades: grade it, and run nothing.
			return ScoreDir(ctx, cfg.Suite, cfg.Resume.Dir, opts)
		}
		if old.Complete() {
			return nil, fmt.Errorf("%s is complete: %w", cfg.Resume.Dir, ErrNothingToResume)
		}
		cfg.Resume = old
	}
	if cfg.Users == nil && cfg.Suite != nil {
		users, err := OpenUsers(cfg.Suite)
		if err != nil {
			return nil, err
		}
		cfg.Users = users
	}
	rec, err := runner.Run(ctx, cfg)
	if rec == nil {
		return nil, err
	}
	if cfg.Lean {
		// The runner left the attempts on disk: grade them as a stream.
		g, serr := ScoreDir(ctx, cfg.Suite, rec.Dir, opts)
		if serr != nil {
			return nil, errors.Join(err, serr)
		}
		return g, err
	}
	return Score(ctx, cfg.Suite, rec, opts), err
}

// Score grades the recorded run rec against suite s as it is now, without
// calling any model (the judge excepted, when Options.Judge is set), and
// rewrites every derived file of the run directory rec.Dir: the grades, the
// action columns, the usage, and the judge's opinions when a judge was
// asked. With rec.Dir empty nothing is written.
func Score(ctx context.Context, s *suite.Suite, rec *record.Run, opts Options) *Graded {
	t := usage.NewTally(&rec.Header, opts.Prices)
	for i := range rec.Attempts {
		t.Add(&rec.Attempts[i])
	}
	g := &Graded{Suite: s, Record: rec, Result: grade.Run(s, rec), Attempts: len(rec.Attempts)}
	return g.derive(ctx, opts, t, rec)
}

// derive attaches the judge's opinions to g's grades, prices and totals
// its usage (t, fed every attempt) and writes every derived file: the
// steps after grading that Score and ScoreStream share. asked is the run
// the judge is asked about, holding at least the attempts it reads
// (judge.Reads).
func (g *Graded) derive(ctx context.Context, opts Options, t *usage.Tally, asked *record.Run) *Graded {
	g.judge(ctx, opts, asked)
	// The suite's text (a prompt, a key) is in the grades; a secret it
	// holds is scrubbed as the record's is.
	g.problem(hideResultSecrets(g.Result, Secrets(g.Suite)))
	g.Cost = t.Cost(g.Result.Totals.Passed)
	sum := t.Summary()
	g.WallTime = map[string]time.Duration{}
	for id, l := range sum.Cases {
		g.WallTime[id] = time.Duration(l.WallMS) * time.Millisecond
	}
	if !g.Record.Header.Model.Fake || len(g.Judges) > 0 || sum.PaidUsers() {
		// The judge's asks and a simulated user's turns are the run's
		// cost too, even a fake model's.
		g.Usage = sum
		g.Usage.AddJudges(g.Judges)
	}
	if g.Record.Dir != "" {
		g.write()
	}
	return g
}

// judge asks the judge when there is one about the attempts of asked,
// stores its opinions, and attaches the run's opinions to the grades.
func (g *Graded) judge(ctx context.Context, opts Options, asked *record.Run) {
	dir := g.Record.Dir
	var ops judge.Opinions
	switch {
	case opts.Judge != nil:
		n := opts.JudgeConcurrency
		if n < 1 {
			n = 4
		}
		j := judge.WithPrices(opts.Judge, opts.Prices)
		if opts.JudgeBudget != nil {
			j = judge.WithBudget(j, opts.JudgeBudget)
		}
		var prior judge.Opinions
		if dir != "" {
			var err error
			prior, err = judge.Read(dir)
			g.problem(err)
		}
		ops = judge.Resume(ctx, j, g.Suite, asked, n, opts.JudgeAsks, prior, !opts.Rejudge)
		if dir != "" {
			g.problem(judge.Write(dir, ops))
		}
	case dir != "":
		var err error
		ops, err = judge.Read(dir)
		g.problem(err)
	}
	if ops.Len() == 0 {
		return
	}
	judge.Apply(g.Suite, g.Result, ops)
	g.Disagreements = judge.Disagreements(g.Result)
	g.Split = judge.Split(g.Result)
	g.JudgeUsage, g.JudgeCostUSD = ops.Cost()
	g.Judges = ops.Lines()
}

// write writes every derived file of the run directory, and removes those
// this grading does not produce.
func (g *Graded) write() {
	dir := g.Record.Dir
	g.problem(rundir.WriteGrades(dir, g.Result))
	if g.Result.Actions != nil {
		g.problem(rundir.WriteJSON(rundir.Path(dir, rundir.Actions), g.Result.Actions))
	} else {
		g.problem(rundir.Remove(dir, rundir.Actions))
	}
	if g.Usage != nil {
		g.problem(rundir.WriteJSON(rundir.Path(dir, rundir.Usage), g.Usage))
	} else {
		g.problem(rundir.Remove(dir, rundir.Usage))
	}
}

func (g *Graded) problem(err error) {
	if err != nil {
		g.Problems = append(g.Problems, err)
	}
}

// neverGraded reports whether run directory dir holds no grades; the
// grades of a large run are not read to find out.
func neverGraded(dir string) bool { return !rundir.Graded(dir) }

// WithoutErrors returns rec as a resume sees it when errored attempts are
// to be run again: without its errored attempts, and not ended, so that
// the runner runs them as missing. rec itself is not changed.
func WithoutErrors(rec *record.Run) *record.Run {
	out := *rec
	out.Attempts = nil
	for _, a := range rec.Attempts {
		if a.End != record.EndError {
			out.Attempts = append(out.Attempts, a)
		}
	}
	if len(out.Attempts) != len(rec.Attempts) {
		out.End = nil
	}
	return &out
}
