package runner

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/fake"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/target"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type tickOut struct {
	Ticks int64 `json:"ticks"`
}

// tickServer returns an in-process server whose tick tool counts its calls
// in the session's server, and a count of the servers started.
func tickServer() (func(bool) (*mcp.Server, error), *atomic.Int64) {
	var starts atomic.Int64
	return func(bool) (*mcp.Server, error) {
		starts.Add(1)
		var ticks atomic.Int64
		s := mcp.NewServer(&mcp.Implementation{Name: "ticker", Version: "1"}, nil)
		mcp.AddTool(s, &mcp.Tool{Name: "tick", Description: "counts its calls", Annotations: readOnly},
			func(ctx context.Context, req *mcp.CallToolRequest, in totalIn) (*mcp.CallToolResult, tickOut, error) {
				return nil, tickOut{Ticks: ticks.Add(1)}, nil
			})
		return s, nil
	}, &starts
}

// sharedSeveral returns the configuration of a run of fake:perfect on a
// suite of two servers, whose one case calls the healthy in-process steady
// (tickServer) and then the stdio fault server shaky, started with args;
// and the file counting shaky's starts and the count of steady's.
func sharedSeveral(t *testing.T, args ...string) (Config, string, *atomic.Int64) {
	t.Helper()
	shaky, shakyStarts := countedFaultServer(t, args...)
	spec, _ := json.Marshal(shaky.Spec)
	env, _ := json.Marshal(shaky.Env)
	s := loadSuite(t, `name: shared-several
targets:
  steady: builtin:ticker
  shaky: {spec: `+string(spec)+`, env: `+string(env)+`}
cases:
  - id: g/total
    prompt: What is the total?
    tools: {required: [shaky/get_total]}
    key:
      calls: [{tool: steady/tick}, {tool: shaky/get_total}]
      answer: The total is 42.
`)
	ticker, tickerStarts := tickServer()
	m, _ := fake.New("perfect", s)
	return Config{Suite: s, Model: m, ModelInfo: model.Info{Spec: "fake:perfect"},
		Target: target.Config{Builtins: target.Builtins{"ticker": ticker}}, OutDir: t.TempDir()}, shakyStarts, tickerStarts
}

// TestSharedSeveralRestartsTheFailedServer runs, with the attempts
// sharing one connection, a stdio fault server beside a healthy in-process
// server. The fault server fails on its second tool call, every time it
// is started: it crashes, hangs past the call timeout, or writes a line
// that is not JSON. Attempts 2 and 4 are then errors naming that server;
// it alone is started again for attempt 3, and the healthy server is
// started once and keeps its session (and its state: its tick count goes
// on from attempt to attempt).
func TestSharedSeveralRestartsTheFailedServer(t *testing.T) {
	for _, tc := range []struct {
		fault       string
		callTimeout time.Duration
		kind        record.ErrorKind
		msg         string
	}{
		{"-crash-on", 0, record.KindTarget, "calling tool get_total: server shaky: "},
		{"-hang-on", 300 * time.Millisecond, record.KindTimeout, "tool get_total did not answer within 300ms"},
		{"-garbage-on", 0, record.KindTarget, "calling tool get_total: server shaky: "},
	} {
		t.Run(tc.fault, func(t *testing.T) {
			cfg, shakyStarts, tickerStarts := sharedSeveral(t, tc.fault, "2")
			cfg.CallTimeout = tc.callTimeout
			cfg.Attempts, cfg.Concurrency = 4, 1
			if !Shares(cfg) {
				t.Fatal("the attempts do not share connections")
			}
			rec, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if !rec.Complete() || len(rec.Attempts) != 4 {
				t.Fatalf("complete %v, %d attempts", rec.Complete(), len(rec.Attempts))
			}
			as := byN(t, rec)
			wantAnswered(t, as, 1, 3)
			for _, n := range []int{2, 4} {
				a := as[n]
				wantError(t, a, tc.kind, tc.msg)
				if calls := a.Calls(); len(calls) == 0 || calls[len(calls)-1].Server != "shaky" {
					t.Errorf("attempt %d's calls %+v: want the last one, which failed, sent to shaky", n, calls)
				}
			}
			if n := countStarts(t, shakyStarts); n != 2 {
				t.Errorf("the fault server was started %d times, want 2: at the start, and again after attempt 2 alone", n)
			}
			if n := tickerStarts.Load(); n != 1 {
				t.Errorf("the healthy server was started %d times, want once: a failure of the other server restarted it", n)
			}
			for n := 1; n <= 4; n++ {
				if got := ticks(as[n]); got != n {
					t.Errorf("attempt %d: the healthy server counted %d ticks, want %d: its session and its state are kept", n, got, n)
				}
			}
		})
	}
}

// ticks returns the count the tick call of an attempt was answered with.
func ticks(a record.Attempt) int {
	for _, c := range a.Calls() {
		if c.Server == "steady" {
			var out tickOut
			json.Unmarshal(c.Structured, &out)
			return int(out.Ticks)
		}
	}
	return 0
}

// TestSharedSeveralRestartsUnderLoad: with 4 attempts at once on a pool of
// 2 connections, a fault server that crashes on every third call fails
// attempts while others still hold their sessions; each crash restarts the
// fault server alone, so the healthy server is started once per pool slot
// at most, and every attempt either answers or fails naming the fault
// server.
func TestSharedSeveralRestartsUnderLoad(t *testing.T) {
	cfg, shakyStarts, tickerStarts := sharedSeveral(t, "-crash-on", "3", "-delay", "20ms")
	cfg.Attempts, cfg.Concurrency, cfg.TargetPool = 16, 4, 2
	rec, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !rec.Complete() || len(rec.Attempts) != 16 {
		t.Fatalf("complete %v, %d attempts", rec.Complete(), len(rec.Attempts))
	}
	errs, sessions := 0, map[int]bool{}
	for _, a := range byN(t, rec) {
		if a.End == record.EndError {
			errs++
			wantError(t, a, record.KindTarget, "server shaky: ")
		}
		for _, c := range a.Calls() {
			sessions[c.Session] = true
		}
	}
	if errs == 0 {
		t.Error("no attempt failed, though the fault server crashes on its third call")
	}
	if n := countStarts(t, shakyStarts); n < 3 {
		t.Errorf("the fault server was started %d times, want it restarted after its crashes", n)
	}
	if n := tickerStarts.Load(); n > 2 {
		t.Errorf("the healthy server was started %d times, want at most 2 (one per pool slot)", n)
	}
	if len(sessions) < 3 {
		t.Errorf("calls were served by sessions %v, want replacements after the crashes", sessions)
	}
}
