package pipeline

import (
	"context"
	"fmt"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/judge"
	"github.com/mcpeval/mcpeval/internal/usage"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// ScoreStream is Score for a record read as a stream (record.Open): it
// grades the run and totals its usage attempt by attempt, holding
// verdicts and per-case counters, never whole attempts, so that a run of
// any size is scored in memory that barely grows with it. Graded.Record
// is rd's run, without attempts.
//
// With Options.Judge set, the attempts the judge reads (judge.Reads: the
// answers of decline cases and of cases with a rubric) are kept in the
// same pass, each with only what the judge is sent (judge.Question), and
// the judge is asked about them alone.
func ScoreStream(ctx context.Context, s *suite.Suite, rd *record.Reader, opts Options) (*Graded, error) {
	run := rd.Run()
	gr := grade.NewGrader(s, run)
	t := usage.NewTally(&run.Header, opts.Prices)
	var asked *record.Run
	if opts.Judge != nil {
		asked = &record.Run{Dir: run.Dir, Header: run.Header}
	}
	err := rd.Each(func(a *record.Attempt) error {
		gr.Add(a)
		t.Add(a)
		if asked != nil && judge.Reads(opts.Judge, s, a) {
			asked.Attempts = append(asked.Attempts, judge.Question(a))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("grading %s: %w", run.Dir, err)
	}
	g := &Graded{Suite: s, Record: run, Result: gr.Result(), Attempts: rd.Len()}
	return g.derive(ctx, opts, t, asked), nil
}

// ScoreDir is ScoreStream for the record in dir.
func ScoreDir(ctx context.Context, s *suite.Suite, dir string, opts Options) (*Graded, error) {
	rd, err := record.Open(dir)
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	return ScoreStream(ctx, s, rd, opts)
}
