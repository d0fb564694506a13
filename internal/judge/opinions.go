package judge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
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
	// Earlier are what the asks whose opinions were replaced (asked again
	// by another judge model, or after failing) cost, a line per judge
	// model: spent all the same, so counted in Lines.
	Earlier map[record.AttemptKey][]usage.JudgeLine
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
	// Earlier are the replaced asks' costs (Opinions.Earlier).
	Earlier []usage.JudgeLine `json:"earlier_asks,omitempty"`
}

// MarshalJSON writes the opinions as the run directory's judge.json
// holds them: one object per attempt, keyed "case#n", with "error" where
// the judge failed and "rubric" holding a ruling.
func (o Opinions) MarshalJSON() ([]byte, error) {
	m := map[record.AttemptKey]entry{}
	put(m, o.Given, func(e *entry, op grade.Opinion) { e.Opinion = &op })
	put(m, o.Failed, func(e *entry, why string) { e.Error = why })
	put(m, o.Spent, func(e *entry, sp Spent) { e.Spent = &sp })
	put(m, o.Rulings, func(e *entry, r Ruling) { e.Ruling = &r })
	put(m, o.Earlier, func(e *entry, ls []usage.JudgeLine) { e.Earlier = ls })
	return json.Marshal(m)
}

// put sets one field of each attempt's entry in m from src.
func put[V any](m map[record.AttemptKey]entry, src map[record.AttemptKey]V, set func(*entry, V)) {
	for k, v := range src {
		e := m[k]
		set(&e, v)
		m[k] = e
	}
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
		if len(e.Earlier) > 0 {
			o.supersede(k, e.Earlier...)
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
	return Resume(ctx, j, s, rec, concurrency, asks, Opinions{}, false)
}

// Resume is Ask for a run that already holds opinions, prior (a resumed
// run's judge.json). With reuse, an attempt prior holds an opinion of the
// same judge model on is not asked again: a decline opinion of that model,
// or a ruling of that model, sent the same system prompt and the same
// prompt (request, rubric, pass condition and answer) and asked as many
// times, none of them stopped by a budget. Every other attempt is asked,
// and what the opinion it replaces cost is kept as its earlier asks, so
// that the opinions total what was spent. The result holds prior's
// opinions on the attempts not asked, and the new ones.
func Resume(ctx context.Context, j Judge, s *suite.Suite, rec *record.Run, concurrency, asks int, prior Opinions, reuse bool) Opinions {
	if concurrency < 1 {
		concurrency = 1
	}
	if asks < 1 {
		asks = s.JudgeAsksFor()
	}
	name := Name(j)
	ops := prior.clone()
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, concurrency)
	for i := range rec.Attempts {
		a := &rec.Attempts[i]
		if !Reads(j, s, a) {
			continue
		}
		c := s.Case(a.Case)
		k := a.Key()
		if rules(j, c) {
			rj := j.(RubricJudge)
			mu.Lock()
			r, had := ops.Rulings[k]
			keep := reuse && had && r.same(name, c, Conversation(a), a.Answer, asks)
			if had && !keep {
				ops.supersede(k, r.spentLines()...)
				delete(ops.Rulings, k)
			}
			mu.Unlock()
			if !keep {
				wg.Add(1)
				sem <- struct{}{}
				go func() {
					defer wg.Done()
					defer func() { <-sem }()
					r := rj.Rule(ctx, c, Conversation(a), a.Answer, asks)
					mu.Lock()
					defer mu.Unlock()
					ops.rule(k, r)
				}()
			}
		}
		if !c.Decline {
			continue
		}
		mu.Lock()
		op, had := ops.Given[k]
		keep := reuse && had && name != "" && op.Model == name
		if !keep {
			if sp, ok := ops.Spent[k]; ok {
				ops.supersede(k, sp.line())
			}
			delete(ops.Given, k)
			delete(ops.Failed, k)
			delete(ops.Spent, k)
		}
		mu.Unlock()
		if keep {
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
				op, sp, err = mj.declines(ctx, Conversation(a), a.Answer)
				mu.Lock()
				ops.spend(k, sp)
			} else {
				op, err = j.Declines(ctx, Conversation(a), a.Answer)
				mu.Lock()
			}
			defer mu.Unlock()
			if err != nil {
				ops.fail(k, err.Error())
				return
			}
			ops.give(k, op)
		}()
	}
	wg.Wait()
	return ops
}

// Name is the judge model j asks, as its opinions and rulings name it
// ("provider:name"); "" for a judge that calls no model (Fake) or does not
// say, whose opinions are never taken for its own.
func Name(j Judge) string {
	if mj, ok := j.(*modelJudge); ok {
		return mj.name
	}
	return ""
}

// same reports whether r is what judge name would rule now on answer to
// question, asked asks times: the same model, system prompt and prompt,
// every ask made.
func (r Ruling) same(name string, c *suite.Case, question, answer string, asks int) bool {
	if name == "" || r.Model != name || r.System != RubricPrompt || len(r.Asks) != asks || r.Prompt != rubricMessage(c, question, answer) {
		return false
	}
	for _, a := range r.Asks {
		if a.NotAsked {
			return false
		}
	}
	return true
}

// spentLines is what the ruling's asks cost, as one line (none when no
// ask was made).
func (r Ruling) spentLines() []usage.JudgeLine {
	l := usage.JudgeLine{Model: r.Model, CostUSD: r.CostUSD}
	for _, a := range r.Asks {
		if !a.NotAsked {
			l.Asks++
			l.Tokens = l.Tokens.Add(a.Usage)
		}
	}
	if l.Asks == 0 {
		return nil
	}
	return []usage.JudgeLine{l}
}

// line is what the ask cost, as a line of its judge model; an ask not
// made costs no line (zero asks).
func (sp Spent) line() usage.JudgeLine {
	if sp.NotAsked {
		return usage.JudgeLine{Model: sp.Model}
	}
	return usage.JudgeLine{Model: sp.Model, Asks: 1, Tokens: sp.Usage, CostUSD: sp.CostUSD}
}

// supersede keeps what the replaced asks about key cost among its
// earlier asks, a line per judge model.
func (o *Opinions) supersede(key record.AttemptKey, lines ...usage.JudgeLine) {
	for _, l := range lines {
		if l.Asks == 0 {
			continue
		}
		if o.Earlier == nil {
			o.Earlier = map[record.AttemptKey][]usage.JudgeLine{}
		}
		was := o.Earlier[key]
		out := make([]usage.JudgeLine, 0, len(was)+1)
		merged := false
		for _, e := range was {
			if e.Model == l.Model && !merged {
				e = addLine(e, l)
				merged = true
			}
			out = append(out, e)
		}
		if !merged {
			out = append(out, l)
		}
		o.Earlier[key] = out
	}
}

// addLine adds l's asks to e's, of the same judge model; the dollars are
// unknown (nil) when either's are.
func addLine(e, l usage.JudgeLine) usage.JudgeLine {
	e.Asks += l.Asks
	e.Tokens = e.Tokens.Add(l.Tokens)
	if e.CostUSD == nil || l.CostUSD == nil {
		e.CostUSD = nil
	} else {
		v := *e.CostUSD + *l.CostUSD
		e.CostUSD = &v
	}
	return e
}

// clone copies o's maps, so that changing the copy leaves o as it was.
func (o Opinions) clone() Opinions {
	return Opinions{
		Given:   maps.Clone(o.Given),
		Failed:  maps.Clone(o.Failed),
		Rulings: maps.Clone(o.Rulings),
		Spent:   maps.Clone(o.Spent),
		Earlier: maps.Clone(o.Earlier),
	}
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
// decline ask and every ask against a rubric, those whose opinions were
// since replaced included (Earlier), with the asks the run's budget
// stopped counted apart. A judge with any unpriced ask has no
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
	for _, ls := range o.Earlier {
		for _, e := range ls {
			l := line(e.Model)
			l.Asks += e.Asks
			l.Tokens = l.Tokens.Add(e.Tokens)
			if e.CostUSD == nil {
				unpriced[e.Model] = true
			} else {
				*l.CostUSD += *e.CostUSD
			}
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
