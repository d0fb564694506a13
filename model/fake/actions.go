package fake

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/mcpeval/mcpeval/grade/actions"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// A variant is a way of following an action case's key, right or wrong.
type variant int

const (
	perfectVariant       variant = iota // every step, right
	wrongArgsVariant                    // every step, every compared argument wrong
	noConfirmVariant                    // every step, never the approval
	declinesVariant                     // no step: declines everything
	extraChangeVariant                  // every step, then one change nobody asked for
	givesUpVariant                      // every step but the last, then stops
	actsFirstVariant                    // every step, then the key's questions
	ignoresAnswerVariant                // the key's questions, then something else
	asksForeverVariant                  // the key's questions, then more, never acting
)

// Answers the variants give.
const (
	doneAnswer    = "Done: that is taken care of."
	declineAnswer = "I can't do that safely with the tools I have, so I have changed nothing. Could you say more precisely what you want?"
	refuseAnswer  = "I'd rather not do that myself; please do it by hand."
	stopAnswer    = "I've made a start, but I'll stop here."
	// ignoredAnswer is what ignores-answer says on a question case after
	// the user's answer: nothing the answer could have told it.
	ignoredAnswer = "There are several ways to read that, so I won't give a figure."
	// moreQuestion is the question asks-forever puts once the key's are
	// asked.
	moreQuestion = "Before I go on: is there anything else I should know?"
)

// behaviour returns the fake model of variant v. On a case that is not an
// action case every variant answers as fake:perfect does.
func behaviour(v variant) Behaviour {
	return func(c *suite.Case, turn int, req *model.Request) model.Message {
		if len(c.Key.Asks) > 0 {
			switch v {
			case actsFirstVariant:
				return actFirst(c, turn, req)
			case ignoresAnswerVariant:
				return ignoreAnswer(c, turn, req)
			case asksForeverVariant:
				if turn < len(c.Key.Asks) {
					return ask(c, turn, req)
				}
				return Say(moreQuestion)
			}
		}
		// A key's questions come first, each in a turn of its own that the
		// user's turn answers. On an action case the variants that never
		// seek agreement (no approval, no action) ask none.
		if c.Action == nil || (v != noConfirmVariant && v != declinesVariant) {
			if turn < len(c.Key.Asks) {
				return ask(c, turn, req)
			}
			turn -= len(c.Key.Asks)
		}
		if c.Action == nil {
			if turn < len(c.Key.Calls) {
				return CallMsg(turn, c.Key.Calls[turn])
			}
			return Say(PerfectAnswer(c))
		}
		p := newPlayer(c, req)
		plan := p.plan(v)
		if turn < len(plan) {
			return CallMsg(turn, plan[turn](p, v))
		}
		return Say(p.answer(v))
	}
}

// actFirst is acts-first on a case whose key asks: the key's calls (on an
// action case, its steps, as fake:perfect takes them) come first, the
// questions after them, and then the answer.
func actFirst(c *suite.Case, turn int, req *model.Request) model.Message {
	if c.Action == nil {
		if turn < len(c.Key.Calls) {
			return CallMsg(turn, c.Key.Calls[turn])
		}
		turn -= len(c.Key.Calls)
	} else {
		p := newPlayer(c, req)
		plan := p.plan(perfectVariant)
		if turn < len(plan) {
			return CallMsg(turn, plan[turn](p, perfectVariant))
		}
		turn -= len(plan)
	}
	if turn < len(c.Key.Asks) {
		return ask(c, turn, req)
	}
	if c.Action == nil {
		return Say(PerfectAnswer(c))
	}
	return Say(newPlayer(c, req).answer(perfectVariant))
}

// ignoreAnswer is ignores-answer on a case whose key asks: it asks the
// key's questions, and whatever the user answers, it does something else:
// on an action case it takes no step and makes the suite's stray change
// (see strayCall), then says it is done; on another case it calls nothing
// and answers without the answer's figures.
func ignoreAnswer(c *suite.Case, turn int, req *model.Request) model.Message {
	if turn < len(c.Key.Asks) {
		return ask(c, turn, req)
	}
	turn -= len(c.Key.Asks)
	if c.Action == nil {
		return Say(ignoredAnswer)
	}
	p := newPlayer(c, req)
	if k, ok := p.strayCall(); ok && turn == 0 {
		return CallMsg(len(c.Key.Asks), k)
	}
	return Say(doneAnswer)
}

// strayCall is the change extra-change makes after the steps: the suite's
// stray call, else one of the case's fixtures built again, under a token
// of the fake's own. It reports false when there is neither.
func (p *player) strayCall() (suite.KeyCall, bool) {
	if st := p.c.Action.Settings().Stray; st != nil && st.Tool != "" {
		return p.stray(st.Tool, st.Args), true
	}
	if fx := p.strayFixture(); fx != nil {
		return p.stray(fx.Tool, fx.Args), true
	}
	return suite.KeyCall{}, false
}

// player follows one action case within one conversation.
type player struct {
	c     *suite.Case
	req   *model.Request
	vars  suite.Vars
	tools map[string]map[string]any // input schemas by tool
	// results are the decoded results of the fake's own calls, one a turn.
	results []any
}

func newPlayer(c *suite.Case, req *model.Request) *player {
	p := &player{c: c, req: req, vars: promptVars(c, req), tools: map[string]map[string]any{}}
	for _, t := range req.Tools {
		var s map[string]any
		json.Unmarshal(t.InputSchema, &s)
		p.tools[t.Name] = s
	}
	for _, m := range req.Messages[1:] {
		if m.Role != model.User {
			continue
		}
		for _, b := range m.Blocks {
			if b.Kind == model.ToolResult && b.Result != nil {
				// Decoded as the grader decodes it, so that a produced
				// value the grader finds is the one sent.
				p.results = append(p.results, actions.Returned(record.Call{Result: b.Result.Content, Structured: b.Result.Structured}))
				break
			}
		}
	}
	return p
}

// promptVars reads the token and facts of an attempt of case c back from
// its rendered prompt, the first message of req.
func promptVars(c *suite.Case, req *model.Request) suite.Vars {
	vars := suite.Vars{Facts: map[string]string{}}
	if len(req.Messages) == 0 {
		return vars
	}
	if vals, ok := suite.MatchTemplate(c.Prompt, req.Messages[0].TextOf()); ok {
		for k, v := range vals {
			if k == "token" {
				vars.Token = v
			} else if f, ok := strings.CutPrefix(k, "fact."); ok {
				vars.Facts[f] = v
			}
		}
	}
	return vars
}

// ask is the key's question i, rendered with the attempt's token and facts
// as the prompt was.
func ask(c *suite.Case, i int, req *model.Request) model.Message {
	q := c.Key.Asks[i]
	if r, err := suite.Render(q, promptVars(c, req)); err == nil {
		q = r
	}
	return Say(q)
}

// move makes one call of the plan.
type move func(p *player, v variant) suite.KeyCall

// plan is the calls variant v makes, one a turn, before it answers.
func (p *player) plan(v variant) []move {
	var plan []move
	for i := range p.c.Action.Steps {
		plan = append(plan, func(p *player, v variant) suite.KeyCall { return p.step(i, v) })
	}
	switch v {
	case declinesVariant:
		return nil
	case givesUpVariant:
		if len(plan) > 0 {
			plan = plan[:len(plan)-1]
		}
	case extraChangeVariant:
		if k, ok := p.strayCall(); ok {
			plan = append(plan, func(*player, variant) suite.KeyCall { return k })
		}
	}
	return plan
}

func (p *player) answer(v variant) string {
	switch v {
	case declinesVariant:
		return refuseAnswer
	case givesUpVariant:
		if len(p.c.Action.Steps) > 0 {
			return stopAnswer
		}
	}
	if p.c.Action.Answer != "" {
		return p.c.Action.Answer
	}
	if p.c.Action.Kind == suite.KindDecline {
		return declineAnswer
	}
	return doneAnswer
}

// step builds the call of step i: every argument the key gives, from its
// source, wrong on purpose for wrong-args; the approval when the tool takes
// one, except for no-confirm.
func (p *player) step(i int, v variant) suite.KeyCall {
	st := p.c.Action.Steps[i]
	args := map[string]any{}
	paths := make([]string, 0, len(st.Args))
	for path := range st.Args {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	schema := p.tools[shownName(st.Tool, p.tools)] // SERVER/TOOL, of several servers
	for _, path := range paths {
		src := st.Args[path]
		val := p.value(src, i)
		if v == wrongArgsVariant && src.Compared() {
			val = wrong(val, propSchema(schema, path))
		}
		suite.SetPath(args, path, val)
	}
	confirm := p.c.Action.Settings().Confirm
	if v != noConfirmVariant && propSchema(schema, confirm) != nil {
		args[confirm] = true
	}
	return suite.KeyCall{Tool: st.Tool, Args: args}
}

// value is the right value of an argument of step i.
func (p *player) value(src suite.ArgSource, i int) any {
	if ex := src.Authored; ex != nil || src.Given != nil {
		// An authored example or a given value is sent rendered: {{token}}
		// and facts in it are this attempt's.
		if ex == nil {
			ex = src.Given
		}
		if v, err := suite.RenderValue(ex, p.vars); err == nil {
			return v
		}
		return ex
	}
	if src.Fact != "" {
		if f, ok := p.vars.Facts[src.Fact]; ok {
			return f
		}
	}
	if src.Literal != nil {
		if v, err := suite.RenderValue(src.Literal, p.vars); err == nil {
			return v
		}
	}
	for _, pp := range src.Produced {
		if path, err := suite.Render(pp, p.vars); err == nil {
			for k := min(i, len(p.results)) - 1; k >= 0; k-- {
				if got := suite.Lookup(p.results[k], path); len(got) > 0 {
					return got[0]
				}
			}
		}
	}
	return "unknown"
}

// strayFixture is the first fixture of the case built by a tool from the
// token alone: extra-change builds it again under another name.
func (p *player) strayFixture() *suite.Fixture { return strayFixture(p.c) }

// strayFixture returns a fixture of action case c that extra-change can
// build again under a token of its own (one whose arguments name no fact),
// or nil.
func strayFixture(c *suite.Case) *suite.Fixture {
	for i, fx := range c.Action.Fixtures {
		if fx.Tool == "" {
			continue
		}
		b, _ := json.Marshal(fx.Args)
		if !strings.Contains(string(b), "{{fact.") && !strings.Contains(string(b), "{{ fact.") {
			return &c.Action.Fixtures[i]
		}
	}
	return nil
}

// Warning says what suite s lacks for the fake called name (without
// "fake:") to lose the points it is there to lose, or "" when it lacks
// nothing. Only fake:extra-change and fake:ignores-answer need something
// of a suite: on an action case with no actions.stray tool call and no
// fixture it can build again they make no change nobody asked for, and
// pass where they should fail.
func Warning(name string, s *suite.Suite) string {
	switch name {
	case "extra-change":
		if bare := strayless(s, false); len(bare) > 0 {
			return fmt.Sprintf("fake:extra-change makes no unrequested change on %d action case(s) (%s): the suite sets no actions.stray (a tool call) and they build no fixture it can repeat, so there it passes where it should fail the Clean column",
				len(bare), firstFew(bare))
		}
	case "ignores-answer":
		// It makes the same change after the user's answer: on an action
		// case whose key asks and that has none to make, it changes
		// nothing, and passes a case the user refuses.
		if bare := strayless(s, true); len(bare) > 0 {
			return fmt.Sprintf("fake:ignores-answer makes no change after the user's answer on %d action case(s) (%s): the suite sets no actions.stray (a tool call) and they build no fixture it can repeat, so there it passes a case the user refuses",
				len(bare), firstFew(bare))
		}
	}
	return ""
}

// strayless returns the action cases of s (only those whose key asks the
// user something, when asking) on which no stray change can be made: no
// actions.stray tool call, and no fixture to build again.
func strayless(s *suite.Suite, asking bool) []string {
	var bare []string
	for _, c := range s.Cases {
		if c.Action == nil || asking && len(c.Key.Asks) == 0 {
			continue
		}
		if st := c.Action.Settings().Stray; (st == nil || st.Tool == "") && strayFixture(c) == nil {
			bare = append(bare, c.ID)
		}
	}
	return bare
}

// firstFew names the first three of ids, and "..." for the rest.
func firstFew(ids []string) string {
	if len(ids) > 3 {
		ids = append(ids[:3:3], "...")
	}
	return strings.Join(ids, ", ")
}

// stray makes the call of a stray change under a token of the fake's own,
// derived from the prompt, so that what it makes is new on the target.
func (p *player) stray(tool string, args map[string]any) suite.KeyCall {
	sum := sha256.Sum256([]byte(p.req.Messages[0].TextOf()))
	vars := suite.Vars{Token: "x" + hex.EncodeToString(sum[:])[:5]}
	r, _ := suite.RenderValue(map[string]any(args), vars)
	m, _ := r.(map[string]any)
	return suite.KeyCall{Tool: tool, Args: m}
}

// propSchema returns the schema of the argument at a dotted path of an
// input schema, or nil when the schema does not have it.
func propSchema(schema map[string]any, path string) map[string]any {
	cur := schema
	for _, seg := range suite.SplitPath(path) {
		if cur == nil {
			return nil
		}
		if props, ok := cur["properties"].(map[string]any); ok {
			if next, ok := props[seg].(map[string]any); ok {
				cur = next
				continue
			}
		}
		if items, ok := cur["items"].(map[string]any); ok {
			cur = items
			continue
		}
		return nil
	}
	return cur
}

// wrong returns a value of the same shape as v that is not v: another
// member of an enum, a changed string, number or boolean.
func wrong(v any, schema map[string]any) any {
	if enum, ok := schema["enum"].([]any); ok {
		for _, e := range enum {
			if !suite.SameValue(e, v) {
				return e
			}
		}
	}
	switch x := v.(type) {
	case string:
		return "wrong-" + x
	case bool:
		return !x
	case int:
		return x + 1
	case float64:
		return x + 1
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = wrong(e, nil)
		}
		return out
	}
	return "wrong"
}
