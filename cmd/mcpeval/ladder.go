package main

import (
	"context"
	"fmt"
	"slices"

	"github.com/mcpeval/mcpeval/internal/ladder"
	"github.com/mcpeval/mcpeval/internal/report"
	"github.com/mcpeval/mcpeval/record"
)

const ladderHelp = `
Usage: mcpeval ladder RUN... [--json | --markdown] [--suite PATH] [--bar RATE]

Sets runs of one suite on several models side by side, the strongest model
first: a column per model with each case's pass rate and n, and the
calibration reading. A case failing on the strongest model is a case defect
or a product gap, not a description problem; a case passing there and
failing lower down points at the tool descriptions (or the tools' output).
Only a calibrated suite (the strongest model passes every case) lets a
weaker model's failures be read as description problems.

Under the totals, each model's cost per success (its run's cost over its
passing attempts), and the cost/pass frontier: the priced models no other
beats on both dollars per attempt and pass rate. --bar 0.9 marks the
models whose pass rate's lower 95% Wilson bound reaches 90% (a model is
not picked on the luck of a few attempts) and names the cheapest of them
per success (docs/statistics.md).

"mcpeval run --model STRONG --model WEAKER ..." prints the same ladder at
the end of its runs.

Runs on several surfaces of a suite (a matrix of models by surfaces) make a
ladder of the runs on the first run's surface, then the table of every run
side by side, as "mcpeval surfaces" prints it (with --json, one object
holding "ladder" and "surfaces").
`

func init() {
	register(&command{name: "ladder", summary: "set runs on several models side by side, strongest first", run: ladderCmd})
}

func ladderCmd(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "ladder", ladderHelp)
	asJSON := fs.Bool("json", false, "print the ladder as JSON")
	asMD := fs.Bool("markdown", false, "print the ladder as Markdown")
	suitePath := fs.String("suite", "", "grade every run against the suite at `PATH`")
	bar := floatFlag(fs.FlagSet, "bar", 0, "mark the models whose pass rate's lower 95% Wilson bound reaches `RATE` (0 to 1) and name the cheapest of them")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) < 2 {
		return usagef("want two or more run directories, the strongest model's first (see mcpeval help ladder)")
	}
	if *asJSON && *asMD {
		return usagef("--json and --markdown: choose one")
	}
	if *bar < 0 || *bar > 1 {
		return usagef("--bar %v: want a pass rate from 0 to 1, such as 0.9", *bar)
	}
	var runs []ladder.Input
	var srs []report.SurfaceRun
	for _, dir := range pos {
		in, sr, err := loadSurfaceRun(dir, *suitePath) // surfaces.go
		if err != nil {
			return err
		}
		runs, srs = append(runs, in), append(srs, sr)
	}
	var table *report.Surfaces
	if severalSurfaces(srs) {
		// The ladder reads case by case on one surface, the first run's;
		// the table sets every run side by side.
		table = report.BuildSurfaces(srs)
		first := surfaceName(runs[0].Run)
		runs = slices.DeleteFunc(runs, func(in ladder.Input) bool { return surfaceName(in.Run) != first })
	}
	l := ladder.BuildFrom(runs)
	if *bar > 0 {
		l.SetBar(*bar)
	}
	switch {
	case *asJSON && table != nil:
		return ladderAndSurfacesJSON(e.stdout, l, table)
	case *asJSON:
		return ladder.JSON(e.stdout, l)
	case *asMD:
		if err := ladder.Markdown(e.stdout, l); err != nil || table == nil {
			return err
		}
		fmt.Fprintln(e.stdout)
		return report.SurfacesMarkdown(e.stdout, table)
	}
	if table != nil {
		fmt.Fprintf(e.stdout, "model ladder on %s\n", surfaceLabel(surfaceName(runs[0].Run)))
	}
	if err := ladder.Text(e.stdout, l); err != nil || table == nil {
		return err
	}
	fmt.Fprintln(e.stdout)
	return report.SurfacesText(e.stdout, table)
}

// surfaceName is the surface run r measured; "" for none.
func surfaceName(r *record.Run) string {
	if r.Header.Surface == nil {
		return ""
	}
	return r.Header.Surface.Name
}
