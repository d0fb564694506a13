package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/mcpeval/mcpeval/internal/pipeline"
	"github.com/mcpeval/mcpeval/internal/report"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

const mergeHelp = `
Usage: mcpeval merge --out DIR SHARD... [--json | --markdown] [--junit FILE] [--summary FILE]

Combines the records of a sharded run ("mcpeval run --shard K/N", one per
machine: a CI matrix, a Kubernetes indexed job) into one run record in DIR,
holding every attempt in plan order, then grades it as run does and writes
the same files beside it (grades.json, actions.json, ...).

It refuses shards of different runs (another suite, other tool
definitions or overlay, another model or options, target, attempts, turn
cap, system prompt, dataset, case filter or mcpeval build), shards given
twice, and missing shards, and says why. The merged run is incomplete when
a shard is, and invalid when a shard's preflight failed.
`

func init() {
	register(&command{name: "merge", summary: "combine the records of a sharded run into one run", run: mergeCmd, gc: limitHeap})
}

func mergeCmd(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "merge", mergeHelp)
	out := fs.String("out", "", "the merged run's `DIR` (required)")
	asJSON := fs.Bool("json", false, "print the summary as JSON")
	asMD := fs.Bool("markdown", false, "print the summary as Markdown")
	junitFile := fs.String("junit", "", "write JUnit XML to `FILE`")
	summary := fs.String("summary", "", "append a Markdown summary to `FILE`")
	suitePath := fs.String("suite", "", "grade the merged run against this suite `PATH` (default: the one the shards name)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if *out == "" {
		return usagef("--out DIR is required: where the merged run goes")
	}
	if err := checkOutDir(*out); err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("want the shards' run directories (see mcpeval help merge)")
	}
	if err := checkOutputs(*junitFile, *summary); err != nil {
		return err
	}
	// The first shard's header names the suite. Load it before writing
	// anything, so that a failed merge can simply be run again.
	h, err := record.ReadHeader(pos[0])
	if err != nil {
		return badInput(err)
	}
	sp := *suitePath
	if sp == "" {
		sp, err = h.Suite.Locate(shardDir(pos[0]))
	}
	var s *suite.Suite
	if err == nil {
		s, err = loadSuite(sp)
	}
	if err != nil {
		return fmt.Errorf("loading the shards' suite to grade the merged run (give it with --suite PATH; nothing was written): %w", err)
	}
	g, err := pipeline.Merge(ctx, s, *out, pos, pipeline.Options{})
	if errors.Is(err, pipeline.ErrCannotMerge) {
		return usagef("%v", err)
	}
	if err != nil {
		return err
	}
	rec := g.Record
	for _, err := range g.Problems {
		fmt.Fprintf(e.stderr, "mcpeval merge: %v\n", err)
	}
	res := g.Result
	if err := printCost(e, *asJSON, *asMD, res, rec, g.Cost); err != nil {
		return err
	}
	if *junitFile != "" {
		if err := writeJUnit(ctx, e, *junitFile, report.JUnitRun{Record: rec, Result: res, Durations: g.WallTime}); err != nil {
			return err
		}
	}
	if *summary != "" {
		if err := appendFile(ctx, e, *summary, func(w io.Writer) error { return report.Markdown(w, res, &rec.Header, g.Cost) }); err != nil {
			return err
		}
	}
	switch {
	case !res.Valid:
		return exitf(exitInvalid, "the merged run is invalid: %s", res.Invalid)
	case !rec.Complete():
		return exitf(exitIncomplete, "the merged run is incomplete (%s): resume the unfinished shards (mcpeval run --resume SHARD) and merge again", rec.End.Reason)
	}
	if err := derivedProblems(g); err != nil {
		return err
	}
	return nothingGraded([]*pipeline.Graded{g})
}

// shardDir is the run directory of a shard given by its directory or its
// record file.
func shardDir(p string) string {
	if st, err := os.Stat(p); err == nil && !st.IsDir() {
		return filepath.Dir(p)
	}
	return p
}
