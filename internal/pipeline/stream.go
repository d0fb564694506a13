package pipeline

import (
	"context"
	"fmt"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/usage"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// ScoreStream is Score for a record read as a stream (record.Open): it
// grades the run and totals its usage attempt by attempt, holding
// verdicts and per-case counters, never attempts, so that a run of any
// size is scored in memory that barely grows with it. Graded.Record is
// rd's run, without attempts.
//
// The judge reads the answers it is asked about, so with Options.Judge
// set the record is read whole and handed to Score.
func ScoreStream(ctx context.Context, s *suite.Suite, rd *record.Reader, opts Options) (*Graded, error) {
	run := rd.Run()
	if opts.Judge != nil {
		rec, err := record.Read(run.Dir)
		if err != nil {
			return nil, err
		}
		return Score(ctx, s, rec, opts), nil
	}
	gr := grade.NewGrader(s, run)
	t := usage.NewTally(&run.Header, opts.Prices)
	err := rd.Each(func(a *record.Attempt) error {
		gr.Add(a)
		t.Add(a)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("grading %s: %w", run.Dir, err)
	}
	g := &Graded{Suite: s, Record: run, Result: gr.Result(), Attempts: rd.Len()}
	return g.derive(ctx, opts, t), nil
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
