package main

import (
	"context"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/ladder"
	"github.com/mcpeval/mcpeval/record"
)

const ladderHelp = `
Usage: mcpeval ladder RUN... [--json | --markdown] [--suite PATH]

Sets runs of one suite on several models side by side, the strongest model
first: a column per model with each case's pass rate and n, and the
calibration reading. A case failing on the strongest model is a case defect
or a product gap, not a description problem; a case passing there and
failing lower down points at the tool descriptions (or the tools' output).
Only a calibrated suite (the strongest model passes every case) lets a
weaker model's failures be read as description problems.

"mcpeval run --model STRONG --model WEAKER ..." prints the same ladder at
the end of its runs.
`

func init() {
	register(&command{name: "ladder", summary: "set runs on several models side by side, strongest first", run: ladderCmd})
}

func ladderCmd(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "ladder", ladderHelp)
	asJSON := fs.Bool("json", false, "print the ladder as JSON")
	asMD := fs.Bool("markdown", false, "print the ladder as Markdown")
	suitePath := fs.String("suite", "", "grade every run against the suite at `PATH`")
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
	var recs []*record.Run
	var ress []*grade.Result
	for _, dir := range pos {
		rec, res, err := loadGraded(e, dir, *suitePath)
		if err != nil {
			return err
		}
		recs = append(recs, rec)
		ress = append(ress, res)
	}
	l := ladder.Build(recs, ress)
	switch {
	case *asJSON:
		return ladder.JSON(e.stdout, l)
	case *asMD:
		return ladder.Markdown(e.stdout, l)
	}
	return ladder.Text(e.stdout, l)
}
