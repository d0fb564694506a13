package main

import (
	"fmt"

	"github.com/mcpeval/mcpeval/internal/judge"
	"github.com/mcpeval/mcpeval/internal/pipeline"
	"github.com/mcpeval/mcpeval/internal/provider"
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

// tellDisagreements says on stderr which attempts the advisory judge reads
// otherwise than the grade (its opinions never change a grade).
func tellDisagreements(e *env, g *pipeline.Graded) {
	if d := g.Disagreements; len(d) > 0 {
		fmt.Fprintf(e.stderr, "advisory judge disagrees with the grade on %d decline attempts (grades unchanged; review them first):\n", len(d))
		for _, line := range d {
			fmt.Fprintf(e.stderr, "  %s\n", line)
		}
	}
}
