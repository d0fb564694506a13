package runner

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/mcpeval/mcpeval/internal/testkit/faultserver"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/fake"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
	"github.com/mcpeval/mcpeval/target"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type totalIn struct {
	Months int `json:"months,omitempty" jsonschema:"how many months"`
}
type totalOut struct {
	Total float64 `json:"total"`
}

var readOnly = &mcp.ToolAnnotations{ReadOnlyHint: true}

// testBuiltins are the in-process servers the test suites name.
var testBuiltins = target.Builtins{
	"runner-test": func(writable bool) (*mcp.Server, error) {
		s := mcp.NewServer(&mcp.Implementation{Name: "runner-test", Version: "0.0.1"}, nil)
		mcp.AddTool(s, &mcp.Tool{Name: "get_total", Description: "the total", Annotations: readOnly},
			func(ctx context.Context, req *mcp.CallToolRequest, in totalIn) (*mcp.CallToolResult, totalOut, error) {
				return nil, totalOut{Total: 42}, nil
			})
		mcp.AddTool(s, &mcp.Tool{Name: "hang", Description: "never answers", Annotations: readOnly},
			func(ctx context.Context, req *mcp.CallToolRequest, in totalIn) (*mcp.CallToolResult, totalOut, error) {
				<-ctx.Done()
				return nil, totalOut{}, ctx.Err()
			})
		if writable {
			mcp.AddTool(s, &mcp.Tool{Name: "set_total", Description: "sets the total"},
				func(ctx context.Context, req *mcp.CallToolRequest, in totalOut) (*mcp.CallToolResult, totalOut, error) {
					return nil, in, nil
				})
		}
		return s, nil
	},
	"runner-test-terse": func(bool) (*mcp.Server, error) {
		s := mcp.NewServer(&mcp.Implementation{Name: "terse", Version: "1"}, nil)
		mcp.AddTool(s, &mcp.Tool{Name: "get_terse", Description: "the total, said tersely", Annotations: readOnly},
			func(ctx context.Context, req *mcp.CallToolRequest, in totalIn) (*mcp.CallToolResult, totalOut, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, totalOut{Total: 42}, nil
			})
		return s, nil
	},
	"runner-test-writable": func(bool) (*mcp.Server, error) {
		s := mcp.NewServer(&mcp.Implementation{Name: "w", Version: "1"}, nil)
		mcp.AddTool(s, &mcp.Tool{Name: "set_total", Description: "sets the total"},
			func(ctx context.Context, req *mcp.CallToolRequest, in totalOut) (*mcp.CallToolResult, totalOut, error) {
				return nil, in, nil
			})
		return s, nil
	},
}

// testTarget is the suite's own target, with the test servers to reach.
var testTarget = target.Config{Builtins: testBuiltins}

const testSuite = `name: runner-test
target: builtin:runner-test
system_prompt: Use the tools.
attempts: 2
preflight:
  - tool: get_total
    expect: {total: 42}
cases:
  - id: g/total
    prompt: What is the total?
    tools: {required: [get_total]}
    figures: [{value: 42, kind: count}]
    key:
      calls: [{tool: get_total, args: {months: 7}}]
      answer: The total is 42.
  - id: g/hang
    prompt: Hang, please.
    tools: {required: [hang]}
    key:
      calls: [{tool: hang}]
`

func loadSuite(t *testing.T, body string) *suite.Suite {
	t.Helper()
	s, err := loadSuiteB(body)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func loadSuiteB(body string) (*suite.Suite, error) {
	return suite.LoadFS(fstest.MapFS{"suite.yaml": {Data: []byte(body)}}, "suite.yaml", "test")
}

func clock() func() time.Time {
	var mu sync.Mutex
	t := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		t = t.Add(time.Millisecond)
		return t
	}
}

func TestRun(t *testing.T) {
	s := loadSuite(t, testSuite)
	m, _ := fake.New("perfect", s)
	dir := t.TempDir()
	var seen int
	rec, err := Run(context.Background(), Config{Target: testTarget,
		Suite: s, Model: m, ModelInfo: model.Info{Spec: "fake:perfect", Provider: "fake", Name: "perfect", Fake: true},
		OutDir: dir, Concurrency: 2, CallTimeout: 200 * time.Millisecond, Now: clock(), NewID: func() string { return "run-1" },
		Progress: func(p Progress) { seen++ },
	})
	if err != nil {
		t.Fatal(err)
	}
	if !rec.Complete() || len(rec.Attempts) != 4 || seen != 4 {
		t.Fatalf("complete %v attempts %d progress %d", rec.Complete(), len(rec.Attempts), seen)
	}
	h := rec.Header
	if h.RunID != "run-1" || !h.Preflight.Valid || len(h.Tools) != 2 || h.ToolsHash == "" || h.Target.Server.Name != "runner-test" || !h.Target.ReadOnly {
		t.Errorf("header %+v", h)
	}
	if len(h.Planned) != 4 {
		t.Errorf("planned %v", h.Planned)
	}
	for _, a := range rec.Attempts {
		switch a.Case {
		case "g/total":
			calls := a.Calls()
			if a.End != record.EndAnswered || a.Answer != "The total is 42." || len(calls) != 1 {
				t.Errorf("total attempt %+v", a)
				continue
			}
			if calls[0].Name != "get_total" || string(calls[0].Args) != `{"months":7}` || !strings.Contains(string(calls[0].Structured), `"total":42`) || !calls[0].Shown {
				t.Errorf("call %+v", calls[0])
			}
		case "g/hang":
			if a.End != record.EndError || a.Error.Kind != record.KindTimeout {
				t.Errorf("hang attempt ended %s %+v, want a timeout error", a.End, a.Error)
			}
		}
	}
	// The same tools hash the same.
	if ToolsHash(h.Tools) != h.ToolsHash {
		t.Error("tools hash is not stable")
	}
}

func TestPreflightDriftMakesRunInvalid(t *testing.T) {
	s := loadSuite(t, strings.Replace(testSuite, "expect: {total: 42}", "expect: {total: 43}", 1))
	m, _ := fake.New("perfect", s)
	counting := &countingModel{m: m}
	rec, err := Run(context.Background(), Config{Target: testTarget, Suite: s, Model: counting, OutDir: t.TempDir()})
	if err == nil || rec == nil || rec.Header.Preflight.Valid || len(rec.Attempts) != 0 {
		t.Fatalf("err %v rec %+v", err, rec)
	}
	if counting.n != 0 {
		t.Errorf("the model was asked %d times on an invalid run", counting.n)
	}
	if p := rec.Header.Preflight.Checks[0].Problems; len(p) != 1 || !strings.Contains(p[0], "total: expected 43, found 42") {
		t.Errorf("problems %q", p)
	}
}

func TestReadOnlyRunRefusesWriteTools(t *testing.T) {
	s := loadSuite(t, "name: w\ntarget: builtin:runner-test-writable\ncases:\n  - id: a/b\n    prompt: p\n    decline: true\n")
	m, _ := fake.New("perfect", s)
	counting := &countingModel{m: m}
	_, err := Run(context.Background(), Config{Target: testTarget, Suite: s, Model: counting, OutDir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "not marked read-only: set_total") {
		t.Fatalf("err %v", err)
	}
	if counting.n != 0 {
		t.Errorf("the model was asked %d times", counting.n)
	}
}

func TestUnshownToolAndMalformedArgs(t *testing.T) {
	s := loadSuite(t, testSuite)
	m := &scripted{turns: []model.Message{
		{Blocks: []model.Block{{Kind: model.ToolUse, Call: &model.Call{ID: "1", Name: "set_total", Args: []byte(`{}`)}}}},
		{Blocks: []model.Block{{Kind: model.ToolUse, Call: &model.Call{ID: "2", Name: "get_total", Args: []byte(`{"months": 7`)}}}},
		{Blocks: []model.Block{{Kind: model.ToolUse, Call: &model.Call{ID: "3", Name: "get_total", Args: []byte(`{"months": "many"}`)}}}},
		{Blocks: []model.Block{{Kind: model.Text, Text: "done"}}},
	}}
	rec, err := Run(context.Background(), Config{Target: testTarget, Suite: s, Model: m, OutDir: t.TempDir(), Attempts: 1, Concurrency: 1, Cases: []string{"g/total"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Attempts) != 1 {
		t.Fatalf("attempts %+v end %+v", rec.Attempts, rec.End)
	}
	calls := rec.Attempts[0].Calls()
	if len(calls) != 3 {
		t.Fatalf("calls %+v", calls)
	}
	if calls[0].Shown || calls[0].Rejected == "" {
		t.Errorf("unshown tool call %+v", calls[0])
	}
	if calls[1].Rejected == "" || string(calls[1].Args) != `"{\"months\": 7"` {
		t.Errorf("malformed call %+v", calls[1])
	}
	if !(calls[2].IsError || calls[2].Rejected != "") {
		t.Errorf("schema-violating call was accepted: %+v", calls[2])
	}
	if rec.Header.Filter == "" {
		t.Error("a filtered run does not say so")
	}
}

func TestTurnCap(t *testing.T) {
	s := loadSuite(t, testSuite)
	loop := model.Message{Blocks: []model.Block{{Kind: model.ToolUse, Call: &model.Call{ID: "1", Name: "get_total", Args: []byte(`{}`)}}}}
	m := &scripted{turns: []model.Message{loop, loop, loop, loop, loop}}
	rec, err := Run(context.Background(), Config{Target: testTarget, Suite: s, Model: m, OutDir: t.TempDir(), Attempts: 1, TurnCap: 3, Cases: []string{"g/total"}})
	if err != nil {
		t.Fatal(err)
	}
	if a := rec.Attempts[0]; a.End != record.EndTurnCap || len(a.Turns) != 3 {
		t.Errorf("end %s turns %d", a.End, len(a.Turns))
	}
}

func TestProviderErrorIsAnAttemptError(t *testing.T) {
	s := loadSuite(t, testSuite)
	m := failing{}
	rec, err := Run(context.Background(), Config{Target: testTarget, Suite: s, Model: m, OutDir: t.TempDir(), Attempts: 1, Cases: []string{"g/total"}})
	if err != nil {
		t.Fatal(err)
	}
	a := rec.Attempts[0]
	if a.End != record.EndError || a.Error.Kind != record.KindProvider || len(a.Turns) != 1 || len(a.Turns[0].Tries) != 2 {
		t.Errorf("attempt %+v", a)
	}
}

func TestBudgetStopsCleanly(t *testing.T) {
	s := loadSuite(t, testSuite)
	m, _ := fake.New("perfect", s)
	n := 0
	rec, err := Run(context.Background(), Config{Target: testTarget, Suite: s, Model: m, OutDir: t.TempDir(), Concurrency: 1, Cases: []string{"g/total"},
		BeforeAttempt: func() string {
			n++
			if n > 1 {
				return "budget"
			}
			return ""
		}})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Complete() || rec.End.Reason != "budget" || rec.End.Skipped["budget"] != 1 || len(rec.Attempts) != 1 {
		t.Errorf("end %+v attempts %d", rec.End, len(rec.Attempts))
	}
}

type countingModel struct {
	m model.Model
	n int
}

func (c *countingModel) Generate(ctx context.Context, r *model.Request) (*model.Response, error) {
	c.n++
	return c.m.Generate(ctx, r)
}

type scripted struct{ turns []model.Message }

func (s *scripted) Generate(ctx context.Context, r *model.Request) (*model.Response, error) {
	return &model.Response{Message: s.turns[fake.Turns(r)]}, nil
}

type failing struct{}

func (failing) Generate(context.Context, *model.Request) (*model.Response, error) {
	return nil, &model.ProviderError{Tries: []model.Try{{Status: 529, Error: "overloaded"}, {Status: 529, Error: "overloaded"}}, Err: context.DeadlineExceeded}
}

func TestResume(t *testing.T) {
	s := loadSuite(t, testSuite)
	m, _ := fake.New("perfect", s)
	info := model.Info{Spec: "fake:perfect"}
	dir := t.TempDir()
	n := 0
	rec, err := Run(context.Background(), Config{Target: testTarget, Suite: s, Model: m, ModelInfo: info, OutDir: dir, Concurrency: 1, CallTimeout: 100 * time.Millisecond,
		BeforeAttempt: func() string {
			if n++; n > 2 {
				return "budget"
			}
			return ""
		}})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Complete() || len(rec.Attempts) != 2 {
		t.Fatalf("first leg: complete %v attempts %d", rec.Complete(), len(rec.Attempts))
	}
	// A different model is refused.
	if _, err := Run(context.Background(), Config{Target: testTarget, Suite: s, Model: m, ModelInfo: model.Info{Spec: "fake:refuse"}, Resume: rec}); err == nil || !strings.Contains(err.Error(), "the model or its options changed") {
		t.Errorf("resume with another model: %v", err)
	}
	// A changed suite is refused.
	s2 := loadSuite(t, strings.Replace(testSuite, "What is the total?", "What's the total?", 1))
	if _, err := Run(context.Background(), Config{Target: testTarget, Suite: s2, Model: m, ModelInfo: info, Resume: rec}); err == nil || !strings.Contains(err.Error(), "the suite changed") {
		t.Errorf("resume with another suite: %v", err)
	}
	rec2, err := Run(context.Background(), Config{Target: testTarget, Suite: s, Model: m, ModelInfo: info, Resume: rec, CallTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if !rec2.Complete() || len(rec2.Attempts) != 4 || len(rec2.Warnings) != 0 {
		t.Fatalf("resumed: complete %v attempts %d warnings %q", rec2.Complete(), len(rec2.Attempts), rec2.Warnings)
	}
	seen := map[record.Planned]bool{}
	for _, a := range rec2.Attempts {
		seen[record.Planned{Case: a.Case, N: a.N}] = true
	}
	for _, p := range rec2.Header.Planned {
		if !seen[p] {
			t.Errorf("planned attempt %v missing after resume", p)
		}
	}
}

func TestToolCallModeExecutesNothing(t *testing.T) {
	body := testSuite + `  - id: pr/total
    mode: tool-call
    prompt: What is the total over seven months?
    expect_tools: [get_total]
    expect_args: {months: 7}
    key:
      calls: [{tool: hang, args: {months: 7}}]
`
	s := loadSuite(t, body)
	m, _ := fake.New("perfect", s)
	rec, err := Run(context.Background(), Config{Target: testTarget, Suite: s, Model: m, OutDir: t.TempDir(), Attempts: 1, Cases: []string{"pr/total"}, CallTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	a := rec.Attempts[0]
	calls := a.Calls()
	// The key calls "hang": had it been sent, the attempt would be a timeout.
	if a.End != record.EndToolCall || len(calls) != 1 || !calls[0].NotSent || calls[0].Name != "hang" || len(a.Turns) != 1 {
		t.Errorf("tool-call attempt %+v", a)
	}
}

func TestShardsCoverThePlanOnce(t *testing.T) {
	plan := make([]record.Planned, 23)
	for i := range plan {
		plan[i] = record.Planned{Case: "c", N: i}
	}
	seen := map[int]int{}
	for k := 1; k <= 4; k++ {
		for _, p := range ShardOf(plan, record.Shard{K: k, N: 4}) {
			seen[p.N]++
		}
	}
	for i := range plan {
		if seen[i] != 1 {
			t.Errorf("attempt %d is in %d shards", i, seen[i])
		}
	}
}

func TestOverlayRecordsBothVersions(t *testing.T) {
	s := loadSuite(t, testSuite)
	m, _ := fake.New("perfect", s)
	spy := &spyModel{Model: m}
	rec, err := Run(context.Background(), Config{Target: testTarget, Suite: s, Model: spy, OutDir: t.TempDir(), Attempts: 1, Cases: []string{"g/total"},
		Overlay: func(ts []record.Tool) ([]record.Tool, error) {
			out := append([]record.Tool(nil), ts...)
			out[0].Description = "the grand total, in dollars"
			return out, nil
		},
		OverlayInfo: &record.Overlay{Path: "o.yaml", Hash: "h"}})
	if err != nil {
		t.Fatal(err)
	}
	h := rec.Header
	if h.Tools[0].Description != "the grand total, in dollars" || h.ServerTools[0].Description != "the total" || h.ToolsHash == h.ServerToolsHash || h.Overlay == nil {
		t.Errorf("header tools %+v server tools %+v", h.Tools, h.ServerTools)
	}
	if shown := spy.last.Tools[0].Description; shown != "the grand total, in dollars" {
		t.Errorf("the model was shown %q", shown)
	}
}

// spyModel answers as the model it wraps and keeps the last request it
// was sent.
type spyModel struct {
	model.Model
	last model.Request
}

func (s *spyModel) Generate(ctx context.Context, r *model.Request) (*model.Response, error) {
	s.last = *r
	return s.Model.Generate(ctx, r)
}

func TestEmptyShardWritesACompleteRecord(t *testing.T) {
	s := loadSuite(t, testSuite)
	m, _ := fake.New("perfect", s)
	rec, err := Run(context.Background(), Config{Target: testTarget, Suite: s, Model: m, OutDir: t.TempDir(), Cases: []string{"g/total"}, Shard: &record.Shard{K: 3, N: 3}, Attempts: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !rec.Complete() || len(rec.Attempts) != 0 || rec.Header.Shard == nil {
		t.Errorf("empty shard: complete %v attempts %d shard %v", rec.Complete(), len(rec.Attempts), rec.Header.Shard)
	}
}

func TestToolResultsWithStructured(t *testing.T) {
	terse := "name: terse\ntarget: builtin:runner-test-terse\nattempts: 2\ncases:\n" + `  - id: g/terse
    prompt: And tersely?
    tools: {required: [get_terse]}
    key:
      calls: [{tool: get_terse}]
      answer: 42.
`
	for _, tc := range []struct{ mode, want string }{
		{"text", "done"},
		{"text+structured", "done\n{\"total\":42}"},
	} {
		s := loadSuite(t, strings.Replace(terse, "attempts: 2\n", "attempts: 1\ntool_results: "+tc.mode+"\n", 1))
		m, _ := fake.New("perfect", s)
		spy := &spyModel{Model: m}
		rec, err := Run(context.Background(), Config{Target: testTarget, Suite: s, Model: spy, OutDir: t.TempDir(), Cases: []string{"g/terse"}})
		if err != nil {
			t.Fatal(err)
		}
		shown := ""
		for _, msg := range spy.last.Messages {
			for _, b := range msg.Blocks {
				if b.Result != nil {
					shown = b.Result.Content
				}
			}
		}
		if shown != tc.want {
			t.Errorf("tool_results %s: the model was shown %q, want %q", tc.mode, shown, tc.want)
		}
		if c := rec.Attempts[0].Calls()[0]; c.Result != tc.want || string(c.Structured) != `{"total":42}` {
			t.Errorf("tool_results %s: recorded %q / %s", tc.mode, c.Result, c.Structured)
		}
	}
}

func TestCheckExpectShowsNumbersInFull(t *testing.T) {
	got := CheckExpect(map[string]any{"net_worth_sgd": 2394755.0, "list": []any{map[string]any{"units": 450.0}}},
		map[string]any{"net_worth_sgd": 2394900, "list.0.units": 450, "missing": 1})
	want := []string{"missing: not in the result", "net_worth_sgd: expected 2394900, found 2394755"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("CheckExpect = %q, want %q", got, want)
	}
}

// envServerToken is what TestHelperEnvServer must find in its environment
// to serve.
const envServerToken = "tok-env-4711"

// TestHelperEnvServer is not a test of its own: started as a stdio server
// by TestRunStartsTheSuiteServerWithItsEnv, it serves the fault server's
// tools when the suite's env reached it, and otherwise exits at once,
// which no MCP client can connect to.
func TestHelperEnvServer(t *testing.T) {
	if os.Getenv("MCPEVAL_TEST_SERVER_TOKEN") != envServerToken {
		return
	}
	os.Exit(faultserver.Main(nil, os.Stdin, os.Stdout, os.Stderr))
}

// TestRunStartsTheSuiteServerWithItsEnv: a library call of Run with no
// Config.Target runs the suite's own stdio target with the suite's env
// (${VAR} taken from the environment), as the CLI does: a server that
// needs a token gets it.
func TestRunStartsTheSuiteServerWithItsEnv(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	spec, _ := json.Marshal("stdio:'" + strings.ReplaceAll(exe, "'", `'\''`) + "' -test.run=^TestHelperEnvServer$")
	t.Setenv("RUNNER_TEST_SERVER_TOKEN", envServerToken)
	s := loadSuite(t, "target:\n  spec: "+string(spec)+"\n  env: {MCPEVAL_TEST_SERVER_TOKEN: \"${RUNNER_TEST_SERVER_TOKEN}\"}\n"+faultSuite)
	m, _ := fake.New("perfect", s)
	rec, err := Run(context.Background(), Config{
		Suite: s, Model: m, ModelInfo: model.Info{Spec: "fake:perfect", Fake: true},
		Attempts: 1, OutDir: t.TempDir(),
	})
	if err != nil {
		t.Fatalf("running the suite's own stdio target: %v", err)
	}
	if len(rec.Attempts) != 1 || rec.Attempts[0].Answer != "The total is 42." {
		t.Fatalf("attempts %+v, want one answered from the server's get_total", rec.Attempts)
	}
	if rec.Header.Target.Spec == "" || strings.Contains(string(mustJSON(t, rec.Header)), envServerToken) {
		t.Errorf("the record's header names no target, or holds the token: %s", mustJSON(t, rec.Header.Target))
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
