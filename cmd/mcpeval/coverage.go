package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/mcpeval/mcpeval/internal/audit"
	"github.com/mcpeval/mcpeval/internal/termsafe"
	"github.com/mcpeval/mcpeval/runner"
)

const coverageHelp = `
Usage: mcpeval coverage [SUITE] [--target SPEC | --target NAME=SPEC...] [--json]

Prints which cases of a suite exercise each tool of its target, and each
argument of each tool (a leaf of its input schema, "*" for list
elements), against the target's live tool list: an action case by the
steps of its key, a question case by the tools it requires or accepts,
its key's calls, its expected tool calls and its argument rules. A tool or argument no case
covers must be listed under actions.uncovered in the suite, with the
reason; otherwise it is a gap, and the exit status is 5.
SUITE is a path or an embedded suite name (default: household).
A suite that declares surfaces (docs/targets.md) is covered on each mapped
surface too (or on those --surface names): every tool the surface lists
must stand for some canonical action, every value of its selecting
argument (action) too, and every canonical tool must be mapped.
With --json the matrix and its gaps are printed as JSON.

Examples:
  mcpeval coverage ops
  mcpeval coverage my-suite/ --json
`

// coverageJSON is what coverage --json prints.
type coverageJSON struct {
	Suite  string `json:"suite"`
	Target string `json:"target"`
	*audit.Coverage
	Gaps []string `json:"gaps"`
	// Surfaces are the suite's mapped surfaces, covered (surfaces.go).
	Surfaces []*audit.SurfaceCoverage `json:"surfaces,omitempty"`
}

func init() {
	register(&command{name: "coverage", summary: "show which cases cover each tool and argument of the target", run: coverageCmd})
}

func coverageCmd(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "coverage", coverageHelp)
	var tgt targetFlag
	tgt.register(fs.FlagSet)
	var headers, envs repeated
	fs.Var(&headers, "target-header", "send `NAME: VALUE` to an HTTP target; ${VAR} in VALUE is read from the environment; repeatable")
	fs.Var(&envs, "target-env", "set `KEY=VALUE` for a stdio target; ${VAR} in VALUE is read from the environment; repeatable")
	asJSON := fs.Bool("json", false, "print the matrix and its gaps as JSON on stdout")
	var surfaces stringList
	fs.Var(&surfaces, "surface", "cover the suite's surface `NAME` (default: every mapped surface it declares); repeatable")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return usagef("want at most one SUITE (see mcpeval help coverage)")
	}
	p := ""
	if len(pos) == 1 {
		p = pos[0]
	}
	s, err := loadSuite(p)
	if err != nil {
		return err
	}
	tcfg, err := resolveTarget(s, runner.TargetOverrides{Specs: tgt, Headers: headers, Env: envs})
	if err != nil {
		return err
	}
	ins, err := runner.Validate(ctx, s, tcfg)
	if err != nil {
		return badInput(err)
	}
	cov := audit.CoverageOf(s, ins.Tools)
	surfs, err := surfaceCoverages(ctx, s, cov, tcfg, surfaces) // surfaces.go
	if err != nil {
		return err
	}
	// The gaps of the canonical tools, then of each surface's.
	gaps := append([]string{}, cov.Gaps()...)
	for _, sc := range surfs {
		gaps = append(gaps, sc.Gaps...)
	}
	if *asJSON {
		if cov.Tools == nil {
			cov.Tools = []audit.ToolCoverage{}
		}
		if err := printJSON(e.stdout, coverageJSON{Suite: s.Name, Target: tcfg.Describe(), Coverage: cov, Gaps: gaps, Surfaces: surfs}); err != nil {
			return err
		}
		if len(gaps) > 0 {
			return exitf(exitGate, "%d coverage gaps", len(gaps))
		}
		return nil
	}
	fmt.Fprintf(e.stdout, "suite %s over %s: %d tools\n\n", termsafe.Line(s.Name), termsafe.Line(tcfg.Describe()), len(ins.Tools))
	if err := cov.Write(e.stdout); err != nil {
		return err
	}
	for _, sc := range surfs {
		fmt.Fprintln(e.stdout)
		if err := sc.Write(e.stdout); err != nil {
			return err
		}
	}
	if len(gaps) > 0 {
		for i := range gaps {
			gaps[i] = termsafe.Line(gaps[i]) // they name the server's tools
		}
		return exitf(exitGate, "%d coverage gaps:\n  %s", len(gaps), strings.Join(gaps, "\n  "))
	}
	return nil
}
