package runner

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
	"github.com/mcpeval/mcpeval/target"
)

// firstRequest is an attempt's first request to the model, for case c
// (r being forCase(c)) with prompt.
func (r *run) firstRequest(c *suite.Case, prompt string) *model.Request {
	return &model.Request{
		CaseID:   c.ID,
		System:   r.cfg.Suite.SystemPrompt,
		Tools:    r.modelTools(), // search.go
		Messages: []model.Message{{Role: model.User, Blocks: []model.Block{{Kind: model.Text, Text: prompt}}}},
		CacheKey: r.cacheKey(),
		// The case's tool_choice holds for its first request only.
		ToolChoice: toolChoice(r.cfg.Suite, r.cfg.Surface, c),
	}
}

// conversation is one attempt's exchange of turns between the model and
// the target's tools. It opens with the case's prompt, and each step (next)
// is one model turn: the model is asked once, the tools it calls are sent
// to the target and their results become the next message. It ends in an
// answer (for a tool-call case, in the model's first calls, recorded and
// not sent), at the attempt's turn cap, or in an error. It fills in the
// attempt's record as it goes and judges nothing.
//
// Where an exchange with more than the model and the tools fits in:
//   - What the user says after the model's answer is afterAnswer's to
//     decide: the case's turns (suite.Case.Turns), scripted in the suite,
//     or a model playing the user (suite.Case.User, user.go). A message
//     is added to req and the conversation goes on; with none, the
//     answer ends it.
//   - An approval of a call the model makes would come in callTools,
//     before the call goes to the target; today no call waits for one.
//   - A request the server makes while a call is under way (sampling,
//     elicitation) arrives over conn during callTools, and is answered by
//     the call's answerer (serverreq.go), which records it on the call.
//     The progress and log notifications of a call are kept with its
//     record (call.go), and a change of the server's tools is followed
//     before the next request to the model (followTools).
type conversation struct {
	r    *run            // the run as the case sees it (forCase)
	conn *target.Conn    // the target the calls go to
	c    *suite.Case     // the case put to the model
	a    *record.Attempt // the record being filled in
	req  *model.Request  // the next request: the conversation so far

	given []int // the case's turns the user has said, by index
	since int   // the first of a.Turns since the user last spoke
	// changes and current are the count of the server's tools/list_changed
	// the conversation has followed, and its tools as it last listed them
	// (toolschanged.go).
	changes uint64
	current []record.Tool
}

// newConversation opens the conversation of attempt a, which puts case c
// to the model (r being forCase(c)) with a.Prompt, over conn.
func (r *run) newConversation(conn *target.Conn, c *suite.Case, a *record.Attempt) *conversation {
	return &conversation{r: r, conn: conn, c: c, a: a, req: r.firstRequest(c, a.Prompt), current: r.listed}
}

// converse takes steps until the conversation ends or has taken turnCap
// of them, which ends the attempt at its turn cap.
func (cv *conversation) converse(ctx context.Context, turnCap int) {
	for turn := 0; turn < turnCap; turn++ {
		if cv.next(ctx) {
			return
		}
	}
	cv.a.End = record.EndTurnCap
}

// next takes one step: it asks the model once and acts on its turn. An
// answer is followed by what the user says next (afterAnswer), a tool-call
// case's first calls end the attempt, and other calls are sent, their
// results becoming the next message. It reports whether the conversation
// has ended.
func (cv *conversation) next(ctx context.Context) (done bool) {
	rt, calls, err := cv.ask(ctx)
	if err != nil {
		cv.modelFailed(ctx, err)
		return true
	}
	switch {
	case len(calls) == 0:
		cv.answered(rt)
		return cv.afterAnswer(ctx)
	case cv.c.IsToolCall() && !cv.r.onlySearches(calls): // searches are answered (search.go)
		cv.calledFirst(rt, calls)
		return true
	}
	return cv.callTools(ctx, rt, calls)
}

// ask sends the conversation so far to the model and adds its message to
// it. It returns the model's turn as the record keeps it (text and
// thinking capped) and the calls it makes, or why the request failed.
func (cv *conversation) ask(ctx context.Context) (record.Turn, []model.Call, error) {
	cv.followTools(ctx) // the server may have changed its tools since the last turn
	cfg := cv.r.cfg
	t0 := time.Now()
	resp, err := cfg.Model.Generate(ctx, cv.req)
	cv.req.ToolChoice = nil // later requests leave the choice to the model
	if err != nil {
		return record.Turn{}, nil, err
	}
	lat := resp.Latency
	if lat == 0 {
		lat = time.Since(t0)
	}
	rt := record.Turn{
		Text:       resp.Message.TextOf(),
		StopReason: resp.StopReason,
		Usage:      resp.Usage,
		LatencyMS:  lat.Milliseconds(),
		Tries:      resp.Tries,
		Blocks:     recordable(resp.Message.Blocks),
	}
	for _, b := range resp.Message.Blocks {
		if b.Kind == model.Thinking {
			rt.Thinking += b.Text
		}
	}
	capTurn(&rt, cfg.MaxOutputBytes)
	calls := resp.Message.Calls()
	resp.Message.Role = model.Assistant
	cv.req.Messages = append(cv.req.Messages, resp.Message)
	return rt, calls, nil
}

// afterAnswer is where the user speaks after the model's answer, and
// reports whether the conversation ends there. A case's simulated user is
// asked (simulatedUser); otherwise the user says the case's next turn
// (suite.Case.NextTurn) that holds of what the model did since the user
// last spoke; the turn is recorded on the answer's turn and sent as the
// next user message. With no such turn the conversation ends on this
// answer.
func (cv *conversation) afterAnswer(ctx context.Context) (done bool) {
	if cv.c.User != nil {
		return cv.simulatedUser(ctx)
	}
	if len(cv.c.Turns) == 0 {
		return true
	}
	reply := suite.Reply{Answer: cv.a.Answer, Asked: grade.Asks(cv.a.Answer), Called: cv.calledSince()}
	i, ok := cv.c.NextTurn(reply, cv.given)
	if !ok {
		return true
	}
	t := cv.c.Turns[i]
	cv.given = append(cv.given, i)
	say := t.Say
	if f := cv.a.Fixture; f != nil { // {{token}} and facts, as in the prompt
		if r, err := suite.Render(say, suite.Vars{Token: f.Token, Facts: f.Facts}); err == nil {
			say = r
		}
	}
	cv.a.Turns[len(cv.a.Turns)-1].User = &record.UserTurn{Entry: i + 1, Text: say, Approves: t.Approves}
	cv.since = len(cv.a.Turns)
	// The answer graded is the one the conversation ends on.
	cv.a.Answer, cv.a.End = "", ""
	cv.req.Messages = append(cv.req.Messages, model.Message{Role: model.User, Blocks: []model.Block{{Kind: model.Text, Text: say}}})
	return false
}

// calledSince lists the tools the model called since the user last spoke,
// each by its name and, on a suite of several servers, as SERVER/TOOL too.
// On a search surface a call_tool is the tool it called, and on a mapped
// surface a call is the canonical tool its action is: the names the
// suite's cases are written with.
func (cv *conversation) calledSince() []string {
	var names []string
	sf := cv.r.cfg.Surface
	for _, t := range cv.a.Turns[cv.since:] {
		for _, c := range t.Calls {
			switch {
			case cv.r.searching(): // the tool a call_tool called (search.go)
				var ok bool
				if c, ok = calledThrough(c); !ok {
					continue
				}
			case sf != nil && !sf.Canonical():
				var args map[string]any
				if len(c.Args) == 0 || json.Unmarshal(c.Args, &args) == nil {
					if canon, _, ok := sf.Back(c.Name, args); ok {
						c.Name = canon
					}
				}
			}
			names = append(names, c.Name)
			if c.Server != "" {
				names = append(names, c.Server+"/"+c.Name)
			}
		}
	}
	return names
}

// modelFailed ends the attempt for a model request that failed.
func (cv *conversation) modelFailed(ctx context.Context, err error) {
	if ctx.Err() != nil {
		endInError(cv.a, record.KindCanceled, "interrupted", nil)
		return
	}
	var pe *model.ProviderError
	if errors.As(err, &pe) {
		cv.a.Turns = append(cv.a.Turns, record.Turn{Tries: pe.Tries})
	}
	kind := record.KindProvider
	if pe == nil && errors.Is(err, context.DeadlineExceeded) {
		kind = record.KindTimeout
	}
	endInError(cv.a, kind, err.Error(), nil)
}

// answered records the model's answer in text as the attempt's answer.
func (cv *conversation) answered(rt record.Turn) {
	rt.Blocks = nil
	cv.a.Turns = append(cv.a.Turns, rt)
	cv.a.End = record.EndAnswered
	cv.a.Answer = rt.Text
}

// calledFirst ends a tool-call case's attempt at the model's first calls,
// which are recorded and not sent.
func (cv *conversation) calledFirst(rt record.Turn, calls []model.Call) {
	for _, call := range calls {
		rc := record.Call{ID: call.ID, Name: call.Name, WireName: call.WireName, Args: call.Args, Shown: cv.r.known[call.Name], NotSent: true}
		if rc.Shown {
			rc.Server = callServer(cv.conn, call.Name)
		}
		if !json.Valid(call.Args) {
			rc.Args = jsonString(string(call.Args))
		}
		if cv.r.searching() { // what the call names on a search surface (search.go)
			send, made, _ := cv.r.onSearch(call)
			rc.Kind, rc.Shown, rc.Server = made.Kind, made.Shown, ""
			if send != nil && made.Shown {
				rc.Server = callServer(cv.conn, send.Name)
			}
		}
		rt.Calls = append(rt.Calls, rc)
	}
	cv.a.Turns = append(cv.a.Turns, rt)
	cv.a.End = record.EndToolCall
}

// callTools sends the turn's calls to the target and puts their results
// to the model. A failure of the target itself ends the attempt (and the
// result is true).
func (cv *conversation) callTools(ctx context.Context, rt record.Turn, calls []model.Call) (done bool) {
	results := model.Message{Role: model.User}
	for _, call := range calls {
		var made *record.Call
		if cv.r.searching() { // search.go
			send, rc, res := cv.r.onSearch(call)
			if send == nil {
				rt.Calls = append(rt.Calls, rc)
				results.Blocks = append(results.Blocks, model.Block{Kind: model.ToolResult, Result: res})
				continue
			}
			call, made = *send, &rc
		}
		an := &answerer{cv: cv, rc: &record.Call{}}
		rc, res, err := cv.r.call(target.Answering(ctx, an), cv.conn, call)
		if made != nil {
			rc = asMade(rc, *made)
			if res != nil {
				res.CallID, res.Name = made.ID, made.Name
			}
		}
		an.mu.Lock()
		rc.Sampling, rc.Elicitations = an.rc.Sampling, an.rc.Elicitations
		an.mu.Unlock()
		rt.Calls = append(rt.Calls, rc)
		if err != nil {
			cv.a.Turns = append(cv.a.Turns, rt)
			cv.targetFailed(ctx, err)
			return true
		}
		results.Blocks = append(results.Blocks, model.Block{Kind: model.ToolResult, Result: res})
	}
	cv.a.Turns = append(cv.a.Turns, rt)
	cv.req.Messages = append(cv.req.Messages, results)
	return false
}

// targetFailed ends the attempt for a tool call the target could not
// answer.
func (cv *conversation) targetFailed(ctx context.Context, err error) {
	if ctx.Err() != nil {
		endInError(cv.a, record.KindCanceled, "interrupted", nil)
		return
	}
	kind := record.KindTarget
	if errors.Is(err, context.DeadlineExceeded) {
		kind = record.KindTimeout
	}
	endInError(cv.a, kind, err.Error(), cv.conn.Stderr())
}

// endInError ends attempt a in an error and returns it.
func endInError(a *record.Attempt, kind record.ErrorKind, msg string, stderr []string) *record.Attempt {
	a.End = record.EndError
	a.Error = &record.Error{Kind: kind, Message: msg, Stderr: stderr}
	return a
}

// recordable returns blocks safe to encode: a call's arguments that are not
// valid JSON are kept as a JSON string of what the model wrote.
func recordable(blocks []model.Block) []model.Block {
	out := make([]model.Block, len(blocks))
	for i, b := range blocks {
		if b.Call != nil && !json.Valid(b.Call.Args) {
			c := *b.Call
			c.Args = jsonString(string(c.Args))
			b.Call = &c
		}
		if len(b.Opaque) > 0 && !json.Valid(b.Opaque) {
			b.Opaque = jsonString(string(b.Opaque))
		}
		out[i] = b
	}
	return out
}
