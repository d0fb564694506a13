package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/builtin"
	"github.com/mcpeval/mcpeval/internal/testkit/faultserver"
	"github.com/mcpeval/mcpeval/internal/testkit/mcphttp"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/fake"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
	"github.com/mcpeval/mcpeval/target"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// recordingModel remembers the tool names of every request it is sent.
type recordingModel struct {
	model.Model
	mu    sync.Mutex
	names [][]string
}

func (m *recordingModel) Generate(ctx context.Context, req *model.Request) (*model.Response, error) {
	m.mu.Lock()
	m.names = append(m.names, toolNames(req))
	m.mu.Unlock()
	return m.Model.Generate(ctx, req)
}

// toolNames are the names of the tools req offers the model.
func toolNames(req *model.Request) []string {
	var names []string
	for _, t := range req.Tools {
		names = append(names, t.Name)
	}
	return names
}

// target0 is the target of a test run that takes the suite's own: the
// embedded servers and the test servers.
func target0() (c target.Config) {
	c.Builtins = builtin.All()
	for k, v := range testBuiltins {
		c.Builtins[k] = v
	}
	for k, v := range twinBuiltins {
		c.Builtins[k] = v
	}
	return c
}

// twinBuiltins are two servers that both list get_total, each answering
// its own figure, and one tool only the second lists.
var twinBuiltins = map[string]func(bool) (*mcp.Server, error){
	"twin-a": twin("a", 1, false),
	"twin-b": twin("b", 2, true),
}

func twin(name string, total float64, extra bool) func(bool) (*mcp.Server, error) {
	return func(bool) (*mcp.Server, error) {
		s := mcp.NewServer(&mcp.Implementation{Name: "twin-" + name, Version: "1"}, nil)
		mcp.AddTool(s, &mcp.Tool{Name: "get_total", Description: "the total of " + name, Annotations: readOnly},
			func(ctx context.Context, req *mcp.CallToolRequest, in totalIn) (*mcp.CallToolResult, totalOut, error) {
				return nil, totalOut{Total: total}, nil
			})
		if extra {
			mcp.AddTool(s, &mcp.Tool{Name: "get_other", Description: "another figure", Annotations: readOnly},
				func(ctx context.Context, req *mcp.CallToolRequest, in totalIn) (*mcp.CallToolResult, totalOut, error) {
					return nil, totalOut{Total: 7}, nil
				})
		}
		return s, nil
	}
}

const twinSuite = `name: twins
targets:
  first: builtin:twin-a
  second: builtin:twin-b
attempts: 1
cases:
  - id: t/second
    prompt: What is the second total?
    tools: {required: [second/get_total], forbidden: [first/get_total]}
    figures: [{value: 2, kind: count}]
    key:
      calls: [{tool: second/get_total}]
      answer: The total is 2.
  - id: t/other
    prompt: What is the other figure?
    tools: {required: [get_other]}
    figures: [{value: 7, kind: count}]
    key:
      calls: [{tool: get_other}]
      answer: It is 7.
`

// TestSeveralServersCollide runs two servers that list one tool name: the
// model is shown it prefixed by each server, a call of one is routed to
// that server (whose figure comes back), and the suite's SERVER/TOOL names
// grade it; a tool only one server lists keeps its bare name.
func TestSeveralServersCollide(t *testing.T) {
	s := loadSuite(t, twinSuite)
	pm, _ := fake.New("perfect", s)
	m := &recordingModel{Model: pm}
	rec, err := Run(context.Background(), Config{Suite: s, Model: m, Target: target0(), OutDir: t.TempDir(), Concurrency: 1})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"first__get_total", "get_other", "second__get_total"} // by server, then as each lists them
	for _, names := range m.names {
		if strings.Join(names, ",") != strings.Join(want, ",") {
			t.Errorf("model shown %v, want %v in the servers' order", names, want)
		}
	}
	for _, tl := range rec.Header.Tools {
		if tl.Name == "second__get_total" && (tl.Server != "second" || tl.ServerTool != "get_total") {
			t.Errorf("header tool %+v", tl)
		}
	}
	byCase := map[string]record.Call{}
	for _, a := range rec.Attempts {
		byCase[a.Case] = a.Calls()[0]
	}
	if c := byCase["t/second"]; c.Name != "second__get_total" || c.Server != "second" || !strings.Contains(c.Result, `"total":2`) {
		t.Errorf("t/second call: %+v", c)
	}
	if c := byCase["t/other"]; c.Name != "get_other" || c.Server != "second" {
		t.Errorf("t/other call: %+v", c)
	}
	res := grade.Run(s, rec)
	if res.Totals.Passed != 2 {
		for _, a := range res.Attempts {
			t.Logf("%s: %s %v", a.Case, a.Outcome, a.Reasons)
		}
		t.Fatalf("passed %d of 2", res.Totals.Passed)
	}

	// A model that calls the other server's twin fails the case: the
	// forbidden first/get_total is that server's tool, not the name.
	wrong := *rec
	wrong.Attempts = append([]record.Attempt(nil), rec.Attempts...)
	for i, a := range wrong.Attempts {
		if a.Case == "t/second" {
			a.Turns = append([]record.Turn(nil), a.Turns...)
			a.Turns[0].Calls = []record.Call{{ID: "x", Name: "first__get_total", Server: "first", Shown: true, Args: []byte(`{}`), Result: `{"total":1}`}}
			wrong.Attempts[i] = a
		}
	}
	if g := grade.Run(s, &wrong); g.Totals.Passed != 1 {
		t.Errorf("calling the first server's get_total passed: %d of 2 passed", g.Totals.Passed)
	}
}

// TestSeveralServersAmbiguousName stops a run before any model request
// when the suite names by its bare name a tool two servers list, saying
// where and how to write it.
func TestSeveralServersAmbiguousName(t *testing.T) {
	s := loadSuite(t, strings.Replace(twinSuite, "required: [second/get_total]", "required: [get_total]", 1))
	counting := &countingModel{}
	_, err := Run(context.Background(), Config{Suite: s, Model: counting, Target: target0(), OutDir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "test:7: tool get_total is served by first and second: write which, as first/get_total or second/get_total") {
		t.Fatalf("err = %v", err)
	}
	if counting.n != 0 {
		t.Errorf("%d model requests before the refusal", counting.n)
	}
}

// TestSeveralServersCrash runs beside an in-process server a stdio server
// that crashes on its second tool call: that attempt is a target error
// naming the server, with its last stderr lines marked by its name, and
// the next attempt connects to both servers anew and answers. It runs
// with attempts sharing connections and with a fresh target for each.
func TestSeveralServersCrash(t *testing.T) {
	ft := faultserver.Target("-crash-on", "2")
	spec, _ := json.Marshal(ft.Spec)
	body := `name: crash
targets:
  steady: builtin:twin-a
  shaky:
    spec: ` + string(spec) + `
    env: {` + faultserver.EnvVar + `: "1"}
attempts: 3
cases:
  - id: g/total
    prompt: What is the total?
    tools: {required: [shaky/get_total]}
    figures: [{value: 42, kind: count}]
    key:
      calls: [{tool: shaky/get_total}]
      answer: The total is 42.
`
	for _, fresh := range []bool{false, true} {
		t.Run(fmt.Sprintf("fresh=%v", fresh), func(t *testing.T) {
			s := loadSuite(t, body)
			m, _ := fake.New("perfect", s)
			rec, err := Run(context.Background(), Config{Suite: s, Model: m, Target: target0(), OutDir: t.TempDir(), Concurrency: 1, FreshTarget: fresh})
			if err != nil {
				t.Fatal(err)
			}
			as := byN(t, rec)
			wantAnswered(t, as, 1)
			if fresh {
				wantAnswered(t, as, 2, 3) // every attempt a new process: none makes a second call
				return
			}
			wantAnswered(t, as, 3)
			a := as[2]
			wantError(t, a, record.KindTarget, "calling tool shaky__get_total: server shaky: ")
			if a.Error == nil || !stderrHas(a.Error.Stderr, "shaky: faultserver: crashing on tool call 2") {
				t.Errorf("attempt 2's stderr %q, want the shaky server's last lines marked with its name", a.Error.Stderr)
			}
		})
	}
}

// TestSeveralServersForms names its servers in the forms target: takes:
// the household server over streamable HTTP behind a bearer token given as
// a ${VAR} header, and a stdio server read from an mcp.json beside the
// suite. A case that needs both passes under fake:perfect, and the record
// holds neither the token nor the endpoint.
func TestSeveralServersForms(t *testing.T) {
	const token = "tok-PLANTED-several"
	t.Setenv("SEVERAL_TEST_TOKEN", token)
	srv, err := target0().Builtins.Server("household", false)
	if err != nil {
		t.Fatal(err)
	}
	ts := mcphttp.BehindToken(t, srv, token)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cmdJSON, _ := json.Marshal(exe)
	mcpJSON := `{"mcpServers": {"faults": {"command": ` + string(cmdJSON) + `, "env": {"` + faultserver.EnvVar + `": "1"}}}}`
	if err := os.WriteFile(filepath.Join(dir, "mcp.json"), []byte(mcpJSON), 0o644); err != nil {
		t.Fatal(err)
	}
	body := `name: forms
targets:
  remote:
    spec: ` + ts.URL + `/mcp
    headers: {Authorization: "Bearer ${SEVERAL_TEST_TOKEN}"}
  local: {from: mcp.json, name: faults}
attempts: 1
cases:
  - id: g/both
    prompt: What is our net worth, and what is the total?
    tools: {required: [remote/get_net_worth, local/get_total]}
    figures: [{value: 2394755, kind: money, currency: SGD}, {value: 42, kind: count}]
    key:
      calls: [{tool: remote/get_net_worth}, {tool: local/get_total}]
      answer: Your net worth is SGD 2,394,755 and the total is 42.
`
	path := filepath.Join(dir, "suite.yaml")
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := suite.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := fake.New("perfect", s)
	out := t.TempDir()
	rec, err := Run(context.Background(), Config{Suite: s, Model: m, Target: target0(), OutDir: out})
	if err != nil {
		t.Fatal(err)
	}
	if res := grade.Run(s, rec); res.Totals.Passed != 1 {
		t.Fatalf("passed %d of 1: %+v", res.Totals.Passed, res.Attempts)
	}
	var servers []string
	for _, c := range rec.Attempts[0].Calls() {
		servers = append(servers, c.Server)
	}
	if strings.Join(servers, ",") != "remote,local" {
		t.Errorf("calls served by %v", servers)
	}
	if want := "servers: local=stdio:"; !strings.HasPrefix(rec.Header.Target.Spec, want) || !strings.HasSuffix(rec.Header.Target.Spec, "; remote=http://[endpoint]") {
		t.Errorf("header target %q", rec.Header.Target.Spec)
	}
	b, err := os.ReadFile(filepath.Join(out, "record.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	host := strings.TrimPrefix(ts.URL, "http://")
	if strings.Contains(string(b), "PLANTED") || strings.Contains(string(b), host) {
		t.Errorf("the record holds the token or the endpoint %s", host)
	}
}

// TestSeveralServersNameClash stops before any model request when a
// server lists, under its own name, the name another server's tool is
// prefixed to: the model cannot be shown two tools by one name.
func TestSeveralServersNameClash(t *testing.T) {
	tc := target0()
	tc.Builtins["clash"] = func(bool) (*mcp.Server, error) {
		s := mcp.NewServer(&mcp.Implementation{Name: "clash", Version: "1"}, nil)
		mcp.AddTool(s, &mcp.Tool{Name: "second__get_total", Description: "a name of its own", Annotations: readOnly},
			func(ctx context.Context, req *mcp.CallToolRequest, in totalIn) (*mcp.CallToolResult, totalOut, error) {
				return nil, totalOut{}, nil
			})
		return s, nil
	}
	s := loadSuite(t, strings.Replace(twinSuite, "  second: builtin:twin-b\n", "  second: builtin:twin-b\n  third: builtin:clash\n", 1))
	counting := &countingModel{}
	_, err := Run(context.Background(), Config{Suite: s, Model: counting, Target: tc, OutDir: t.TempDir()})
	if !errors.Is(err, ErrDuplicateTool) || !strings.Contains(err.Error(), `"second__get_total"`) {
		t.Fatalf("err = %v, want a duplicate tool name", err)
	}
	if counting.n != 0 {
		t.Errorf("%d model requests", counting.n)
	}
}
