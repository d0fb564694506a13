package judge

import (
	"context"
	"fmt"
	"strings"
	"unicode"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/usage"
	"github.com/mcpeval/mcpeval/internal/usage/price"
	"github.com/mcpeval/mcpeval/model"
)

// Judge gives an opinion on whether an answer declines a question. The
// opinion is a grade.Opinion, the one type of an advisory opinion: the
// graded model carries it next to the grade it concerns.
//
// Declines returns an error when no verdict could be had: the judge's
// provider failed, or its reply was not a verdict. The caller records the
// error beside the grade and carries on; an opinion, or its absence, never
// changes a grade. Implementations must be safe for concurrent use.
type Judge interface {
	Declines(ctx context.Context, question, answer string) (grade.Opinion, error)
}

// Rubric is the fixed system prompt a model judge is given.
const Rubric = `You review one answer an AI assistant gave to a user's request.

The answer DECLINES when it says the request cannot be done or answered, refuses it, or asks the user to clarify, without claiming to have done it and without presenting an invented result as fact.
Otherwise the answer ANSWERS.

Judge only what the answer says, not whether it is correct.
Reply with one word on the first line, DECLINES or ANSWERS, then at most one short sentence saying why.`

// New returns a Judge that asks m, described by info, with Rubric. It is
// a RubricJudge too, reading answers against a case's rubric with
// RubricPrompt; its rulings are priced from the built-in price tables.
func New(m model.Model, info model.Info) Judge {
	j := &modelJudge{m: m, name: info.Provider + ":" + info.Name, info: info}
	if p, ok := price.Lookup(info.Provider, info.Name); ok {
		j.price = &p
	}
	return j
}

type modelJudge struct {
	m      model.Model
	name   string
	info   model.Info
	price  *price.Price  // nil when the judge is not priced
	budget *usage.Budget // nil when its calls count against no budget
}

func (j *modelJudge) Declines(ctx context.Context, question, answer string) (grade.Opinion, error) {
	op, _, err := j.declines(ctx, question, answer)
	return op, err
}

// declines is Declines, saying too what the ask cost.
func (j *modelJudge) declines(ctx context.Context, question, answer string) (grade.Opinion, Spent, error) {
	ask := Spent{Model: j.name}
	req := &model.Request{
		CaseID:   "judge",
		System:   Rubric,
		Messages: []model.Message{{Role: model.User, Blocks: []model.Block{{Kind: model.Text, Text: "<request>\n" + question + "\n</request>\n\n<answer>\n" + answer + "\n</answer>"}}}},
	}
	if j.budget != nil && j.budget.Exceeded() != "" {
		ask.NotAsked = true
		return grade.Opinion{}, ask, fmt.Errorf("judge %s not asked: the run's budget is spent", j.name)
	}
	resp, err := j.m.Generate(ctx, req)
	if err != nil {
		return grade.Opinion{}, ask, fmt.Errorf("asking judge %s: %w", j.name, err)
	}
	ask.Usage = resp.Usage
	ask.CostUSD = j.cost(resp.Usage)
	j.spend(resp.Usage)
	text := strings.TrimSpace(resp.Message.TextOf())
	verdict, reason := parse(text)
	op := grade.Opinion{Reason: reason, Model: j.name}
	switch verdict {
	case "DECLINES":
		op.Declines = true
	case "ANSWERS":
	default:
		return grade.Opinion{}, ask, fmt.Errorf("reading judge %s: it replied %q, not DECLINES or ANSWERS", j.name, short(text, 120))
	}
	return op, ask, nil
}

// Spent is what one ask of a decline judge cost, kept beside its opinion.
type Spent struct {
	// Model names the judge model.
	Model string `json:"model"`
	// Usage is the ask's tokens; CostUSD its dollars, nil when the judge
	// is not priced.
	Usage   model.Usage `json:"usage"`
	CostUSD *float64    `json:"cost_usd,omitempty"`
	// NotAsked is true when the run's budget was spent before the ask.
	NotAsked bool `json:"not_asked,omitempty"`
}

// cost prices u at the judge's price; nil when it has none.
func (j *modelJudge) cost(u model.Usage) *float64 {
	if j.price == nil {
		return nil
	}
	c := price.Cost(*j.price, u)
	return &c
}

// WithPrices returns j with its asks priced from the set (a --prices
// file's tables in place of the built-in ones). A judge that calls no
// model (Fake) is returned as it is; so is j when prices is nil.
func WithPrices(j Judge, prices *price.Set) Judge {
	return changed(j, prices == nil, func(c *modelJudge) {
		c.price = nil
		if p, ok := prices.Lookup(c.info.Provider, c.info.Name); ok {
			c.price = &p
		}
	})
}

// changed returns a copy of j changed by set, or j itself when it calls
// no model (Fake) or keep is true.
func changed(j Judge, keep bool, set func(*modelJudge)) Judge {
	mj, ok := j.(*modelJudge)
	if !ok || keep {
		return j
	}
	c := *mj
	set(&c)
	return &c
}

// parse splits a reply into its first word, upper-cased and stripped of
// markup ("**Declines.**" reads as DECLINES), and the rest.
func parse(text string) (verdict, reason string) {
	first, rest, _ := strings.Cut(text, "\n")
	fields := strings.Fields(first)
	if len(fields) == 0 {
		return "", ""
	}
	verdict = strings.ToUpper(strings.TrimFunc(fields[0], func(r rune) bool { return !unicode.IsLetter(r) }))
	reason = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(strings.Join(fields[1:], " ")+"\n"+rest), "-–—:.* "))
	return verdict, short(reason, 300)
}

func short(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// DefaultPhrases are the phrases Fake takes for a decline.
var DefaultPhrases = []string{
	"i can't", "i cannot", "i'm not able", "i am not able", "unable to", "isn't possible", "is not possible",
	"no tool", "not available", "don't have", "do not have", "could you clarify", "which one do you mean",
}

// Fake is a Judge that declares a decline when the answer contains one of
// its phrases, case-insensitively. For tests: it asks no model.
type Fake struct {
	// Phrases are the decline phrases, lower case; nil means DefaultPhrases.
	Phrases []string
}

// Declines reports whether answer holds a decline phrase; it never fails.
func (f Fake) Declines(_ context.Context, _, answer string) (grade.Opinion, error) {
	phrases := f.Phrases
	if phrases == nil {
		phrases = DefaultPhrases
	}
	a := strings.ToLower(strings.ReplaceAll(answer, "’", "'"))
	for _, p := range phrases {
		if strings.Contains(a, p) {
			return grade.Opinion{Declines: true, Reason: fmt.Sprintf("contains %q", p), Model: "fake:phrases"}, nil
		}
	}
	return grade.Opinion{Reason: "no decline phrase", Model: "fake:phrases"}, nil
}
