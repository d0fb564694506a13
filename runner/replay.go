package runner

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mcpeval/mcpeval/internal/redact"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
	"github.com/mcpeval/mcpeval/target"
)

// ReplayConfig is what Replay needs: the recorded run, the suite it ran
// (for what a result shows the model and its replay: rules) and the target
// its calls are sent to now.
type ReplayConfig struct {
	Suite  *suite.Suite
	Record *record.Run
	Target target.Config
	// CallTimeout bounds each call (60s when zero); MaxResultBytes caps a
	// result as a run does (256 KiB when zero): give the run's own when
	// it was made with others.
	CallTimeout    time.Duration
	MaxResultBytes int
}

// Replayed is one recorded tool call sent to the target again, without a
// model: the result recorded, the result now, and how they differ.
type Replayed struct {
	// Attempt is the attempt that made the call; Turn and Call its place
	// in the attempt, from 1.
	Attempt    record.AttemptKey
	Turn, Call int
	Tool       string
	Args       []byte
	// Recorded is the call as the run recorded it; Got as the target
	// answered it now, scrubbed as a record is. Got is the zero Call when
	// Err is set.
	Recorded, Got record.Call
	// Err says why the target could not answer the call now (it failed,
	// or did not answer in time).
	Err string
	// Diff is a unified diff of the two results after the suite's ignore
	// rules, "" when they are the same.
	Diff string
}

// ErrNotReplayable is returned by Replay for a run it cannot replay
// faithfully: a run of action cases (their fixtures are not rebuilt, so
// their calls would meet another world) or a run on a search surface
// (whose call_tool calls it does not unwrap).
var ErrNotReplayable = errors.New("the run cannot be replayed")

// Replay sends every tool call the recorded run made to cfg.Target, in
// order within each attempt, and compares each result with the recorded
// one. Calls that never reached the server (a tool the model was not
// shown, arguments that were not JSON, a tool-call case's first calls, a
// search surface's own tools) are not sent. A run of action cases is
// refused, as is a run on a search surface (ErrNotReplayable). The
// attempts of a read-only suite share one connection, as the run's did;
// a suite that lets the model write (or asks for a fresh target) gets a
// new one for each attempt. A server's sampling or elicitation request
// during a call is refused: no model is asked. The error is for what kept the replay from
// starting; a call the target fails is a Replayed with Err.
func Replay(ctx context.Context, cfg ReplayConfig) ([]Replayed, error) {
	rec := cfg.Record
	if cfg.Suite == nil || rec == nil {
		return nil, errors.New("runner: a replay needs a suite and a record")
	}
	if sf := rec.Header.Surface; sf != nil && sf.Kind == "search" {
		return nil, fmt.Errorf("replaying %s: %w: it ran on the search surface %s, whose call_tool calls replay does not unwrap", rec.Dir, ErrNotReplayable, sf.Name)
	}
	for _, a := range rec.Attempts {
		if a.Fixture != nil || cfg.Suite.Actions != nil {
			return nil, fmt.Errorf("replaying %s: %w: attempt %s is an action case, whose fixtures replay does not rebuild (it replays question cases)", rec.Dir, ErrNotReplayable, a.Key())
		}
	}
	rules, err := cfg.Suite.ReplayRules()
	if err != nil {
		return nil, err
	}
	rcfg := Config{Suite: cfg.Suite, Target: cfg.Target, Model: replayModel{}, FixedConcurrency: true, CallTimeout: cfg.CallTimeout, MaxResultBytes: cfg.MaxResultBytes}
	r, err := newRun(rcfg)
	if err != nil {
		return nil, err
	}
	r.known = map[string]bool{}
	for _, t := range rec.Header.Tools {
		r.known[t.Name] = true
	}
	var conn *target.Conn
	defer func() {
		if conn != nil {
			conn.Close()
		}
	}()
	var out []Replayed
	for _, a := range rec.Attempts {
		if conn != nil && (cfg.Suite.FreshTarget || cfg.Suite.AllowWrites) { // each attempt met a target of its own
			conn.Close()
			conn = nil
		}
		for ti, t := range a.Turns {
			for ci, c := range t.Calls {
				if !sent(c) {
					continue
				}
				if conn == nil {
					if conn, err = target.Dial(ctx, r.cfg.Target); err != nil {
						return out, fmt.Errorf("replaying %s: %w", rec.Dir, err)
					}
				}
				c = c.Returned() // what the server answered, not what an output overlay showed the model
				p := Replayed{Attempt: a.Key(), Turn: ti + 1, Call: ci + 1, Tool: c.Name, Args: c.Args, Recorded: c}
				got, _, err := r.call(ctx, conn, model.Call{ID: c.ID, Name: c.Name, WireName: c.WireName, Args: c.Args})
				if err != nil {
					if ctx.Err() != nil {
						return out, ctx.Err()
					}
					p.Err = r.scrub.errText(err.Error())
					conn.Close() // a failed target is dialled anew for the next call
					conn = nil
				} else {
					if r.scrub.needed(&got) {
						redact.Walk(&got, r.scrub.text)
					}
					p.Got = got
					p.Diff = ResultDiff(c, got, rules)
				}
				out = append(out, p)
			}
		}
	}
	return out, nil
}

// sent reports whether the recorded call reached the server, and so is
// one a replay sends again.
func sent(c record.Call) bool {
	notJSON := c.Rejected != "" && len(c.Args) > 0 && c.Args[0] == '"' // kept as the string the model wrote
	return c.Shown && !c.NotSent && c.Kind != record.CallSearch && !notJSON
}

// replayModel stands in for the model a run needs: a replay asks none.
type replayModel struct{}

func (replayModel) Generate(context.Context, *model.Request) (*model.Response, error) {
	return nil, errors.New("a replay asks no model")
}
