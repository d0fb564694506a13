package runner_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"testing/fstest"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/builtin"
	"github.com/mcpeval/mcpeval/internal/fixture"
	"github.com/mcpeval/mcpeval/model/fake"
	"github.com/mcpeval/mcpeval/runner"
	"github.com/mcpeval/mcpeval/suite"
	"github.com/mcpeval/mcpeval/target"
)

// memoryServer returns the path of the go-sdk's example memory server,
// built once into the user's cache directory; the test is skipped, saying
// why, when go cannot build it.
func memoryServer(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and starts the go-sdk's memory example server")
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	bin := filepath.Join(dir, "mcpeval-test", "go-sdk-memory-v1.8.0")
	memoryOnce.Do(func() {
		if _, err := os.Stat(bin); err == nil {
			return
		}
		out, err := exec.Command("go", "build", "-o", bin, "github.com/modelcontextprotocol/go-sdk/examples/server/memory").CombinedOutput()
		if err != nil {
			memoryErr = fmt.Errorf("%v: %s", err, out)
		}
	})
	if memoryErr != nil {
		t.Skipf("go cannot build the go-sdk memory example server: %v", memoryErr)
	}
	return bin
}

var (
	memoryOnce sync.Once
	memoryErr  error
)

// twoServers is a suite across the embedded household server and the
// go-sdk memory example server, whose case needs both: read the net worth
// from the one, note it in the other.
const twoServers = `name: two-servers
targets:
  household: builtin:household
  memory:
    spec: stdio:%s -memory %s
allow_writes: true
tool_results: text+structured
read_only_tools: [memory/read_graph, memory/search_nodes, memory/open_nodes]
attempts: 2
cases:
  - id: notes/net-worth
    prompt: Look up our net worth and note it in my notes on a new entity household-{{token}} of type household.
    action:
      kind: write
      steps:
        - tool: household/get_net_worth
        - tool: memory/create_entities
          args:
            entities.0.name: {literal: "household-{{token}}"}
            entities.0.entityType: {literal: household}
            entities.0.observations: {authored: ["Net worth SGD 2,394,755"]}
      verify:
        - tool: memory/open_nodes
          args: {names: ["household-{{token}}"]}
          expect: {entities.0.entityType: household}
`

// TestSeveralServers runs one suite across the embedded household server
// and the go-sdk memory example server over stdio, with a case that reads
// a figure from the one and stores it in the other: fake:perfect passes
// every attempt, each call is recorded with the server that served it, and
// the memory server really holds the figure afterwards.
func TestSeveralServers(t *testing.T) {
	bin := memoryServer(t)
	graph := filepath.Join(t.TempDir(), "memory.json")
	s, err := suite.LoadFS(fstest.MapFS{"suite.yaml": {Data: []byte(fmt.Sprintf(twoServers, bin, graph))}}, "suite.yaml", "two-servers")
	if err != nil {
		t.Fatal(err)
	}
	m, err := fake.New("perfect", s)
	if err != nil {
		t.Fatal(err)
	}
	fx, _ := fixture.For(s)
	rec, err := runner.Run(context.Background(), runner.Config{Suite: s, Model: m, Fixtures: fx,
		Target: target.Config{Builtins: builtin.All()}, OutDir: t.TempDir(), Concurrency: 1})
	if err != nil {
		t.Fatal(err)
	}
	res := grade.Run(s, rec)
	if res.Totals.Passed != 2 || res.Totals.Graded != 2 {
		for _, a := range res.Attempts {
			t.Logf("%s #%d: %s %v", a.Case, a.N, a.Outcome, a.Reasons)
		}
		t.Fatalf("fake:perfect passed %d of %d graded attempts, want 2 of 2", res.Totals.Passed, res.Totals.Graded)
	}
	if r := res.Actions; r == nil || len(r.Models) == 0 || r.Models[0].Columns.Reached.Num != 4 {
		t.Errorf("action columns: %+v", r)
	}
	servers := map[string]string{}
	for _, tl := range rec.Header.Tools {
		servers[tl.Name] = tl.Server
	}
	if servers["get_net_worth"] != "household" || servers["create_entities"] != "memory" {
		t.Errorf("header tools' servers: %v", servers)
	}
	for _, a := range rec.Attempts {
		calls := a.Calls()
		if len(calls) != 2 || calls[0].Name != "get_net_worth" || calls[0].Server != "household" ||
			calls[1].Name != "create_entities" || calls[1].Server != "memory" || calls[1].IsError {
			t.Errorf("attempt %d calls: %+v", a.N, calls)
		}
		if a.Fixture == nil || len(a.Fixture.Verify) != 1 || len(a.Fixture.Problems) > 0 {
			t.Errorf("attempt %d verify: %+v", a.N, a.Fixture)
		}
	}
	if !strings.Contains(rec.Header.Target.Spec, "household=builtin:household") || !strings.Contains(rec.Header.Target.Spec, "memory=stdio:") {
		t.Errorf("header target %q", rec.Header.Target.Spec)
	}
	if rec.Header.Target.Server.Name != "" {
		t.Errorf("header names one server, %s, for two", rec.Header.Target.Server.Name)
	}
	if !strings.Contains(string(rec.Header.Extra[runner.ServersKey]), `{"name":"memory","target":"stdio:`) || strings.Count(string(rec.Header.Extra[runner.ServersKey]), `"server":{"name":`) != 2 {
		t.Errorf("header servers: %s", rec.Header.Extra[runner.ServersKey])
	}
	b, err := os.ReadFile(graph)
	if err != nil || !strings.Contains(string(b), "2,394,755") {
		t.Errorf("the memory server's graph holds %q (%v), want the net worth", b, err)
	}
}
