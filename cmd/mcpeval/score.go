package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/agreement"
	"github.com/mcpeval/mcpeval/internal/judge"
	"github.com/mcpeval/mcpeval/internal/pipeline"
	"github.com/mcpeval/mcpeval/internal/report"
	"github.com/mcpeval/mcpeval/internal/review"
	"github.com/mcpeval/mcpeval/internal/rundir"
	"github.com/mcpeval/mcpeval/internal/usage"
	"github.com/mcpeval/mcpeval/record"
)

const scoreHelp = `
Usage: mcpeval score RUN [--suite PATH] [--json | --markdown] [--prices FILE]

Grades (or re-grades) a recorded run against the suite as it is now,
without calling any model: grading is a pure function of the record and
the suite. Rewrites every file derived from the record (RUN/grades.json,
RUN/actions.json, ...) and prints the result.

  --suite   the suite to grade against (default: the one the run names)
`

const reportHelp = `
Usage: mcpeval report RUN [--json | --markdown] [--html FILE] [--junit FILE] [--prices FILE]

Shows a run's grades again, as the last run or score wrote them. When the
run has reviews (mcpeval review), the text report ends with both rates: as
graded and after review. --html also writes the run as one self-contained
HTML page: provenance, both rates, every attempt's transcript and review.
A run of 500 attempts or more is paged: its failing and errored attempts
are shown by case with their transcripts (the first 20 of each case), its
passes counted per case. --markdown ends with the transcripts of up to 50
attempts, failing and errored ones first, folded away.
`

func init() {
	register(&command{name: "score", summary: "grade a recorded run against the suite as it is now", run: scoreCmd, gc: limitHeap})
	register(&command{name: "report", summary: "show a graded run (text, --json or --markdown)", run: reportCmd, gc: limitHeap})
}

// heapLimit is the soft memory limit of the commands that read whole runs
// (score, report, run, merge, compare, view: gc: limitHeap where they are
// registered): what they hold at once is a verdict per attempt and the attempt being read, a few
// tens of MB at 100,000 attempts, while the garbage of reading the attempts
// one by one would otherwise grow the heap to twice that before it is
// collected.
const heapLimit = 40 << 20

// limitHeap sets the Go runtime's soft memory limit to heapLimit, unless
// the environment sets one (GOMEMLIMIT), and returns the function that
// puts the previous one back. Near the limit the garbage collector runs
// sooner, never with more than half the CPU: a command holding more than
// the limit runs on, collecting more often.
func limitHeap() (restore func()) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	prev := debug.SetMemoryLimit(heapLimit)
	return func() { debug.SetMemoryLimit(prev) }
}

func scoreCmd(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "score", scoreHelp)
	suitePath := fs.String("suite", "", "suite `PATH` (default: the run's)")
	asJSON := fs.Bool("json", false, "print the summary as JSON")
	asMD := fs.Bool("markdown", false, "print the summary as Markdown")
	judgeSpec := fs.String("judge", "", "ask an advisory judge `SPEC` about decline answers (stored opinions are kept otherwise)")
	spend := fs.Bool("spend", false, "allow a paid judge (or MCPEVAL_SPEND=yes)")
	judgeAsks := fs.Int("judge-asks", 0, "ask the judge `N` times about each answer of a case with a rubric, keeping the majority (default: the suite's judge_asks, else 3)")
	rejudge := fs.Bool("rejudge", false, "with --judge: ask it again about every answer, even those the run already holds its opinion on (default: only the others)")
	budgetTokens := fs.Int64("budget-tokens", 2_000_000, "with a paid --judge: stop asking it once this many tokens are billed (0: no limit)")
	budgetUSD := floatFlag(fs.FlagSet, "budget-usd", 0, "with a paid --judge: stop asking it once this many dollars are spent, at its own price (0: no limit)")
	var pf pricesFlag
	pf.register(fs.FlagSet)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("want one RUN directory (see mcpeval help score)")
	}
	if *judgeAsks < 0 || (*judgeAsks > 0 && *judgeSpec == "") {
		return usagef("--judge-asks wants a positive number and goes with --judge SPEC")
	}
	if *rejudge && *judgeSpec == "" {
		return usagef("--rejudge goes with --judge SPEC")
	}
	prices, err := pf.load()
	if err != nil {
		return err
	}
	var jdg judge.Judge
	var budget *usage.Budget
	if *judgeSpec != "" {
		if jdg, budget, err = openJudgeBudget(e, *judgeSpec, *spend, *budgetTokens, *budgetUSD, prices); err != nil {
			return err
		}
	}
	rd, err := openRun(pos[0])
	if err != nil {
		return err
	}
	defer rd.Close()
	rec := rd.Run()
	p := *suitePath
	if p == "" {
		if p, err = rec.Header.Suite.Locate(rec.Dir); err != nil {
			return badInput(err)
		}
	}
	s, err := loadSuite(p)
	if err != nil {
		return err
	}
	g, err := pipeline.ScoreStream(ctx, s, rd, pipeline.Options{Judge: jdg, JudgeAsks: *judgeAsks, Rejudge: *rejudge, JudgeBudget: budget, Prices: prices})
	if err != nil {
		return err
	}
	tellDisagreements(e, g)
	if err := errors.Join(g.Problems...); err != nil {
		return err
	}
	return printCost(e, *asJSON, *asMD, g.Result, rec, g.Cost)
}

func reportCmd(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "report", reportHelp)
	asJSON := fs.Bool("json", false, "print the summary as JSON")
	asMD := fs.Bool("markdown", false, "print the summary as Markdown")
	htmlPath := fs.String("html", "", "also write the run as a self-contained HTML page to `FILE`")
	junitPath := fs.String("junit", "", "also write the run as JUnit XML to `FILE`")
	var pf pricesFlag
	pf.register(fs.FlagSet)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("want one RUN directory (see mcpeval help report)")
	}
	if err := checkOutputs(*htmlPath, *junitPath); err != nil {
		return err
	}
	prices, err := pf.load()
	if err != nil {
		return err
	}
	rd, err := openRun(pos[0])
	if err != nil {
		return err
	}
	defer rd.Close()
	rec := rd.Run()
	graded, err := rundir.ReadGrades(rec.Dir)
	if errors.Is(err, rundir.ErrNoGrades) {
		return usagef("%s has no grades yet: run mcpeval score %s", rec.Dir, rec.Dir)
	}
	if err != nil {
		return badInput(fmt.Errorf("%v (re-create it with mcpeval score)", err))
	}
	res := *graded
	// One pass over the attempts for what the grades do not hold: the
	// cost and each case's time.
	tally := usage.NewTally(&rec.Header, prices)
	durations := map[string]time.Duration{}
	var shown *mdTranscripts
	if *asMD && !*asJSON {
		shown = newMDTranscripts(&res)
	}
	err = rd.Each(func(a *record.Attempt) error {
		tally.Add(a)
		durations[a.Case] += time.Duration(a.DurationMS) * time.Millisecond
		shown.add(a)
		return nil
	})
	if err != nil {
		return err
	}
	// A run with reviews has its failures' answers, which reviews are
	// checked against, read back (review.Open); one without has none.
	var log *review.Log
	if hasReviews(rec.Dir) {
		if log, err = review.Open(rd, &res); err != nil {
			return badInput(err)
		}
	}
	rv := review.Apply(&res, log)
	cost := tally.Cost(res.Totals.Passed)
	switch {
	case *asJSON && rv.Reviews():
		// The two rates side by side, in the same document.
		ag, aerr := agreement.Read(rec.Dir)
		if aerr != nil {
			return badInput(aerr)
		}
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		err = enc.Encode(struct {
			*report.Summary
			Reviewed *review.Reviewed `json:"reviewed"`
		}{report.NewSummary(&res, &rec.Header, filepath.Join(rec.Dir, record.FileName), cost, report.WithAgreement(ag)), rv})
	default:
		err = printCost(e, *asJSON, *asMD, &res, rec, cost, shown.option()...)
		if err == nil && *asMD && rv.Reviews() {
			fmt.Fprintln(e.stdout)
			err = review.Markdown(e.stdout, rv)
		}
	}
	if err != nil {
		return err
	}
	if *junitPath != "" {
		if err := writeJUnit(ctx, e, *junitPath, report.JUnitRun{Record: rec, Result: &res, Durations: durations}); err != nil {
			return err
		}
	}
	// The HTML page reads the transcripts it shows from the record itself.
	return reportReviews(ctx, e, rec, &res, rv, *htmlPath, !*asJSON && !*asMD)
}

// openRun opens a record to read attempt by attempt (record.Open): its
// header, end and warnings at once, its attempts one at a time.
func openRun(dir string) (*record.Reader, error) {
	rd, err := record.Open(dir)
	if err != nil {
		return nil, badInput(err)
	}
	return rd, nil
}

// hasReviews reports whether the run in dir has a reviews file.
func hasReviews(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, review.FileName))
	return err == nil
}

// readRun reads a record. Its warnings (a torn last line, say) reach the
// user through the grades, which carry them.
func readRun(e *env, dir string) (*record.Run, error) {
	rec, err := record.Read(dir)
	if err != nil {
		return nil, badInput(err)
	}
	return rec, nil
}

// printCost prints a graded run with its cost; rec's attempts are not
// read, so rec may be a run read as a stream (record.Open).
func printCost(e *env, asJSON, asMD bool, res *grade.Result, rec *record.Run, cost *usage.Cost, mdOpts ...report.Option) error {
	path := filepath.Join(rec.Dir, record.FileName)
	ag, err := agreement.Read(rec.Dir) // the judge's measured agreement, beside its judged cases
	if err != nil {
		return badInput(err)
	}
	switch {
	case asJSON:
		return report.JSON(e.stdout, res, &rec.Header, path, cost, report.WithAgreement(ag))
	case asMD:
		return report.Markdown(e.stdout, res, &rec.Header, cost, append(mdOpts, report.WithAgreement(ag))...)
	default:
		if err := report.Text(e.stdout, res, &rec.Header, cost, report.WithAgreement(ag)); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "\nrecord: %s\n", path)
		return nil
	}
}

// mdTranscripts picks the attempts whose transcripts mcpeval report
// --markdown shows: failing and errored attempts first, then the rest,
// report.MaxMarkdownTranscripts in all, the others counted. A nil one
// picks none.
type mdTranscripts struct {
	outcome     map[record.AttemptKey]grade.Outcome
	first, rest []record.Attempt
	seen        int
}

func newMDTranscripts(res *grade.Result) *mdTranscripts {
	t := &mdTranscripts{outcome: map[record.AttemptKey]grade.Outcome{}}
	for _, a := range res.Attempts {
		t.outcome[record.AttemptKey{Case: a.Case, N: a.N}] = a.Outcome
	}
	return t
}

func (t *mdTranscripts) add(a *record.Attempt) {
	if t == nil {
		return
	}
	t.seen++
	o := t.outcome[record.AttemptKey{Case: a.Case, N: a.N}]
	switch {
	case (o == grade.Fail || o == grade.Error) && len(t.first) < report.MaxMarkdownTranscripts:
		t.first = append(t.first, *a)
	case o != grade.Fail && o != grade.Error && len(t.rest) < report.MaxMarkdownTranscripts:
		t.rest = append(t.rest, *a)
	}
}

// picked returns the attempts picked; nil for a nil t.
func (t *mdTranscripts) picked() *report.Transcripts {
	if t == nil {
		return nil
	}
	shown := append(t.first, t.rest...)
	shown = shown[:min(len(shown), report.MaxMarkdownTranscripts)]
	return &report.Transcripts{Attempts: shown, More: t.seen - len(shown)}
}

// option is the Markdown report's option showing the attempts picked.
func (t *mdTranscripts) option() []report.Option {
	if t == nil {
		return nil
	}
	return []report.Option{report.WithTranscripts(t.picked())}
}
