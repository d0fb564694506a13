package main

import (
	"context"
	"fmt"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/judge"
	"github.com/mcpeval/mcpeval/internal/judging"
	"github.com/mcpeval/mcpeval/internal/provider"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
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

// judgeRun asks j (when set) about the run's decline answers, stores the
// opinions, and attaches stored opinions to res either way. Opinions never
// change a grade.
func judgeRun(ctx context.Context, e *env, j judge.Judge, s *suite.Suite, rec *record.Run, res *grade.Result) {
	if j != nil {
		ops := judging.Ask(ctx, j, s, rec, 4)
		if err := judging.Write(rec.Dir, ops); err != nil {
			fmt.Fprintf(e.stderr, "mcpeval: %v\n", err)
		}
	}
	ops, err := judging.Read(rec.Dir)
	if err != nil {
		fmt.Fprintf(e.stderr, "mcpeval: %v\n", err)
		return
	}
	if len(ops) == 0 {
		return
	}
	judging.Attach(res, ops)
	if d := judging.Disagreements(res); len(d) > 0 {
		fmt.Fprintf(e.stderr, "advisory judge disagrees with the grade on %d decline attempts (grades unchanged; review them first):\n", len(d))
		for _, line := range d {
			fmt.Fprintf(e.stderr, "  %s\n", line)
		}
	}
}
