package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mcpeval/mcpeval/internal/agreement"
	"github.com/mcpeval/mcpeval/internal/judge"
	"github.com/mcpeval/mcpeval/internal/review"
	"github.com/mcpeval/mcpeval/internal/rundir"
	"github.com/mcpeval/mcpeval/internal/termsafe"
)

const agreementHelp = `
Usage: mcpeval judge-agreement RUN... [--json] [--save]

Measures the advisory judge against people. Over the attempts of the runs
that both the judge (RUN/judge.json, from run or score --judge) and a
person (RUN/reviews.jsonl, from mcpeval review) read, it shows the
confusion matrix, the raw agreement, Cohen's kappa with a 95% interval,
and every attempt they read otherwise.

A person's "grader false fail" is a pass and "model failure" a fail;
"expectation in question" is neither and is set aside. The judge's pass is
an answer that declines, as a decline case asks; on a case graded by its
judge (graded_by: judge) it is the majority of its rubric readings. Only
reviews that still apply to the attempt as graded now count.

--save writes the agreement into each RUN as RUN/agreement.json. Reports
then show it beside the judged cases' rate, and publish needs it before it
puts a run with judged cases in the ledger.
`

func init() {
	register(&command{name: "judge-agreement", summary: "measure the advisory judge against people's reviews", run: agreementCmd})
}

func agreementCmd(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "judge-agreement", agreementHelp)
	asJSON := fs.Bool("json", false, "print the agreement as JSON")
	save := fs.Bool("save", false, "also write the agreement into each RUN as RUN/agreement.json, where reports and publish look for it")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("want one or more RUN directories (see mcpeval help judge-agreement)")
	}
	var pairs []agreement.Pair
	var runs, dirs []string
	aside, judged, reviewed := 0, 0, 0
	for _, dir := range pos {
		// The record is read as a stream: only the failures' answers,
		// which reviews are fingerprinted by, are read back.
		rd, err := openRun(dir)
		if err != nil {
			return err
		}
		defer rd.Close()
		rec := rd.Run()
		res, err := rundir.ReadGrades(rec.Dir)
		if errors.Is(err, rundir.ErrNoGrades) {
			return usagef("%s has no grades yet: run mcpeval score %s", rec.Dir, rec.Dir)
		}
		if err != nil {
			return badInput(fmt.Errorf("%v (re-create it with mcpeval score)", err))
		}
		ops, err := judge.Read(rec.Dir)
		if err != nil {
			return badInput(err)
		}
		judge.Attach(res, ops)
		log, err := review.Open(rd, res)
		if err != nil {
			return badInput(err)
		}
		rv := review.Apply(res, log)
		judged += len(ops.Given) + len(ops.Rulings)
		runs, dirs = append(runs, rec.Header.RunID), append(dirs, rec.Dir)
		reviewed += rv.ModelFailures + rv.GraderFalseFails + rv.ExpectationsInQuestion
		ps, n := agreement.Pairs(rec.Header.RunID, res, rv)
		pairs = append(pairs, ps...)
		aside += n
	}
	if len(pairs) == 0 {
		return usagef("no attempt of these runs was read by both the judge (%d opinions) and a person (%d current reviews): "+
			"ask the judge with mcpeval score RUN --judge SPEC and review failures with mcpeval review RUN", judged, reviewed)
	}
	a := agreement.Measure(pairs, aside)
	if *save {
		saved := &agreement.Saved{Agreement: a, Runs: runs, Measured: time.Now().UTC().Format(time.DateOnly)}
		for _, dir := range dirs {
			if err := agreement.Save(dir, saved); err != nil {
				return err
			}
		}
		fmt.Fprintf(e.stderr, "saved the agreement in %s\n", termsafe.Line(strings.Join(dirs, ", ")))
	}
	if *asJSON {
		return agreement.JSON(e.stdout, a)
	}
	return agreement.Text(e.stdout, a)
}
