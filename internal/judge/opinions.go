package judge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"sync"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/rundir"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// Opinions are a judge's opinions on a run's attempts, by attempt key
// (Key). An attempt the judge was asked about and could not read has no
// opinion and a line in Failed saying why.
type Opinions struct {
	Given  map[string]grade.Opinion
	Failed map[string]string
}

// Len is the number of attempts the judge was asked about.
func (o Opinions) Len() int { return len(o.Given) + len(o.Failed) }

// entry is one attempt's line of the opinions file: an opinion, or the
// error that stood in its way.
type entry struct {
	grade.Opinion
	Error string `json:"error,omitempty"`
}

// MarshalJSON writes the opinions as the run directory's judge.json
// holds them: one object per attempt key, with "error" where the judge
// failed.
func (o Opinions) MarshalJSON() ([]byte, error) {
	m := map[string]entry{}
	for k, op := range o.Given {
		m[k] = entry{Opinion: op}
	}
	for k, why := range o.Failed {
		m[k] = entry{Error: why}
	}
	return json.Marshal(m)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (o *Opinions) UnmarshalJSON(b []byte) error {
	var m map[string]entry
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*o = Opinions{}
	for k, e := range m {
		if e.Error != "" {
			o.fail(k, e.Error)
		} else {
			o.give(k, e.Opinion)
		}
	}
	return nil
}

func (o *Opinions) give(key string, op grade.Opinion) {
	if o.Given == nil {
		o.Given = map[string]grade.Opinion{}
	}
	o.Given[key] = op
}

func (o *Opinions) fail(key, why string) {
	if o.Failed == nil {
		o.Failed = map[string]string{}
	}
	o.Failed[key] = why
}

// Key names an attempt: "case#n".
func Key(caseID string, n int) string { return fmt.Sprintf("%s#%d", caseID, n) }

// Ask asks j about every answered attempt of the suite's decline cases,
// at most concurrency at a time.
func Ask(ctx context.Context, j Judge, s *suite.Suite, rec *record.Run, concurrency int) Opinions {
	if concurrency < 1 {
		concurrency = 1
	}
	var ops Opinions
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
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				ops.fail(Key(a.Case, a.N), err.Error())
				return
			}
			ops.give(Key(a.Case, a.N), op)
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
		if op, ok := ops.Given[Key(g.Case, g.N)]; ok {
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

// Write stores the opinions in run directory dir.
func Write(dir string, ops Opinions) error {
	if err := rundir.WriteJSON(rundir.Path(dir, rundir.Judge), ops); err != nil {
		return fmt.Errorf("storing judge opinions: %w", err)
	}
	return nil
}

// Read loads the opinions stored in run directory dir; none is not an
// error.
func Read(dir string) (Opinions, error) {
	p := rundir.Path(dir, rundir.Judge)
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return Opinions{}, nil
	}
	if err != nil {
		return Opinions{}, fmt.Errorf("reading judge opinions: %w", err)
	}
	var ops Opinions
	if err := json.Unmarshal(b, &ops); err != nil {
		return Opinions{}, fmt.Errorf("%s: %v", p, err)
	}
	return ops, nil
}
