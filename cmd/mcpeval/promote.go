package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/mcpeval/mcpeval/internal/corpus"
	"github.com/mcpeval/mcpeval/internal/termsafe"
	"github.com/mcpeval/mcpeval/record"
)

const promoteHelp = `
Usage: mcpeval promote RUN CASE#N [--id NEW_ID] [--out FILE]

Drafts a new case from a recorded attempt, for a person to check: a file
of cases (cases: [...]) to put in a suite folder. CASE#N names the
attempt as review and the reports do (the case id, then the attempt's
number from 1; "CASE #N" works too). The case holds the attempt's prompt,
the tools it called as tools.required and its calls as the key, the
figures its tool results hold as commented candidates for figures:, and
verified: false. The key is what that model did, not what is right.

A suite holding a case marked verified: false is refused by publish
(rule unverified-cases) until a person has checked the case and marked it
checked (mcpeval review --verify CASE, or the review walk's v, sets
verified: true and records who and when), or publish is given
--allow-unverified (the ledger row records it). corpus and the reports
show the share of checked cases.

--id names the new case (default: the attempt's case id with -promoted
added), as group/slug. --out writes the file (refused when it exists);
by default it is printed on stdout.

Examples:
  mcpeval promote RUN single-tool/net-worth-now#1
  mcpeval promote RUN single-tool/net-worth-now#1 --id single-tool/net-worth-again --out SUITE_DIR/promoted.yaml
`

func init() {
	register(&command{name: "promote", summary: "draft a new case from a recorded attempt, marked verified: false", run: promoteCmd})
}

func promoteCmd(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "promote", promoteHelp)
	id := fs.String("id", "", "the new case's `ID` (group/slug; default: the attempt's case id with -promoted added)")
	out := fs.String("out", "", "write the case to `FILE` (default: stdout); an existing file is refused")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 3 && strings.HasPrefix(pos[2], "#") { // CASE #N, unquoted
		pos = []string{pos[0], pos[1] + pos[2]}
	}
	if len(pos) != 2 {
		return usagef("want RUN and CASE#N (see mcpeval help promote)")
	}
	key, err := parseAttemptRef(pos[1])
	if err != nil {
		return usagef("%v", err)
	}
	if *id != "" {
		if g, slug, ok := strings.Cut(*id, "/"); !ok || g == "" || slug == "" || strings.TrimSpace(*id) != *id {
			return usagef("--id %q: want group/slug", *id)
		}
	}
	rd, err := openRun(pos[0])
	if err != nil {
		return err
	}
	defer rd.Close()
	a, err := rd.Load(key)
	if err != nil {
		return fmt.Errorf("reading %s: %w", key, err)
	}
	if a == nil {
		return usagef("%s has no attempt %s", pos[0], key)
	}
	h := rd.Run().Header
	newID := *id
	if newID == "" {
		newID = a.Case + "-promoted"
	}
	text := corpus.Promote(a, corpus.PromoteOptions{ID: newID, RunID: h.RunID, Model: h.Model.Spec})
	if *out == "" {
		_, err := e.stdout.Write(text)
		return err
	}
	f, err := os.OpenFile(*out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, os.ErrExist) {
		return usagef("--out %s exists: promote never overwrites a file a person may have edited", *out)
	}
	if err != nil {
		return fmt.Errorf("writing the promoted case: %w", err)
	}
	if _, err := f.Write(text); err != nil {
		f.Close()
		return fmt.Errorf("writing the promoted case: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing the promoted case: %w", err)
	}
	fmt.Fprintf(e.stderr, "mcpeval promote: wrote %s: check it, then mark it checked: mcpeval review --verify %s --suite SUITE\n", termsafe.Line(*out), termsafe.Line(newID))
	return nil
}

// parseAttemptRef reads an attempt named CASE#N ("dates/today#2").
func parseAttemptRef(s string) (record.AttemptKey, error) {
	i := strings.LastIndex(s, "#")
	if i < 0 {
		return record.AttemptKey{}, fmt.Errorf("attempt %q: want CASE#N, as dates/today#1", s)
	}
	c := strings.TrimSpace(s[:i])
	n, err := strconv.Atoi(strings.TrimSpace(s[i+1:]))
	if c == "" || err != nil || n < 1 {
		return record.AttemptKey{}, fmt.Errorf("attempt %q: want CASE#N with N from 1, as dates/today#1", s)
	}
	return record.AttemptKey{Case: c, N: n}, nil
}
