package main

import (
	"context"

	"github.com/mcpeval/mcpeval/internal/compare"
	"github.com/mcpeval/mcpeval/internal/plan"
)

const planHelp = `
Usage: mcpeval plan (--baseline RUN | --rate RATE) [--drop F] [--power F] [--alpha F] [--json] [--suite PATH]

Says how many attempts a gate (run --gate) needs to detect a drop in pass
rate of --drop (default 0.1, ten points) with chance --power (default 0.8),
with the gate's own test: Fisher's exact test, two-sided, at --alpha
(default 0.05). Power is computed exactly, not approximated.

--baseline RUN plans against that run as recorded: a row for its total
(the attempts over every case, and per case) and one for each case (that
case's attempts). A case whose baseline has too few attempts can never
show the drop, whatever the new run does: rerun the baseline with more.
--rate RATE plans before any run: the baseline and the new run each get
the attempts the row gives, both random.

docs/statistics.md says how it is computed.
`

func init() {
	register(&command{name: "plan", summary: "say how many attempts a gate needs to detect a drop", run: planCmd})
}

func planCmd(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "plan", planHelp)
	baseline := fs.String("baseline", "", "plan against the baseline run `RUN`")
	rate := floatFlag(fs.FlagSet, "rate", 0, "plan for a pass `RATE` (0 to 1) before any run")
	drop := floatFlag(fs.FlagSet, "drop", 0.1, "the drop in pass rate to detect, a `FRACTION` (0.1: ten points)")
	power := floatFlag(fs.FlagSet, "power", 0.8, "the chance of detecting it, a `FRACTION`")
	alpha := floatFlag(fs.FlagSet, "alpha", compare.DefaultAlpha, "the gate's significance `LEVEL`")
	asJSON := fs.Bool("json", false, "print the plan as JSON")
	suitePath := fs.String("suite", "", "grade the baseline against the suite at `PATH`")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) > 0:
		return usagef("unexpected argument %q (flags only; see mcpeval help plan)", pos[0])
	case (*baseline == "") == (*rate == 0):
		return usagef("give --baseline RUN or --rate RATE, one of them")
	case *rate < 0 || *rate > 1:
		return usagef("--rate %v: want a pass rate from 0 to 1, such as 0.9", *rate)
	case *drop <= 0 || *drop >= 1 || *power <= 0 || *power >= 1 || *alpha <= 0 || *alpha >= 1:
		return usagef("--drop, --power and --alpha want a fraction between 0 and 1 (0.1, 0.8, 0.05)")
	}
	s := plan.Settings{Drop: *drop, Power: *power, Alpha: *alpha}
	var p *plan.Plan
	if *baseline != "" {
		in, err := loadStreamed(*baseline, *suitePath, nil)
		if err != nil {
			return err
		}
		p = plan.ForBaseline(*baseline, in.Result, s)
	} else {
		p = plan.ForRate(*rate, s)
	}
	if *asJSON {
		return plan.JSON(e.stdout, p)
	}
	return plan.Text(e.stdout, p)
}
