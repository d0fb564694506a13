package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/compare"
	"github.com/mcpeval/mcpeval/internal/ladder"
	"github.com/mcpeval/mcpeval/internal/rundir"
	"github.com/mcpeval/mcpeval/internal/usage"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

const compareHelp = `
Usage: mcpeval compare BASE NEW [--gate] [--alpha 0.05] [--json | --markdown]
                                [--suite PATH] [--summary FILE] [--prices FILE]

Compares two runs: first what changed between them (model, options,
system prompt, the tool definitions the model saw with a per-tool diff of
descriptions and input schemas, the overlay, the suite, cases added or
removed, attempts), then what moved: the total, each group and each case,
with both pass rates, their 95% intervals, n, and the p-value of Fisher's
exact test (two-sided) on passed vs failed attempts. A difference that is
not significant at --alpha is shown as ~. Errors are left out of the rates.

With a few dozen attempts only large movements are real: a case of 3
attempts against 3 can never move significantly; its group and the total
can.

Both runs are graded against the suite each names, as it is now (or
--suite), so that the same grader judges both; a run whose suite cannot be
loaded is read from its grades.json.

The cost line prices each run as report does, from the usage it recorded
(--prices replaces the built-in price table of each provider it names).

--gate exits 5 when anything regressed significantly and says which
groups and cases, with their rates and p. BASE is typically a baseline
record a person approved and keeps in the repository.
`

func init() {
	register(&command{name: "compare", summary: "compare two runs: what changed, then what moved (--gate for CI)", run: compareCmd, gc: limitHeap})
}

func compareCmd(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "compare", compareHelp)
	gate := fs.Bool("gate", false, "exit 5 on a significant regression")
	alpha := floatFlag(fs.FlagSet, "alpha", compare.DefaultAlpha, "significance `LEVEL`")
	asJSON := fs.Bool("json", false, "print the comparison as JSON")
	asMD := fs.Bool("markdown", false, "print the comparison as Markdown")
	suitePath := fs.String("suite", "", "grade both runs against the suite at `PATH`")
	summary := fs.String("summary", "", "append the Markdown comparison to `FILE` (e.g. \"$GITHUB_STEP_SUMMARY\")")
	var pf pricesFlag
	pf.register(fs.FlagSet)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return usagef("want two run directories, BASE and NEW (see mcpeval help compare)")
	}
	if *asJSON && *asMD {
		return usagef("--json and --markdown: choose one")
	}
	if *alpha <= 0 || *alpha >= 1 {
		return usagef("--alpha %g: want a significance level between 0 and 1, such as 0.05", *alpha)
	}
	if err := checkOutputs(*summary); err != nil {
		return err
	}
	prices, err := pf.load()
	if err != nil {
		return err
	}
	// Comparing reads headers, grades and costs only: both runs are graded
	// and priced as streams, never held.
	base, err := loadStreamed(pos[0], *suitePath, prices)
	if err != nil {
		return err
	}
	nw, err := loadStreamed(pos[1], *suitePath, prices)
	if err != nil {
		return err
	}
	if *gate {
		if err := compare.RelatedRuns(base.Run, nw.Run); err != nil {
			return usagef("--gate %s %s: %v", pos[0], pos[1], err)
		}
	}
	gb, gn := base.Result, nw.Result
	c := compare.Compare(base.Run, nw.Run, gb, gn)
	// The runs were read without their attempts, so they are priced from
	// the pass that graded them.
	c.Cost = compare.Costs{Base: base.Cost, New: nw.Cost}
	c.SetAlpha(*alpha)
	switch {
	case *asJSON:
		err = compare.JSON(e.stdout, c)
	case *asMD:
		err = compare.Markdown(e.stdout, c)
	default:
		err = compare.Text(e.stdout, c)
	}
	if err != nil {
		return err
	}
	if *summary != "" {
		if err := appendFile(ctx, e, *summary, func(w io.Writer) error { return compare.Markdown(w, c) }); err != nil {
			return err
		}
	}
	if *gate {
		return compareGate(c, gn, pos[0])
	}
	return nil
}

// loadStreamed reads the run in dir as a stream (record.Open), grades it
// (gradeStream) and prices it with prices (nil: the built-in tables) in
// the same pass, with the usage.Tally report prices a run with. The run
// comes back without its attempts, and its grades without theirs
// (grade.NewCounter): its callers need its header, counts and cost only,
// in memory that does not grow with the run.
func loadStreamed(dir, suitePath string, prices *usage.Prices) (ladder.Input, error) {
	rd, err := openRun(dir)
	if err != nil {
		return ladder.Input{}, err
	}
	defer rd.Close()
	t := usage.NewTally(&rd.Run().Header, prices)
	res, err := gradeStream(rd, dir, suitePath, grade.NewCounter, t.Add)
	if err != nil {
		return ladder.Input{}, err
	}
	// The run as read to its end, with any warning reading it raised.
	return ladder.Input{Run: rd.Run(), Result: res, Attempts: rd.Len(), Cost: t.Cost(res.Totals.Passed)}, nil
}

// gradeStream grades the run rd reads (of dir, as the user named it),
// attempt by attempt, against the suite at suitePath, else the suite the
// run names, with the grader newGrader starts (grade.NewGrader, or
// grade.NewCounter for the counts only); when that cannot be loaded, it
// reads the run's grades.json. each, when not nil, is handed every attempt too: in the pass that
// grades them, or in a pass of its own when the grades are read.
func gradeStream(rd *record.Reader, dir, suitePath string, newGrader func(*suite.Suite, *record.Run) *grade.Grader, each func(*record.Attempt)) (*grade.Result, error) {
	rec := rd.Run()
	p, serr := suitePath, error(nil)
	if p == "" {
		p, serr = rec.Header.Suite.Locate(rec.Dir)
	}
	var s *suite.Suite
	if serr == nil {
		s, serr = loadSuite(p)
	}
	if serr == nil {
		g := newGrader(s, rec)
		err := rd.Each(func(a *record.Attempt) error {
			g.Add(a)
			if each != nil {
				each(a)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		return g.Result(), nil
	}
	if suitePath != "" {
		return nil, serr
	}
	res, err := rundir.ReadGrades(rec.Dir)
	if errors.Is(err, rundir.ErrNoGrades) {
		return nil, usagef("%s: cannot grade it (its suite %s: %v) and it has no %s; give the suite with --suite", dir, p, serr, rundir.Grades)
	}
	if err != nil {
		return nil, badInput(err)
	}
	res.Warnings = append(res.Warnings, fmt.Sprintf("its suite %s could not be loaded, so its grades are read from %s as they were written", p, rundir.Grades))
	if each != nil {
		if err := rd.Each(func(a *record.Attempt) error { each(a); return nil }); err != nil {
			return nil, badInput(err)
		}
	}
	return res, nil
}
