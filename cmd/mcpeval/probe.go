package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/mcpeval/mcpeval/internal/probe"
	"github.com/mcpeval/mcpeval/internal/provider"
	"github.com/mcpeval/mcpeval/internal/termsafe"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/runner"
)

const probeHelp = `
Usage: mcpeval probe --model SPEC [--model SPEC]... [--suite PATH] [--json] --spend

Sends one minimal tool-use request per model and reports whether the
provider accepts what the harness builds: the model name, its options and
the tool schemas. With --suite, the suite's target's real tool definitions
are offered too, so their schemas are checked. It spends as little as
possible (one short request per model), but it does spend: it needs --spend
or MCPEVAL_SPEND=yes like run.
`

func init() {
	register(&command{name: "probe", summary: "check that each provider accepts what the harness builds", run: probeCmd})
}

func probeCmd(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "probe", probeHelp)
	var models stringList
	fs.Var(&models, "model", "model `SPEC` to probe; repeatable")
	suitePath := fs.String("suite", "", "also offer this suite's target's tools (`PATH` or embedded name)")
	spend := fs.Bool("spend", false, "allow calls to a paid model API (or MCPEVAL_SPEND=yes)")
	asJSON := fs.Bool("json", false, "print the results as JSON")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 || len(models) == 0 {
		return usagef("want at least one --model and no arguments (see mcpeval help probe)")
	}
	for _, m := range models {
		if err := spendAllowed(e, m, *spend); err != nil {
			return err
		}
	}
	var tools []model.Tool
	if *suitePath != "" {
		s, err := loadSuite(*suitePath)
		if err != nil {
			return err
		}
		tcfg, err := resolveTarget(s, runner.TargetOverrides{})
		if err != nil {
			return err
		}
		ins, err := runner.Validate(ctx, s, tcfg)
		if err != nil {
			return badInput(err)
		}
		for _, t := range ins.Tools {
			tools = append(tools, model.Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema})
		}
	}
	type row struct {
		Model string `json:"model"`
		probe.Result
	}
	var rows []row
	failed := 0
	for _, spec := range models {
		m, _, err := provider.Open(spec, provider.Options{})
		if err != nil {
			return badInput(err)
		}
		res := probe.Probe(ctx, m, tools...)
		if !res.Accepted {
			failed++
		}
		rows = append(rows, row{spec, res})
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rows); err != nil {
			return err
		}
	} else {
		for _, r := range rows {
			status := "accepted"
			if !r.Accepted {
				status = "REFUSED: " + termsafe.Line(r.Error) // the provider's own words
			} else if !r.Called {
				status += " (the model answered without calling the tool)"
			}
			fmt.Fprintf(e.stdout, "%s: %s  %s  %d in / %d out tokens  %d retries\n", termsafe.Line(r.Model), status,
				r.Latency.Round(time.Millisecond), r.Usage.Input, r.Usage.Output, len(r.Tries))
		}
	}
	if failed > 0 {
		return exitf(exitFailure, "%d of %d models refused the probe", failed, len(models))
	}
	return nil
}
