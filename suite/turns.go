package suite

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v4"
)

// DefaultMaxUserTurns is how many of its turns a case's user may give in
// one attempt when the case sets no max_user_turns.
const DefaultMaxUserTurns = 3

// UserTurn is one thing the user may say after the model's answer: a
// case's turns entry. It is given when its condition (When) holds of the
// answer the model just gave, and at most once an attempt.
type UserTurn struct {
	// Say is the user's message.
	Say string `yaml:"say"`
	// When is the condition on what the model just did; nil for a default
	// turn, given whatever it did.
	When *TurnWhen `yaml:"when,omitempty"`
	// Approves marks a message that agrees to what the model asked
	// before acting ("yes, go ahead"): the Confirmation column counts a
	// destructive step done after it as done with the user's approval.
	Approves bool `yaml:"approves,omitempty"`
	// Expect, when set, checks the model's answer this turn follows: the
	// answer the user's message responds to. The final answer is still
	// graded by the case's own checks; a turn never said checks nothing.
	Expect *TurnExpect `yaml:"expect,omitempty"`
	// Line locates the entry in its file.
	Line int `yaml:"-"`
}

// TurnExpect is what the model's answer before a user turn must say: the
// answer checks a case has, read on that answer.
type TurnExpect struct {
	// Answer says what the answer must and must not say.
	Answer *AnswerCheck `yaml:"answer,omitempty"`
	// Figures are the figures the answer must state.
	Figures []Figure `yaml:"figures,omitempty"`
	// Decline requires an answer that declines or asks, and claims no
	// action.
	Decline bool `yaml:"decline,omitempty"`
}

// Case returns case c with its answer checks replaced by e's: the case
// the answer before a user turn is graded as.
func (e *TurnExpect) Case(c *Case) *Case {
	cc := *c
	cc.Answer, cc.Figures, cc.Decline = e.Answer, e.Figures, e.Decline
	cc.NoInventedFigures, cc.Estimates = false, false
	return &cc
}

// TurnWhen is the condition of a user turn. Every condition it sets must
// hold.
type TurnWhen struct {
	// Asked, when set, is whether the model's answer puts a question to
	// the user (a sentence of it ends in a question mark).
	Asked *bool `yaml:"asked,omitempty"`
	// Called names a tool the model called since the user last spoke.
	Called string `yaml:"called,omitempty"`
	// Matches is a regular expression (Go RE2) the answer matches.
	Matches string `yaml:"matches,omitempty"`

	re *regexp.Regexp
}

// Reply is what the model did since the user last spoke, as a user turn's
// condition reads it.
type Reply struct {
	// Answer is the model's answer.
	Answer string
	// Asked is whether the answer puts a question to the user.
	Asked bool
	// Called are the tools the model called, by the names the suite uses.
	Called []string
}

// Holds reports whether condition w holds of reply r; a nil condition
// always holds.
func (w *TurnWhen) Holds(r Reply) bool {
	if w == nil {
		return true
	}
	if w.Asked != nil && *w.Asked != r.Asked {
		return false
	}
	if w.Called != "" && !slices.Contains(r.Called, w.Called) {
		return false
	}
	if w.Matches != "" {
		re := w.re
		if re == nil {
			var err error
			if re, err = regexp.Compile(w.Matches); err != nil {
				return false
			}
		}
		if !re.MatchString(r.Answer) {
			return false
		}
	}
	return true
}

// UserTurnCap returns how many user turns an attempt of c may be given.
func (c *Case) UserTurnCap() int {
	if c.MaxUserTurns > 0 {
		return c.MaxUserTurns
	}
	return DefaultMaxUserTurns
}

// NextTurn returns the index in c.Turns of what the user says after reply
// r: the first entry not yet given (given lists the indexes given so far)
// whose condition holds. It reports false when none does or the case's
// user turn cap is reached: then the conversation ends.
func (c *Case) NextTurn(r Reply, given []int) (int, bool) {
	if len(given) >= c.UserTurnCap() {
		return 0, false
	}
	for i := range c.Turns {
		if !slices.Contains(given, i) && c.Turns[i].When.Holds(r) {
			return i, true
		}
	}
	return 0, false
}

// userTurns locates a case's turns entries and checks them, with
// max_user_turns.
func (l *loader) userTurns(c *Case, n *yaml.Node) {
	at := func(line int, format string, args ...any) {
		l.errorf(c.File, line, 0, "case %s: "+format, append([]any{c.ID}, args...)...)
	}
	if m := mapValue(n, "max_user_turns"); m != nil {
		switch {
		case c.MaxUserTurns <= 0:
			at(m.Line, "max_user_turns is %d: want a positive number (leave it out for the default, %d)", c.MaxUserTurns, DefaultMaxUserTurns)
		case len(c.Turns) == 0 && c.User == nil:
			at(m.Line, "max_user_turns without turns: the user says nothing after the prompt; add turns or leave it out")
		}
	}
	if asks := nodeAt(n, "key", "asks"); asks != nil && len(c.Key.Asks) > 0 && len(c.Turns) == 0 && c.User == nil {
		at(asks.Line, "the key asks the user %d question(s) but the case has no turns to answer them: add turns or leave asks out", len(c.Key.Asks))
	}
	if asks := nodeAt(n, "key", "asks"); asks != nil {
		for i, q := range c.Key.Asks {
			l.turnText(c, q, -1, asks.Line, fmt.Sprintf("key ask %d", i+1))
		}
	}
	seq := mapValue(n, "turns")
	if seq == nil || seq.Kind != yaml.SequenceNode {
		return
	}
	if c.IsToolCall() && len(c.Turns) > 0 {
		at(seq.Line, "a tool-call case ends at the model's first calls, so the user never speaks again: turns need mode agent")
	}
	for i := range c.Turns {
		t := &c.Turns[i]
		t.Line = c.Line
		var entry *yaml.Node
		if i < len(seq.Content) {
			entry = seq.Content[i]
			t.Line = entry.Line
		}
		if strings.TrimSpace(t.Say) == "" {
			at(t.Line, "turn %d has nothing to say: want say: the user's next message", i+1)
		}
		l.turnText(c, t.Say, i, t.Line, "say")
		l.turnExpect(c, t.Expect, i, t.Line, entry)
		w := t.When
		if t.Approves && (w == nil || w.Asked == nil || !*w.Asked) {
			at(t.Line, "turn %d approves, so it answers the model's question: want when: {asked: true}", i+1)
		}
		if t.Approves && c.Action == nil {
			at(t.Line, "turn %d approves, which only an action case's steps read: leave approves out", i+1)
		}
		if w == nil {
			continue
		}
		if w.Asked == nil && w.Called == "" && w.Matches == "" {
			at(t.Line, "turn %d: when sets no condition: want asked, called or matches (leave when out for a default turn)", i+1)
		}
		if w.Matches != "" {
			re, err := regexp.Compile(w.Matches)
			if err != nil {
				at(t.Line, "turn %d: matches %q is not a regular expression (Go RE2 syntax): %v", i+1, w.Matches, err)
			}
			w.re = re
		}
		if nodeAt(entry, "when", "called") != nil && strings.TrimSpace(w.Called) == "" {
			at(t.Line, "turn %d: called is empty: want a tool name", i+1)
		}
	}
}

// turnText checks the placeholders of a user turn's say (turn i, from 0)
// or of a key's question (i < 0): as in an action case's prompt, the
// token and the facts its fixtures define, which only an action case
// has.
func (l *loader) turnText(c *Case, text string, i, line int, what string) {
	if i >= 0 {
		what = fmt.Sprintf("turn %d: %s", i+1, what)
	}
	facts := map[string]bool{}
	if c.Action != nil {
		for _, f := range c.Action.Fixtures {
			for name := range f.Facts {
				facts[name] = true
			}
		}
	}
	for _, p := range Placeholders(text) {
		switch {
		case c.Action == nil:
			l.errorf(c.File, line, 0, "case %s: %s names {{%s}}, but only an action case's attempts have a token and facts", c.ID, what, p)
		case p == "token":
		case strings.HasPrefix(p, "fact.") && facts[factName(p)]:
		default:
			l.errorf(c.File, line, 0, "case %s: %s names {{%s}}: want {{token}} or {{fact.NAME}} of a fact a fixture defines", c.ID, what, p)
		}
	}
}

// turnExpect checks the expect of turn i (from 0), read from entry (its
// mapping; nil when it cannot be located) with the checks a case's own
// answer checks get.
func (l *loader) turnExpect(c *Case, e *TurnExpect, i, line int, entry *yaml.Node) {
	if e == nil {
		return
	}
	at := func(format string, args ...any) {
		l.errorf(c.File, line, 0, "case %s: turn %d: expect: "+format, append([]any{c.ID, i + 1}, args...)...)
	}
	if e.Answer == nil && len(e.Figures) == 0 && !e.Decline {
		at("checks nothing: want answer, figures or decline")
	}
	if len(e.Figures) > 0 && e.Decline {
		at("both expects figures and expects a decline: want one or the other")
	}
	cc := e.Case(c)
	checkFigures(cc, at)
	if n := nodeAt(entry, "expect"); n != nil {
		l.figureValues(cc, n)
		l.answerChecks(cc, n)
	}
}
