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
	"github.com/mcpeval/mcpeval/internal/usage"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// Opinions are a judge's opinions on a run's attempts, by attempt. An
// attempt the judge was asked about and could not read has no opinion and
// a line in Failed saying why. Rulings are its readings of answers against
// their cases' rubrics.
type Opinions struct {
	Given   map[record.AttemptKey]grade.Opinion
	Failed  map[record.AttemptKey]string
	Rulings map[record.AttemptKey]Ruling
	// Spent is what each decline ask cost, for a judge that calls a model.
	Spent map[record.AttemptKey]Spent
}

// Len is the number of attempts the judge was asked about.
func (o Opinions) Len() int {
	n := len(o.Rulings)
	for k := range o.Given {
		if _, ok := o.Rulings[k]; !ok {
			n++
		}
	}
	for k := range o.Failed {
		if _, ok := o.Rulings[k]; !ok {
			n++
		}
	}
	return n
}

// entry is one attempt's line of the opinions file: a decline opinion or
// the error that stood in its way, and a ruling against the case's rubric.
type entry struct {
	*grade.Opinion
	Error  string  `json:"error,omitempty"`
	Spent  *Spent  `json:"decline_ask,omitempty"`
	Ruling *Ruling `json:"rubric,omitempty"`
}

// MarshalJSON writes the opinions as the run directory's judge.json
// holds them: one object per attempt, keyed "case#n", with "error" where
// the judge failed and "rubric" holding a ruling.
func (o Opinions) MarshalJSON() ([]byte, error) {
	m := map[record.AttemptKey]entry{}
	for k, op := range o.Given {
		e := m[k]
		e.Opinion = &op
		m[k] = e
	}
	for k, why := range o.Failed {
		e := m[k]
		e.Error = why
		m[k] = e
	}
	for k, sp := range o.Spent {
		e := m[k]
		e.Spent = &sp
		m[k] = e
	}
	for k, r := range o.Rulings {
		e := m[k]
		e.Ruling = &r
		m[k] = e
	}
	return json.Marshal(m)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (o *Opinions) UnmarshalJSON(b []byte) error {
	var m map[record.AttemptKey]entry
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*o = Opinions{}
	for k, e := range m {
		switch {
		case e.Error != "":
			o.fail(k, e.Error)
		case e.Opinion != nil:
			o.give(k, *e.Opinion)
		}
		if e.Spent != nil {
			o.spend(k, *e.Spent)
		}
		if e.Ruling != nil {
			o.rule(k, *e.Ruling)
		}
	}
	return nil
}

func (o *Opinions) give(key record.AttemptKey, op grade.Opinion) {
	if o.Given == nil {
		o.Given = map[record.AttemptKey]grade.Opinion{}
	}
	o.Given[key] = op
}

func (o *Opinions) rule(key record.AttemptKey, r Ruling) {
	if o.Rulings == nil {
		o.Rulings = map[record.AttemptKey]Ruling{}
	}
	o.Rulings[key] = r
}

func (o *Opinions) spend(key record.AttemptKey, sp Spent) {
	if o.Spent == nil {
		o.Spent = map[record.AttemptKey]Spent{}
	}
	o.Spent[key] = sp
}

func (o *Opinions) fail(key record.AttemptKey, why string) {
	if o.Failed == nil {
		o.Failed = map[record.AttemptKey]string{}
	}
	o.Failed[key] = why
}

// Ask asks j about every answered attempt of the suite's decline cases
// and, when j is a RubricJudge, reads every answered attempt of the cases
// with a rubric against it, asks times each (the suite's judge_asks when
// asks is 0), at most concurrency attempts at a time.
func Ask(ctx context.Context, j Judge, s *suite.Suite, rec *record.Run, concurrency, asks int) Opinions {
	if concurrency < 1 {
		concurrency = 1
	}
	if asks < 1 {
		asks = s.JudgeAsksFor()
	}
	var ops Opinions
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, concurrency)
	for i := range rec.Attempts {
		a := &rec.Attempts[i]
		c := s.Case(a.Case)
		if c == nil || a.End != record.EndAnswered {
			continue
		}
		if rj, ok := j.(RubricJudge); ok && c.Judge != nil {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				r := rj.Rule(ctx, c, a.Prompt, a.Answer, asks)
				mu.Lock()
				defer mu.Unlock()
				ops.rule(a.Key(), r)
			}()
		}
		if !c.Decline {
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			var op grade.Opinion
			var err error
			if mj, ok := j.(*modelJudge); ok {
				var sp Spent
				op, sp, err = mj.declines(ctx, a.Prompt, a.Answer)
				mu.Lock()
				ops.spend(a.Key(), sp)
			} else {
				op, err = j.Declines(ctx, a.Prompt, a.Answer)
				mu.Lock()
			}
			defer mu.Unlock()
			if err != nil {
				ops.fail(a.Key(), err.Error())
				return
			}
			ops.give(a.Key(), op)
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
		if op, ok := ops.Given[record.AttemptKey{Case: g.Case, N: g.N}]; ok {
			g.Judge = &op
		}
	}
}

// Cost totals the tokens and dollars of the rulings; the dollars are nil
// when no ruling was priced.
func (o Opinions) Cost() (model.Usage, *float64) {
	var u model.Usage
	var usd *float64
	for _, r := range o.Rulings {
		u = u.Add(r.Usage)
		if r.CostUSD != nil {
			if usd == nil {
				usd = new(float64)
			}
			*usd += *r.CostUSD
		}
	}
	return u, usd
}

// Lines totals what the judge's asks cost, a line per judge model: every
// decline ask and every ask against a rubric, with the asks the run's
// budget stopped counted apart. A judge with any unpriced ask has no
// dollars (nil), never a part of them.
func (o Opinions) Lines() []usage.JudgeLine {
	byModel := map[string]*usage.JudgeLine{}
	unpriced := map[string]bool{}
	line := func(m string) *usage.JudgeLine {
		l := byModel[m]
		if l == nil {
			l = &usage.JudgeLine{Model: m, CostUSD: new(float64)}
			byModel[m] = l
		}
		return l
	}
	count := func(m string, u model.Usage, cost *float64, notAsked bool) {
		l := line(m)
		if notAsked {
			l.NotAsked++
			return
		}
		l.Asks++
		l.Tokens = l.Tokens.Add(u)
		if cost == nil {
			unpriced[m] = true
		} else {
			*l.CostUSD += *cost
		}
	}
	for _, sp := range o.Spent {
		count(sp.Model, sp.Usage, sp.CostUSD, sp.NotAsked)
	}
	for _, r := range o.Rulings {
		// A ruling records its cost in all; spread it over its asks.
		for _, a := range r.Asks {
			var c *float64
			if r.CostUSD != nil {
				v := 0.0
				c = &v
			}
			count(r.Model, a.Usage, c, a.NotAsked)
		}
		if r.CostUSD != nil {
			*line(r.Model).CostUSD += *r.CostUSD
		}
	}
	out := make([]usage.JudgeLine, 0, len(byModel))
	for m, l := range byModel {
		if unpriced[m] {
			l.CostUSD = nil
		}
		out = append(out, *l)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Model < out[j].Model })
	return out
}

// Apply attaches the opinions and rulings to the grades (Attach) and
// grades the cases of suite s graded by their judge by the majority of its
// rulings (grade.ApplyJudgements). On every other case it changes no
// outcome.
func Apply(s *suite.Suite, res *grade.Result, ops Opinions) {
	Attach(res, ops)
	if len(ops.Rulings) == 0 {
		return
	}
	js := make(map[record.AttemptKey]grade.Judgement, len(ops.Rulings))
	for k, r := range ops.Rulings {
		js[k] = r.Judgement()
	}
	grade.ApplyJudgements(s, res, js)
}

// Split lists the attempts whose judge's asks disagreed with each other,
// with the tally of each: a majority of 2 to 1 is kept, and shown.
func Split(res *grade.Result) []string {
	var out []string
	for _, g := range res.Attempts {
		if g.Judged != nil && g.Judged.Split() {
			v := string(g.Judged.Verdict)
			if v == "" {
				v = "no majority"
			}
			out = append(out, fmt.Sprintf("%s: judge %s split (%s): %s", record.AttemptKey{Case: g.Case, N: g.N}, g.Judged.Model, g.Judged.Tally(), v))
		}
	}
	sort.Strings(out)
	return out
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
			out = append(out, fmt.Sprintf("%s: graded %s; judge %s says it %s", record.AttemptKey{Case: g.Case, N: g.N}, g.Outcome, g.Judge.Model, verdict))
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
