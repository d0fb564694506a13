// Package judging asks an advisory judge model whether decline answers
// actually decline, and keeps its opinions beside a run's grades.
//
// An opinion never changes a grade: a judge's agreement with people has to
// be measured before it can be trusted. Opinions are stored in their own
// file in the run directory (judge.json), so re-scoring a record keeps them
// without asking the judge again.
package judging

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/judge"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// FileName is the opinions' file in a run directory.
const FileName = "judge.json"

// Opinions are a judge's opinions by attempt key ("case#n"). An attempt
// the judge could not read has an opinion with Error set.
type Opinions map[string]Opinion

// Opinion is one opinion, or why there is none.
type Opinion struct {
	grade.Opinion
	Error string `json:"error,omitempty"`
}

// Key names an attempt.
func Key(caseID string, n int) string { return fmt.Sprintf("%s#%d", caseID, n) }

// Ask asks j about every answered attempt of the suite's decline cases,
// at most concurrency at a time.
func Ask(ctx context.Context, j judge.Judge, s *suite.Suite, rec *record.Run, concurrency int) Opinions {
	if concurrency < 1 {
		concurrency = 1
	}
	ops := Opinions{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, concurrency)
	for i := range rec.Attempts {
		a := &rec.Attempts[i]
		c := s.Case(a.Case)
		if c == nil || !c.Decline || a.End != record.EndAnswered {
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			op, err := j.Declines(ctx, a.Prompt, a.Answer)
			o := Opinion{Opinion: grade.Opinion{Declines: op.Declines, Reason: op.Reason, Model: op.Model}}
			if err != nil {
				o.Error = err.Error()
			}
			mu.Lock()
			ops[Key(a.Case, a.N)] = o
			mu.Unlock()
		}()
	}
	wg.Wait()
	return ops
}

// Attach puts the opinions next to the grades they concern; it changes no
// outcome.
func Attach(res *grade.Result, ops Opinions) {
	for i := range res.Attempts {
		g := &res.Attempts[i]
		if o, ok := ops[Key(g.Case, g.N)]; ok && o.Error == "" {
			op := o.Opinion
			g.Judge = &op
		}
	}
}

// Disagreements lists the attempts where the judge and the grade differ on
// a decline case: the grade passed an answer the judge reads as answering,
// or failed one it reads as declining. Reviewers start there.
func Disagreements(res *grade.Result) []string {
	var out []string
	for _, g := range res.Attempts {
		if g.Judge == nil || g.Outcome == grade.Error {
			continue
		}
		if (g.Outcome == grade.Pass) != g.Judge.Declines {
			verdict := "answers"
			if g.Judge.Declines {
				verdict = "declines"
			}
			out = append(out, fmt.Sprintf("%s #%d: graded %s; judge %s says it %s", g.Case, g.N, g.Outcome, g.Judge.Model, verdict))
		}
	}
	sort.Strings(out)
	return out
}

// Write stores the opinions in dir.
func Write(dir string, ops Opinions) error {
	b, err := json.MarshalIndent(ops, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding judge opinions: %w", err)
	}
	tmp := filepath.Join(dir, FileName+".tmp")
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("writing judge opinions: %w", err)
	}
	return os.Rename(tmp, filepath.Join(dir, FileName))
}

// Read loads the opinions stored in dir; none is not an error.
func Read(dir string) (Opinions, error) {
	b, err := os.ReadFile(filepath.Join(dir, FileName))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading judge opinions: %w", err)
	}
	var ops Opinions
	if err := json.Unmarshal(b, &ops); err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.Join(dir, FileName), err)
	}
	return ops, nil
}
