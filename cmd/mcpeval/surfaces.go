package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/audit"
	"github.com/mcpeval/mcpeval/internal/ladder"
	"github.com/mcpeval/mcpeval/internal/pipeline"
	"github.com/mcpeval/mcpeval/internal/report"
	"github.com/mcpeval/mcpeval/internal/termsafe"
	"github.com/mcpeval/mcpeval/internal/usage"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/runner"
	"github.com/mcpeval/mcpeval/suite"
	"github.com/mcpeval/mcpeval/target"
)

const surfacesHelp = `
Usage: mcpeval surfaces RUN... [--json | --markdown] [--suite PATH]

Sets runs of one suite on several of its surfaces, by one model or
several, side by side: a row per run with its surface, model, the tools
the model was shown, the pass rate with its 95% interval, pass^k, Fisher's
test against the same model's run on the canonical surface, and the action
columns; then what each cost: the tokens its tool list takes per request
(estimated from the tool definitions), the tokens billed, the dollars and
the dollars per success. Every run is graded by the same cases and key,
its calls read back to the canonical actions, so one model's rows differ
by the presentation of the tools alone.

"mcpeval run" on a suite that declares surfaces runs every one of them (or
those --surface names), with every --model given, and prints the same
table at the end.
`

func init() {
	register(&command{name: "surfaces", summary: "set runs on several surfaces of one suite side by side", run: surfacesCmd})
}

func surfacesCmd(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "surfaces", surfacesHelp)
	asJSON := fs.Bool("json", false, "print the table as JSON")
	asMD := fs.Bool("markdown", false, "print the table as Markdown")
	suitePath := fs.String("suite", "", "grade every run against the suite at `PATH`")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("want one or more run directories (see mcpeval help surfaces)")
	}
	if *asJSON && *asMD {
		return usagef("--json and --markdown: choose one")
	}
	var runs []report.SurfaceRun
	for _, dir := range pos {
		_, r, err := loadSurfaceRun(dir, *suitePath)
		if err != nil {
			return err
		}
		runs = append(runs, r)
	}
	t := report.BuildSurfaces(runs)
	switch {
	case *asJSON:
		return report.SurfacesJSON(e.stdout, t)
	case *asMD:
		return report.SurfacesMarkdown(e.stdout, t)
	}
	return report.SurfacesText(e.stdout, t)
}

// loadSurfaceRun reads the run in dir as a stream, graded against the
// suite at suitePath (else its own), with its cost and billed tokens: as
// the ladder takes it, and as the side-by-side table does.
func loadSurfaceRun(dir, suitePath string) (ladder.Input, report.SurfaceRun, error) {
	rd, err := openRun(dir)
	if err != nil {
		return ladder.Input{}, report.SurfaceRun{}, err
	}
	defer rd.Close()
	t := usage.NewTally(&rd.Run().Header, nil)
	var tokens model.Usage
	res, err := gradeStream(rd, dir, suitePath, grade.NewGrader, func(a *record.Attempt) {
		t.Add(a)
		tokens = tokens.Add(a.Usage())
	})
	if err != nil {
		return ladder.Input{}, report.SurfaceRun{}, err
	}
	in := ladder.Input{Run: rd.Run(), Result: res, Attempts: rd.Len(), Cost: t.Cost(res.Totals.Passed)}
	return in, report.SurfaceRun{Record: in.Run, Result: res, Cost: in.Cost, Tokens: tokens}, nil
}

// severalSurfaces reports whether runs measured more than one surface.
func severalSurfaces(runs []report.SurfaceRun) bool {
	first := ""
	for i, r := range runs {
		name := ""
		if r.Record.Header.Surface != nil {
			name = r.Record.Header.Surface.Name
		}
		if i == 0 {
			first = name
		} else if name != first {
			return true
		}
	}
	return false
}

// ladderAndSurfacesJSON writes a ladder and the table of the runs on
// every surface as one JSON object: "ladder" and "surfaces".
func ladderAndSurfacesJSON(w io.Writer, l *ladder.Ladder, t *report.Surfaces) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Ladder   *ladder.Ladder   `json:"ladder"`
		Surfaces *report.Surfaces `json:"surfaces"`
	}{l, t})
}

// surfaceRuns are the graded runs as the side-by-side table takes them.
func surfaceRuns(runs []*pipeline.Graded) []report.SurfaceRun {
	var srs []report.SurfaceRun
	for _, r := range runs {
		sr := report.SurfaceRun{Record: r.Record, Result: r.Result, Cost: r.Cost}
		if r.Usage != nil {
			for _, l := range r.Usage.Cases {
				sr.Tokens = sr.Tokens.Add(l.Tokens)
			}
		}
		srs = append(srs, sr)
	}
	return srs
}

// printSurfaces sets the runs on several surfaces, of one model or
// several, side by side as a table (as JSON with --json; with a ladder
// too, one JSON object holding both).
func printSurfaces(e *env, f runFlags, runs []*pipeline.Graded, lad *ladder.Ladder) error {
	t := report.BuildSurfaces(surfaceRuns(runs))
	if f.json && lad != nil {
		return ladderAndSurfacesJSON(e.stdout, lad, t)
	}
	if f.json {
		return report.SurfacesJSON(e.stdout, t)
	}
	fmt.Fprintln(e.stdout)
	return report.SurfacesText(e.stdout, t)
}

// surfaceNames returns the surfaces to run: those --surface names, else
// every surface the suite declares; none for a suite without surfaces, or
// when --target or --resume decides the target.
func (f *runFlags) surfaceNames() ([]string, error) {
	if f.resume != "" || (len(f.target) > 0 && len(f.surfaces) == 0) {
		return nil, nil
	}
	s, err := loadSuite(f.suite)
	if err != nil {
		return nil, err
	}
	if len(f.surfaces) == 0 {
		return s.SurfaceNames(), nil
	}
	seen := map[string]bool{}
	for _, n := range f.surfaces {
		if err := unknownSurface(s, n); err != nil {
			return nil, err
		}
		if seen[n] {
			return nil, usagef("--surface %s is given twice", n)
		}
		seen[n] = true
	}
	return f.surfaces, nil
}

// unknownSurface refuses --surface NAME when suite s declares no surfaces,
// or none of that name: bad usage.
func unknownSurface(s *suite.Suite, name string) error {
	if len(s.Surfaces) == 0 {
		return usagef("--surface %s: suite %s declares no surfaces (see docs/targets.md, Surfaces)", name, s.Name)
	}
	if s.Surface(name) == nil {
		return usagef("--surface %s: suite %s has no such surface (it has %s)", name, s.Name, strings.Join(s.SurfaceNames(), ", "))
	}
	return nil
}

// onSurface returns the surface this run measures and its target: the
// surface f.surface names (or the one a resumed run recorded), with the
// target flags applied to its target. Without one it returns nil and
// tcfg as it is.
func (f *runFlags) onSurface(s *suite.Suite, tcfg target.Config, resume *record.Run) (*suite.Surface, target.Config, error) {
	name := f.surface
	if resume != nil {
		name = ""
		if resume.Header.Surface != nil {
			name = resume.Header.Surface.Name
		}
		for _, n := range f.surfaces {
			if n != name {
				return nil, tcfg, usagef("--surface %s: %s ran on %s, and --resume continues it there; leave --surface out", n, resume.Dir, surfaceLabel(name))
			}
		}
	}
	if name == "" {
		return nil, tcfg, nil
	}
	sf := s.Surface(name)
	if sf == nil {
		return nil, tcfg, usagef("surface %s: suite %s has no such surface (it has %s)", name, s.Name, strings.Join(s.SurfaceNames(), ", "))
	}
	t, err := resolveTarget(s, f.overrides(sf))
	if err != nil {
		return nil, tcfg, err
	}
	return sf, t, nil
}

// surfaceLabel names a run's surface in a message: "surface NAME", or "no
// surface".
func surfaceLabel(name string) string {
	if name == "" {
		return "no surface"
	}
	return "surface " + termsafe.Line(name)
}

// surfaceCoverages covers the suite's mapped surfaces (those only names,
// else every one), given its canonical coverage: each surface's server is
// started and its tools listed. base is the canonical target, for its
// builtins.
func surfaceCoverages(ctx context.Context, s *suite.Suite, canonical *audit.Coverage, base target.Config, only []string) ([]*audit.SurfaceCoverage, error) {
	for _, n := range only {
		if err := unknownSurface(s, n); err != nil {
			return nil, err
		}
	}
	var out []*audit.SurfaceCoverage
	for _, sf := range s.Surfaces {
		if sf.Canonical() || (len(only) > 0 && !slices.Contains(only, sf.Name)) {
			continue
		}
		tools, err := runner.SurfaceTools(ctx, s, sf, base)
		if err != nil {
			return nil, badInput(err)
		}
		out = append(out, audit.SurfaceCoverageOf(s, sf, canonical, shownOn(s, sf, tools)))
	}
	return out, nil
}

// shownOn returns the tools of surface sf some case of s is shown, as a
// run on it shows them (the tools filters read through its map), so that
// a surface is covered as its canonical surface is: over what the model
// may see.
func shownOn(s *suite.Suite, sf *suite.Surface, tools []record.Tool) []record.Tool {
	var out []record.Tool
	for _, t := range tools {
		if !s.ShowsOn(sf, nil, t.Name) {
			continue
		}
		shown := len(s.Cases) == 0
		for _, c := range s.Cases {
			if s.ShowsOn(sf, c, t.Name) {
				shown = true
				break
			}
		}
		if shown {
			out = append(out, t)
		}
	}
	return out
}

// surfaceProblems checks each mapped surface's map against the canonical
// tools (every tool the canonical surface's server lists, shown or not) and
// the tools its own server lists, and that the suite's tools filters can be
// kept on it, for validate: each problem is located at its map entry or
// case. It returns too the prompts that name a tool of a mapped surface
// (audit.SurfaceLeaks). base is the suite's target, for its builtins.
func surfaceProblems(ctx context.Context, s *suite.Suite, base target.Config) ([]located, []audit.Leak) {
	if len(s.Surfaces) == 0 {
		return nil, nil
	}
	canonical, err := runner.SurfaceTools(ctx, s, s.CanonicalSurface(), base)
	if err != nil {
		return []located{{Kind: "surface", File: s.Path, Message: err.Error()}}, nil
	}
	var can []string
	for _, t := range canonical {
		can = append(can, t.Name)
	}
	var out []located
	var leaks []audit.Leak
	for _, sf := range s.Surfaces {
		if sf.Canonical() {
			continue
		}
		tools, err := runner.SurfaceTools(ctx, s, sf, base)
		if err != nil {
			out = append(out, located{Kind: "surface", File: s.Path, Message: err.Error()})
			continue
		}
		leaks = append(leaks, audit.SurfaceLeaks(s, sf, tools)...)
		var listed []string
		for _, t := range tools {
			listed = append(listed, t.Name)
		}
		for _, err := range []error{s.CheckSurface(sf, can, listed), s.CheckFiltersOn(sf, listed)} {
			var es suite.Errors
			if errors.As(err, &es) {
				for _, e := range es {
					out = append(out, located{Kind: "surface", File: e.File, Line: e.Line, Message: e.Msg})
				}
			}
		}
	}
	return out, leaks
}
