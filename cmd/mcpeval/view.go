package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/mcpeval/mcpeval/internal/buildinfo"
	"github.com/mcpeval/mcpeval/internal/rundir"
	"github.com/mcpeval/mcpeval/internal/view"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

const viewHelp = `
Usage: mcpeval view [DIR...] [--addr HOST:PORT] [--reviewer NAME] [--read-only]

Serves a local web app over run directories (default ROOT/runs, the
output root of mcpeval help run: --out-root, else $MCPEVAL_OUT_ROOT, else
the current folder's runs/, or the one beside it in a suite's folder): every run,
newest first, with its pass rate and interval, errors, reviewed share and
cost; a run's failures grouped by identical reasons, with search; each
attempt beside what its case expected; review in place (the verdicts of
mcpeval review, written to the run's reviews.jsonl); a verify case button
on an attempt of a case drafted by mcpeval promote (verified: false), which
marks it checked in its suite file as mcpeval review --verify does; the
comparison of two runs; and runs in progress as they gain attempts.
--read-only writes nothing: no review, no verified case.

A DIR is a run directory or a directory of them. Each run is graded
against its suite as it is now, as mcpeval review does; a run whose suite
cannot be loaded is shown from its grades.json. A run of 500 attempts or
more is listed by case, each with its counts; the server holds verdicts and
counters, and reads a case's attempts, a search's matches and an attempt's
transcript from the record when they are opened.

It binds 127.0.0.1 (a free port unless --addr says otherwise) and answers
only requests addressed to it. Another address shows the runs to whoever
can reach it, and a warning says so. It never calls a model or a target.
The reviewer's name comes from --reviewer or MCPEVAL_REVIEWER, and can be
changed on the page.
`

func init() {
	register(&command{name: "view", summary: "see and review runs in the browser", run: viewCmd, gc: limitHeap})
}

func viewCmd(ctx context.Context, e *env, args []string) error {
	// A run read holds a verdict per attempt, some 20 MB at 100,000
	// attempts, while reading its attempts one by one makes as much
	// garbage again: the soft limit keeps the peak near what is held. It
	// costs an idle server nothing (the collector runs only as it
	// allocates); one holding more than the limit (several large runs)
	// collects more often while it reads a run or serves a page, never
	// with more than half the CPU.
	var addr, reviewer string
	var readOnly bool
	fs := newFlags(e, "view", viewHelp)
	fs.StringVar(&addr, "addr", "127.0.0.1:0", "`HOST:PORT` to listen on (port 0: a free one)")
	fs.StringVar(&reviewer, "reviewer", "", "the reviewer's `NAME` (default $MCPEVAL_REVIEWER)")
	fs.BoolVar(&readOnly, "read-only", false, "write nothing: refuse reviews and verifying cases")
	outRootFlag := fs.String("out-root", "", "with no DIR, serve the runs in `DIR`/runs (default: $MCPEVAL_OUT_ROOT, else the current folder, else beside the suite's folder when in it)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return usagef("--addr %q: want HOST:PORT, such as 127.0.0.1:8080", addr)
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil && port != "" {
		return usagef("--addr %q: port %q: want a number from 0 to 65535 (0: a free one)", addr, port)
	}
	if reviewer == "" {
		reviewer = e.getenv("MCPEVAL_REVIEWER")
	}
	if len(pos) == 0 {
		root, _, err := outRoot(e, *outRootFlag, "")
		if err != nil {
			return err
		}
		pos = []string{filepath.Join(root, rundir.Runs)}
	} else if *outRootFlag != "" {
		return usagef("--out-root chooses the runs served when no DIR is given: give one or the other")
	}
	if ctx.Err() != nil {
		return nil // stopped before it started
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", addr, err)
	}
	defer ln.Close()
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		if readOnly {
			fmt.Fprintf(e.stderr, "mcpeval view: warning: listening on %s: anyone who can reach this address can read these runs\n", ln.Addr())
		} else {
			fmt.Fprintf(e.stderr, "mcpeval view: warning: listening on %s: anyone who can reach this address can read these runs, write reviews and mark drafted cases checked in their suite files (--read-only: none of these writes)\n", ln.Addr())
		}
	}
	bound := ln.Addr().String()
	if host == "localhost" {
		bound = "localhost:" + bound[strings.LastIndex(bound, ":")+1:]
	}
	srv, err := view.New(view.Options{
		Dirs: pos, Suite: viewSuite, Addr: bound, Reviewer: reviewer, ReadOnly: readOnly,
		Version: buildinfo.Get().Version, Log: log.New(e.stderr, "mcpeval view: ", 0),
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "mcpeval view: http://%s/ (Ctrl-C to stop)\n", bound)
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		hs.Shutdown(sctx)
		hs.Close()
	}()
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serving: %w", err)
	}
	return nil
}

// viewSuite loads the suite a run's header names, as it is now, for the
// run to be graded against, its secrets hidden (shownSuite).
func viewSuite(h *record.Header) (*suite.Suite, error) { return shownSuite(h.Suite.Path) }
