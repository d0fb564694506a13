package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/agreement"
	"github.com/mcpeval/mcpeval/internal/buildinfo"
	"github.com/mcpeval/mcpeval/internal/judge"
	"github.com/mcpeval/mcpeval/internal/report"
	"github.com/mcpeval/mcpeval/internal/report/format"
	"github.com/mcpeval/mcpeval/internal/review"
	"github.com/mcpeval/mcpeval/internal/rundir"
	"github.com/mcpeval/mcpeval/internal/termsafe"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

const reviewHelp = `
Usage: mcpeval review RUN [--reviewer NAME] [--full]
       mcpeval review RUN --case ID --attempt N --verdict VERDICT --note TEXT [--reviewer NAME]
       mcpeval review RUN --list [--json]
       mcpeval review [RUN] --verify CASE [--suite FILE] [--reviewer NAME] [--json]

A person reads every failed attempt and records one verdict:

  model-failure            (m) the grade is right: the model did the wrong thing
  grader-false-fail        (g) the answer was right and the grader marked it wrong
  expectation-in-question  (e) the model did something defensible the case forbids

With no --case, walks the failures not yet reviewed: for each it shows the
case, the prompt, the transcript (tool calls with arguments and results),
the answer and the failed checks, and reads a verdict (m, g, e; s skips,
q quits) and a note from stdin. --case, --attempt, --verdict and --note
record one verdict without asking, for scripts.

A case drafted by mcpeval promote is marked verified: false until a person
has checked its prompt and key. When the walk shows an attempt of such a
case, v shows the case's prompt and key and, once confirmed, marks it
checked in its suite file: verified: true, with verified_by (the
reviewer) and verified_at (now) under it. Nothing else in the file
changes, and the suite's hash stays the same, so runs made before stay
runs of it. --verify CASE does the same without asking, for scripts, in
the suite of RUN or the one --suite names (then RUN may be left out);
--json prints what was written. A case of an embedded suite, or in a
read-only file, is refused.

Reviews are appended to RUN/reviews.jsonl; the record is never edited.
A review applies while the attempt fails the same way (same answer, same
failing reasons); when grading changes and the attempt passes or fails for
other reasons, it is stale and the failure is to be reviewed again.
--list shows every review with its status; --json prints them, with both
rates and every attempt's review, as JSON.

The run is graded against its suite as it is now (--suite to choose
another). The reviewer's name comes from --reviewer or MCPEVAL_REVIEWER,
or is asked for.
`

func init() {
	register(&command{name: "review", summary: "record a person's verdict on each failed attempt", run: reviewCmd})
}

type reviewFlags struct {
	suite, reviewer, caseID, verdict, note string
	attempt                                int
	list, full, json                       bool
	verify                                 string
}

func reviewCmd(ctx context.Context, e *env, args []string) error {
	var f reviewFlags
	fs := newFlags(e, "review", reviewHelp)
	fs.StringVar(&f.suite, "suite", "", "suite `PATH` to grade against (default: the run's)")
	fs.StringVar(&f.reviewer, "reviewer", "", "the reviewer's `NAME` (default $MCPEVAL_REVIEWER)")
	fs.StringVar(&f.caseID, "case", "", "the failed attempt's case `ID`")
	fs.IntVar(&f.attempt, "attempt", 0, "the failed attempt's number `N`, from 1")
	fs.StringVar(&f.verdict, "verdict", "", "model-failure, grader-false-fail or expectation-in-question")
	fs.StringVar(&f.note, "note", "", "why, for the next reader")
	fs.BoolVar(&f.list, "list", false, "list every review with its status, stale ones included")
	fs.BoolVar(&f.full, "full", false, "show tool results in full, however long")
	fs.BoolVar(&f.json, "json", false, "with --list or --verify, print the result as JSON on stdout")
	fs.StringVar(&f.verify, "verify", "", "mark the drafted case `ID` (verified: false) checked in its suite file")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if f.verify != "" {
		return verifyCmd(e, pos, f)
	}
	if len(pos) != 1 {
		return usagef("want one RUN directory (see mcpeval help review)")
	}
	one := f.caseID != "" || f.attempt != 0 || f.verdict != "" || f.note != ""
	switch {
	case f.list && one:
		return usagef("--list does not go with --case, --attempt, --verdict or --note")
	case f.json && !f.list:
		return usagef("--json goes with --list or --verify (see mcpeval help review)")
	case one && (f.caseID == "" || f.attempt < 1 || f.verdict == "" || strings.TrimSpace(f.note) == ""):
		return usagef("to record a verdict without asking, give all of --case, --attempt (from 1), --verdict and --note")
	}
	var verdict review.Verdict
	if one {
		if verdict, err = review.ParseVerdict(f.verdict); err != nil {
			return usagef("%v", err)
		}
	}
	if f.reviewer == "" {
		f.reviewer = e.getenv("MCPEVAL_REVIEWER")
	}
	if one && strings.TrimSpace(f.reviewer) == "" {
		return usagef("name the reviewer with --reviewer or MCPEVAL_REVIEWER")
	}

	// The record is read as a stream: graded attempt by attempt, then
	// only the failures' answers (reviews are fingerprinted by them) and
	// the transcripts shown, one at a time.
	rd, err := openRun(pos[0])
	if err != nil {
		return err
	}
	defer rd.Close()
	rec := rd.Run()
	res, s, err := gradeNow(rd, f.suite)
	if err != nil {
		return err
	}
	if !res.Valid {
		return exitf(exitInvalid, "%s is invalid (%s): nothing was graded, so there is nothing to review", rec.Dir, res.Invalid)
	}
	log, err := review.Open(rd, res)
	if err != nil {
		return badInput(err)
	}
	for _, w := range append(res.Warnings, log.Warnings...) {
		fmt.Fprintf(e.stderr, "mcpeval review: warning: %s\n", termsafe.Line(w))
	}
	switch {
	case f.list && f.json:
		return printJSON(e.stdout, review.Apply(res, log))
	case f.list:
		return listReviews(e, review.Apply(res, log))
	case one:
		return reviewOne(e, rec, res, log, f, verdict)
	}
	return reviewWalk(e, rd, s, res, log, f)
}

// gradeNow grades the run rd reads, attempt by attempt, against the suite
// at path, or the one its header names, with the judge's stored rulings
// applied: a case graded by its judge is reviewed as the judge graded it.
func gradeNow(rd *record.Reader, path string) (*grade.Result, *suite.Suite, error) {
	rec := rd.Run()
	s, err := runSuite(rec, path)
	if err != nil {
		return nil, nil, err
	}
	g := grade.NewGrader(s, rec)
	if err := rd.Each(func(a *record.Attempt) error { g.Add(a); return nil }); err != nil {
		return nil, nil, badInput(err)
	}
	res := g.Result()
	ops, err := judge.Read(rec.Dir)
	if err != nil {
		return nil, nil, err
	}
	judge.Apply(s, res, ops)
	return res, s, nil
}

// runSuite loads the suite at path, or the one the header of rec names.
func runSuite(rec *record.Run, path string) (*suite.Suite, error) {
	if path == "" {
		var err error
		if path, err = rec.Header.Suite.Locate(rec.Dir); err != nil {
			return nil, badInput(err)
		}
	}
	return loadSuite(path)
}

func findGrade(res *grade.Result, caseID string, n int) *grade.AttemptGrade {
	for i := range res.Attempts {
		if res.Attempts[i].Case == caseID && res.Attempts[i].N == n {
			return &res.Attempts[i]
		}
	}
	return nil
}

func newReview(log *review.Log, g *grade.AttemptGrade, v review.Verdict, note, reviewer string) review.Review {
	rs := make([]string, len(g.Reasons))
	for i, r := range g.Reasons {
		rs[i] = r.String()
	}
	return review.Review{
		RunID: log.RunID, Case: g.Case, N: g.N, Fingerprint: log.Fingerprint(g),
		Verdict: v, Note: strings.TrimSpace(note), Reviewer: strings.TrimSpace(reviewer),
		Time: time.Now().UTC().Truncate(time.Second), Reasons: rs,
	}
}

func reviewOne(e *env, rec *record.Run, res *grade.Result, log *review.Log, f reviewFlags, v review.Verdict) error {
	g := findGrade(res, f.caseID, f.attempt)
	switch {
	case g == nil:
		return usagef("%s has no graded attempt %s #%d", rec.Dir, f.caseID, f.attempt)
	case g.Outcome == grade.Pass:
		return usagef("%s #%d passes: only failures are reviewed", f.caseID, f.attempt)
	case g.Outcome == grade.Error:
		return usagef("%s #%d ended in an error, which is left out of the rates: only failures are reviewed", f.caseID, f.attempt)
	}
	if err := log.Add(newReview(log, g, v, f.note, f.reviewer)); err != nil {
		return err
	}
	rv := review.Apply(res, log)
	fmt.Fprintf(e.stdout, "recorded %s #%d: %s (%s)\n", termsafe.Line(f.caseID), f.attempt, v, termsafe.Line(f.reviewer))
	fmt.Fprintf(e.stdout, "%s\n", review.Summary(rv))
	return nil
}

func listReviews(e *env, rv *review.Reviewed) error {
	w := bufio.NewWriter(e.stdout)
	if len(rv.Entries) == 0 {
		fmt.Fprintln(w, "no reviews yet")
	}
	for _, en := range rv.Entries {
		status := string(en.Status)
		if en.Why != "" {
			status += ": " + en.Why
		}
		fmt.Fprintf(w, "%s #%d  %s  by %s  %s  [%s]\n    %s\n", termsafe.Line(en.Case), en.N, en.Verdict,
			termsafe.Line(en.Reviewer), en.Time.UTC().Format("2006-01-02"), status, termsafe.Line(en.Note))
	}
	fmt.Fprintln(w)
	w.Flush()
	return review.Text(e.stdout, rv)
}

// reviewWalk shows each failure not yet reviewed and reads a verdict for
// it from stdin. Each failure's transcript is read back from the record
// when it is shown.
func reviewWalk(e *env, rd *record.Reader, st *suite.Suite, res *grade.Result, log *review.Log, f reviewFlags) error {
	rec := rd.Run()
	rv := review.Apply(res, log)
	var todo []review.Attempt
	for _, a := range rv.Attempts {
		if a.Outcome == grade.Fail && a.Review == nil {
			todo = append(todo, a)
		}
	}
	if len(todo) == 0 {
		fmt.Fprintf(e.stdout, "every failure is reviewed (%s)\n\n", review.Summary(rv))
		return review.Text(e.stdout, rv)
	}
	fmt.Fprintf(e.stdout, "%d failure%s to review in %s\n", len(todo), format.S(len(todo)), rec.Dir)
	stdin := e.stdin
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	in := bufio.NewReader(stdin)
	ask := func(prompt string) (string, bool) {
		fmt.Fprint(e.stdout, prompt)
		s, err := in.ReadString('\n')
		if err != nil && (err != io.EOF || s == "") {
			fmt.Fprintln(e.stdout)
			return "", false
		}
		return strings.TrimSpace(s), true
	}
	reviewer := strings.TrimSpace(f.reviewer)
	var recorded, skipped int
walk:
	for i, a := range todo {
		g := findGrade(res, a.Case, a.N)
		at, err := rd.Load(record.AttemptKey{Case: a.Case, N: a.N})
		if err != nil {
			return badInput(err)
		}
		it := review.Item{Index: i + 1, Total: len(todo), Group: a.Group, Attempt: at, Grade: g, Reviewed: &todo[i]}
		if err := review.Show(e.stdout, it, f.full); err != nil {
			return err
		}
		for {
			draft := st.Case(a.Case)
			if draft != nil && !draft.Unverified() {
				draft = nil
			}
			offer := ""
			if draft != nil {
				offer = ", [v]erify case"
			}
			ans, ok := ask("\nverdict: [m]odel failure, [g]rader false fail, [e]xpectation in question" + offer + ", [s]kip, [q]uit? ")
			if !ok {
				break walk
			}
			if v := strings.ToLower(ans); draft != nil && (v == "v" || v == "verify") {
				if !verifyAsk(e, st, draft, &reviewer, ask) {
					break walk
				}
				continue
			}
			switch strings.ToLower(ans) {
			case "s", "skip", "":
				skipped++
				continue walk
			case "q", "quit":
				break walk
			}
			v, err := review.ParseVerdict(ans)
			if err != nil {
				fmt.Fprintln(e.stdout, "  answer m, g, e, s or q")
				continue
			}
			note := ""
			for note == "" {
				if note, ok = ask("note (why, for the next reader): "); !ok {
					break walk
				}
			}
			for reviewer == "" {
				if reviewer, ok = ask("reviewer name: "); !ok {
					break walk
				}
			}
			if err := log.Add(newReview(log, g, v, note, reviewer)); err != nil {
				return err
			}
			recorded++
			fmt.Fprintf(e.stdout, "recorded: %s\n", v)
			continue walk
		}
	}
	rv = review.Apply(res, log)
	fmt.Fprintf(e.stdout, "\nrecorded %d review%s, skipped %d; written to %s\n\n", recorded, format.S(recorded), skipped, filepath.Join(rec.Dir, review.FileName))
	return review.Text(e.stdout, rv)
}

// reportReviews adds what review found (rv, the reviews applied to res)
// to "mcpeval report": the two rates after the normal report, when the
// run has reviews, and the HTML page when htmlPath is set. rec is read as
// a stream (record.Open): the page reads the transcripts it shows from
// the record in rec.Dir.
func reportReviews(ctx context.Context, e *env, rec *record.Run, res *grade.Result, rv *review.Reviewed, htmlPath string, text bool) error {
	if text && rv.Reviews() {
		fmt.Fprintln(e.stdout)
		if err := review.Text(e.stdout, rv); err != nil {
			return err
		}
	}
	if htmlPath == "" {
		return nil
	}
	ag, err := agreement.Read(rec.Dir)
	if err != nil {
		return badInput(err)
	}
	page := &report.RunPage{Run: rec, Result: res, Reviewed: rv, Version: buildinfo.Get().Version, Agreement: ag}
	if err := rundir.WriteOutput(ctx, htmlPath, e.stdout, func(w io.Writer) error { return report.HTML(w, page) }); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "mcpeval report: wrote %s\n", htmlPath)
	return nil
}
