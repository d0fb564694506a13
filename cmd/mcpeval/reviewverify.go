package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mcpeval/mcpeval/internal/corpus"
	"github.com/mcpeval/mcpeval/internal/termsafe"
	"github.com/mcpeval/mcpeval/suite"
)

// verifyCmd is "mcpeval review [RUN] --verify CASE": the drafted case
// marked checked in its suite file, without asking.
func verifyCmd(e *env, pos []string, f reviewFlags) error {
	switch {
	case len(pos) > 1:
		return usagef("want at most one RUN directory (see mcpeval help review)")
	case len(pos) == 0 && f.suite == "":
		return usagef("--verify needs RUN or --suite: the suite that holds the case")
	case f.list || f.full || f.caseID != "" || f.attempt != 0 || f.verdict != "" || f.note != "":
		return usagef("--verify does not go with --list, --full, --case, --attempt, --verdict or --note")
	}
	if f.reviewer == "" {
		f.reviewer = e.getenv("MCPEVAL_REVIEWER")
	}
	if strings.TrimSpace(f.reviewer) == "" {
		return usagef("name who checked the case with --reviewer or MCPEVAL_REVIEWER")
	}
	var s *suite.Suite
	var err error
	if len(pos) == 0 {
		s, err = loadSuite(f.suite)
	} else {
		rd, oerr := openRun(pos[0])
		if oerr != nil {
			return oerr
		}
		s, err = runSuite(rd.Run(), f.suite)
		rd.Close()
	}
	if err != nil {
		return err
	}
	v, err := corpus.Verify(s, f.verify, f.reviewer, time.Now())
	if err != nil {
		return badInput(err)
	}
	if f.json {
		return printJSON(e.stdout, v)
	}
	printVerified(e.stdout, v)
	return nil
}

func printVerified(w io.Writer, v *corpus.Verified) {
	fmt.Fprintf(w, "verified %s in %s:%d (by %s, %s)\n", termsafe.Line(v.Case), termsafe.Line(v.File), v.Line,
		termsafe.Line(v.By), v.At.Format(time.RFC3339))
}

// verifyAsk shows the drafted case c of s, its prompt and key, and asks
// whether to mark it checked; on yes it does, under the reviewer's name
// (asked for when unknown). It reports false when stdin ran out.
func verifyAsk(e *env, s *suite.Suite, c *suite.Case, reviewer *string, ask func(string) (string, bool)) bool {
	showDraft(e.stdout, c)
	ans, ok := ask("a person has checked this prompt and key: set verified: true? [y/N] ")
	if !ok {
		return false
	}
	if a := strings.ToLower(ans); a != "y" && a != "yes" {
		fmt.Fprintln(e.stdout, "  left unverified")
		return true
	}
	for *reviewer == "" {
		if *reviewer, ok = ask("reviewer name: "); !ok {
			return false
		}
	}
	v, err := corpus.Verify(s, c.ID, *reviewer, time.Now())
	if err != nil {
		fmt.Fprintf(e.stdout, "  not verified: %s\n", termsafe.Line(err.Error()))
		return true
	}
	yes := true
	c.Verified, c.VerifiedBy, c.VerifiedAt = &yes, v.By, v.At.Format(time.RFC3339)
	printVerified(e.stdout, v)
	return true
}

// showDraft writes the drafted case c as a person checks it: where it
// is, its prompt and its key, escaped for the terminal.
func showDraft(w io.Writer, c *suite.Case) {
	fmt.Fprintf(w, "\ncase %s is a draft (verified: false) in %s:%d\nprompt\n", termsafe.Line(c.ID), termsafe.Line(c.File), c.Line)
	for _, l := range strings.Split(c.Prompt, "\n") {
		fmt.Fprintf(w, "  %s\n", termsafe.Line(l))
	}
	fmt.Fprintln(w, "key")
	lines := corpus.KeyLines(c)
	if len(lines) == 0 {
		fmt.Fprintln(w, "  (none: the case checks its answer only)")
	}
	for _, l := range lines {
		fmt.Fprintf(w, "  %s\n", termsafe.Line(l))
	}
}
