package runner

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"time"

	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
	"github.com/mcpeval/mcpeval/target"
)

// attempt puts case p to the model over conn (nil when the target could
// not be started) until it answers, asks nothing more, or reaches the
// turn cap.
func (r *run) attempt(ctx context.Context, conn *target.Conn, p record.Planned) *record.Attempt {
	cfg := r.cfg
	c := cfg.Suite.Case(p.Case)
	r = r.forCase(c) // only the tools this case is shown
	start := cfg.Now()
	at := &conversation{r: r, ctx: ctx, conn: conn, c: c,
		a: &record.Attempt{Case: p.Case, N: p.N, Prompt: c.Prompt, Start: start.UTC()}}
	a := at.a
	defer func() { a.DurationMS = cfg.Now().Sub(start).Milliseconds() }()
	if conn == nil {
		return at.fail(record.KindTarget, "the target could not be started for this attempt", nil)
	}
	turnCap := cfg.TurnCap
	if cfg.Fixtures != nil && c.Action != nil {
		prompt, f, err := cfg.Fixtures.Setup(ctx, conn, c, newToken())
		a.Fixture = f
		if err != nil {
			return at.fail(record.KindFixture, err.Error(), conn.Stderr())
		}
		defer func() { cfg.Fixtures.Finish(context.WithoutCancel(ctx), conn, c, f, a) }()
		a.Prompt = prompt
		turnCap = cfg.Suite.ActionTurnCap(c)
	}
	at.req = r.firstRequest(c, a.Prompt)
	for turn := 0; turn < turnCap; turn++ {
		if at.turn() {
			return a
		}
	}
	a.End = record.EndTurnCap
	return a
}

// firstRequest is an attempt's first request to the model, for case c
// (r being forCase(c)) with prompt.
func (r *run) firstRequest(c *suite.Case, prompt string) *model.Request {
	return &model.Request{
		CaseID:   c.ID,
		System:   r.cfg.Suite.SystemPrompt,
		Tools:    r.tools,
		Messages: []model.Message{{Role: model.User, Blocks: []model.Block{{Kind: model.Text, Text: prompt}}}},
		CacheKey: r.cacheKey(),
		// The case's tool_choice holds for its first request only.
		ToolChoice: toolChoice(r.cfg.Suite, r.cfg.Surface, c),
	}
}

// conversation is one attempt under way: the messages so far and the
// record being filled in.
type conversation struct {
	r    *run
	ctx  context.Context
	conn *target.Conn
	c    *suite.Case
	a    *record.Attempt
	req  *model.Request
}

// fail ends the attempt in an error.
func (at *conversation) fail(kind record.ErrorKind, msg string, stderr []string) *record.Attempt {
	at.a.End = record.EndError
	at.a.Error = &record.Error{Kind: kind, Message: msg, Stderr: stderr}
	return at.a
}

// turn asks the model once and acts on what it says: an answer or a
// tool-call case's first calls end the attempt; tool calls are sent and
// their results become the next message. It reports whether the attempt
// has ended.
func (at *conversation) turn() bool {
	cfg := at.r.cfg
	t0 := time.Now()
	resp, err := cfg.Model.Generate(at.ctx, at.req)
	at.req.ToolChoice = nil // later requests leave the choice to the model
	if err != nil {
		at.modelFailed(err)
		return true
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
	at.req.Messages = append(at.req.Messages, resp.Message)
	switch {
	case len(calls) == 0:
		at.answered(rt)
		return true
	case at.c.IsToolCall():
		at.calledFirst(rt, calls)
		return true
	}
	return at.callTools(rt, calls)
}

// modelFailed ends the attempt for a model request that failed.
func (at *conversation) modelFailed(err error) {
	if at.ctx.Err() != nil {
		at.fail(record.KindCanceled, "interrupted", nil)
		return
	}
	var pe *model.ProviderError
	if errors.As(err, &pe) {
		at.a.Turns = append(at.a.Turns, record.Turn{Tries: pe.Tries})
	}
	kind := record.KindProvider
	if pe == nil && errors.Is(err, context.DeadlineExceeded) {
		kind = record.KindTimeout
	}
	at.fail(kind, err.Error(), nil)
}

// answered ends the attempt with the model's answer in text.
func (at *conversation) answered(rt record.Turn) {
	rt.Blocks = nil
	at.a.Turns = append(at.a.Turns, rt)
	at.a.End = record.EndAnswered
	at.a.Answer = rt.Text
}

// calledFirst ends a tool-call case's attempt at the model's first calls,
// which are recorded and not sent.
func (at *conversation) calledFirst(rt record.Turn, calls []model.Call) {
	for _, call := range calls {
		rc := record.Call{ID: call.ID, Name: call.Name, WireName: call.WireName, Args: call.Args, Shown: at.r.known[call.Name], NotSent: true}
		if rc.Shown {
			rc.Server = callServer(at.conn, call.Name)
		}
		if !json.Valid(call.Args) {
			rc.Args = jsonString(string(call.Args))
		}
		rt.Calls = append(rt.Calls, rc)
	}
	at.a.Turns = append(at.a.Turns, rt)
	at.a.End = record.EndToolCall
}

// callTools sends the turn's calls to the target and puts their results
// to the model. A failure of the target itself ends the attempt (and the
// result is true).
func (at *conversation) callTools(rt record.Turn, calls []model.Call) bool {
	results := model.Message{Role: model.User}
	for _, call := range calls {
		rc, res, err := at.r.call(at.ctx, at.conn, call)
		rt.Calls = append(rt.Calls, rc)
		if err != nil {
			at.a.Turns = append(at.a.Turns, rt)
			at.targetFailed(err)
			return true
		}
		results.Blocks = append(results.Blocks, model.Block{Kind: model.ToolResult, Result: res})
	}
	at.a.Turns = append(at.a.Turns, rt)
	at.req.Messages = append(at.req.Messages, results)
	return false
}

// targetFailed ends the attempt for a tool call the target could not
// answer.
func (at *conversation) targetFailed(err error) {
	if at.ctx.Err() != nil {
		at.fail(record.KindCanceled, "interrupted", nil)
		return
	}
	kind := record.KindTarget
	if errors.Is(err, context.DeadlineExceeded) {
		kind = record.KindTimeout
	}
	at.fail(kind, err.Error(), at.conn.Stderr())
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

// newToken returns a fresh token for fixture names: 6 lowercase hex digits.
func newToken() string {
	var b [3]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
