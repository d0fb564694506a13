package main

import (
	"fmt"

	"github.com/mcpeval/mcpeval/internal/judge"
	"github.com/mcpeval/mcpeval/internal/pipeline"
	"github.com/mcpeval/mcpeval/internal/provider"
	"github.com/mcpeval/mcpeval/internal/termsafe"
	"github.com/mcpeval/mcpeval/internal/usage"
	"github.com/mcpeval/mcpeval/model"
)

// openJudge opens the advisory judge spec names: "fake:phrases" (a phrase
// list, for tests) or any model spec, which is then a paid call like the
// model under test.
func openJudge(e *env, spec string, spend bool) (judge.Judge, error) {
	if spec == "fake:phrases" {
		return judge.Fake{}, nil
	}
	if err := spendAllowed(e, spec, spend); err != nil {
		return nil, err
	}
	m, info, err := provider.Open(spec, provider.Options{})
	if err != nil {
		return nil, badInput(fmt.Errorf("--judge: %w", err))
	}
	return judge.New(m, info), nil
}

// judgePriced refuses a dollar budget for a paid judge no price table
// lists: its asks count against the budget, and their dollars could not
// be counted.
func judgePriced(spec string, budgetUSD float64, prices *usage.Prices) error {
	if spec == "" || budgetUSD <= 0 || !provider.Real(spec) {
		return nil
	}
	info, err := model.ParseSpec(spec)
	if err != nil {
		return badInput(fmt.Errorf("--judge: %w", err))
	}
	if _, ok := prices.Lookup(info.Provider, info.Name); !ok {
		return usagef("--budget-usd: judge %s is not in the price table, so its asks cannot be counted in dollars; use --budget-tokens, or price it with --prices FILE", spec)
	}
	return nil
}

// tellDisagreements says on stderr which attempts the advisory judge reads
// otherwise than the grade (its opinions never change a grade), and how
// many of the judge's asks the run's budget stopped.
func tellDisagreements(e *env, g *pipeline.Graded) {
	if d := g.Disagreements; len(d) > 0 {
		fmt.Fprintf(e.stderr, "advisory judge disagrees with the grade on %d decline attempts (grades unchanged; review them first):\n", len(d))
		for _, line := range d {
			fmt.Fprintf(e.stderr, "  %s\n", line)
		}
	}
	for _, l := range g.Judges {
		if l.NotAsked > 0 {
			fmt.Fprintf(e.stderr, "judge %s stopped: the run's budget is spent, so %d of its asks were not made; the answers they concern have no judge opinion (the attempts stay recorded; to ask it again, mcpeval score RUN --judge SPEC)\n",
				termsafe.Line(l.Model), l.NotAsked)
		}
	}
}

// openJudgeBudget opens the judge for score, with the budget its asks are
// held to when it is paid (nil otherwise): a dollar budget needs a priced
// judge, and is refused before anything is sent otherwise.
func openJudgeBudget(e *env, spec string, spend bool, tokens int64, usd float64, prices *usage.Prices) (judge.Judge, *usage.Budget, error) {
	if tokens < 0 || usd < 0 {
		return nil, nil, usagef("--budget-tokens and --budget-usd must not be negative")
	}
	j, err := openJudge(e, spec, spend)
	if err != nil || !provider.Real(spec) {
		return j, nil, err
	}
	if err := judgePriced(spec, usd, prices); err != nil {
		return nil, nil, err
	}
	return j, &usage.Budget{Tokens: tokens, USD: usd}, nil
}
