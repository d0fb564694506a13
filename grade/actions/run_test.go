package actions_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpeval/mcpeval/grade/actions"
	"github.com/mcpeval/mcpeval/internal/builtin"
	"github.com/mcpeval/mcpeval/internal/builtin/ops"
	"github.com/mcpeval/mcpeval/internal/fixture"
	"github.com/mcpeval/mcpeval/internal/testkit/actionstest"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/fake"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/runner"
	"github.com/mcpeval/mcpeval/suite"
	"github.com/mcpeval/mcpeval/target"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The columns each fake loses, by target: every other column must be full.
// The memory server asks no approval, so not sending it costs nothing
// there, and no step of its corpus is destructive.
var (
	opsLoses    = actionstest.OpsLoses
	memoryLoses = map[string][]string{
		"perfect":      nil,
		"wrong-args":   {"Pass", "Arguments"},
		"no-confirm":   nil,
		"declines":     {"Pass", "Reached"},
		"extra-change": {"Pass", "Clean", "Declined"},
		"gives-up":     {"Pass", "Reached"},
		// No case of the memory corpus asks the user anything.
		"acts-first":     nil,
		"ignores-answer": nil,
		"asks-forever":   nil,
	}
)

// run puts suite s to fake model name over tcfg through the runner, with
// the suite's fixtures, attempts times per case.
func run(t *testing.T, s *suite.Suite, tcfg target.Config, name string, attempts, concurrency int) *record.Run {
	t.Helper()
	m, err := fake.New(name, s)
	if err != nil {
		t.Fatal(err)
	}
	fx, ok := fixture.For(s)
	if !ok {
		t.Fatalf("suite %s has no action cases", s.Name)
	}
	rec, err := runner.Run(context.Background(), runner.Config{
		Suite: s, Target: tcfg, Model: m,
		ModelInfo: model.Info{Spec: "fake:" + name, Provider: "fake", Name: name, Fake: true},
		Attempts:  attempts, Concurrency: concurrency, OutDir: filepath.Join(t.TempDir(), name),
		Fixtures: fx, FreshTarget: s.FreshTarget, CallTimeout: 30 * time.Second,
	})
	if err != nil {
		t.Fatalf("fake:%s: %v", name, err)
	}
	if !rec.Complete() {
		t.Fatalf("fake:%s: the run did not complete: %+v", name, rec.End)
	}
	return rec
}

// checkColumns checks that a fake's run of every case, attempts times
// each, lost exactly the columns listed, and that nothing was excluded.
func checkColumns(t *testing.T, s *suite.Suite, rec *record.Run, name string, attempts int, loses []string) *actions.Report {
	t.Helper()
	return actionstest.CheckColumns(t, s, rec, name, attempts*len(s.Cases), loses)
}

// attemptsOf is how many attempts a fake gets: fake:perfect must score full
// marks over three; the variants are deterministic, one shows their
// columns.
func attemptsOf(name string) int {
	if name == "perfect" {
		return 3
	}
	return 1
}

func fakeNames() []string {
	var names []string
	for n := range opsLoses {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// TestOpsColumns runs the ops corpus on builtin:ops with fake:perfect,
// which must score every column in full, and with each fake variant, which
// must lose points in exactly its columns.
func TestOpsColumns(t *testing.T) {
	s, err := builtin.LoadSuite("ops")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range fakeNames() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			n := attemptsOf(name)
			rec := run(t, s, target.Config{Spec: s.Target.Spec, Builtins: builtin.All()}, name, n, 2)
			rep := checkColumns(t, s, rec, name, n, opsLoses[name])
			if name == "perfect" {
				checkUserTurns(t, s, rec)
				for _, a := range rep.Attempts {
					if len(a.Notes) > 0 {
						t.Errorf("%s #%d: fixture problems: %v", a.Case, a.N, a.Notes)
					}
				}
			}
		})
	}
}

// checkUserTurns checks that every attempt of a case with turns had its
// user speak, with {{token}} and facts rendered as in the prompt.
func checkUserTurns(t *testing.T, s *suite.Suite, rec *record.Run) {
	t.Helper()
	spoke := 0
	for _, a := range rec.Attempts {
		if len(s.Case(a.Case).Turns) == 0 {
			continue
		}
		for _, tr := range a.Turns {
			if u := tr.User; u != nil {
				spoke++
				if strings.Contains(u.Text, "{{") || a.Fixture == nil || !strings.Contains(u.Text, a.Fixture.Facts["container"]) {
					t.Errorf("%s #%d: the user said %q: want the fact rendered", a.Case, a.N, u.Text)
				}
			}
		}
	}
	if spoke == 0 {
		t.Error("no user spoke in any attempt")
	}
}

var sharedOps struct {
	sync.Mutex
	st *ops.State
}

// opsShared is a builtin whose connections all share one host, so that
// the state after a run can be compared with the state before it.
var opsShared = target.Builtins{"ops-shared": func(bool) (*mcp.Server, error) {
	sharedOps.Lock()
	defer sharedOps.Unlock()
	return ops.NewServer(sharedOps.st), nil
}}

// TestOpsTeardown runs the ops corpus on one shared host with the fakes
// that change most (the right changes, the wrong ones, and changes nobody
// asked for): afterwards the host must hold exactly what it held before,
// and no attempt may note a teardown problem.
func TestOpsTeardown(t *testing.T) {
	s, err := builtin.LoadSuite("ops")
	if err != nil {
		t.Fatal(err)
	}
	st, err := ops.Seed()
	if err != nil {
		t.Fatal(err)
	}
	sharedOps.Lock()
	sharedOps.st = st
	sharedOps.Unlock()
	before := st.Snapshot()
	for _, name := range []string{"perfect", "wrong-args", "extra-change"} {
		rec := run(t, s, target.Config{Spec: "builtin:ops-shared", Builtins: opsShared}, name, 1, 1)
		for _, a := range rec.Attempts {
			if a.Fixture == nil {
				t.Errorf("fake:%s %s #%d: no fixture record", name, a.Case, a.N)
				continue
			}
			for _, p := range a.Fixture.Problems {
				if strings.Contains(p, "teardown") || strings.Contains(p, "removing") {
					t.Errorf("fake:%s %s #%d: %s", name, a.Case, a.N, p)
				}
			}
		}
		if diff := cmp.Diff(before, st.Snapshot()); diff != "" {
			t.Fatalf("after fake:%s the host is not as it was (-before +after):\n%s", name, diff)
		}
	}
}

// memoryTarget is the memory suite's target with its graph kept in file.
func memoryTarget(s *suite.Suite, file string) target.Config {
	return target.Config{Spec: s.Target.Spec, Env: map[string]string{"MEMORY_FILE": file}}
}

// readGraph reads the memory server's whole graph, through its own tool.
func readGraph(t *testing.T, tcfg target.Config) any {
	t.Helper()
	conn, err := target.Dial(context.Background(), tcfg)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	res, err := conn.Session.CallTool(context.Background(), &mcp.CallToolParams{Name: "read_graph", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("read_graph: %v %+v", err, res)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var g struct {
		Entities []struct {
			Name         string   `json:"name"`
			EntityType   string   `json:"entityType"`
			Observations []string `json:"observations"`
		} `json:"entities"`
		Relations []map[string]string `json:"relations"`
	}
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatalf("read_graph: %v", err)
	}
	// The server writes an empty list of observations as null once it has
	// saved the graph: the same graph.
	for i := range g.Entities {
		if g.Entities[i].Observations == nil {
			g.Entities[i].Observations = []string{}
		}
	}
	return g
}

// TestMemoryServer runs the memory corpus on the go-sdk example memory
// server, as it ships: fake:perfect must score every column in full, each
// variant must lose exactly its columns, and the graph it started with must
// be there, unchanged, after every run. The server is built by go run,
// which downloads it on first use.
func TestMemoryServer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the go-sdk memory server (go run ...@v1.8.0)")
	}
	s, err := builtin.LoadSuite("memory")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "memory.json")
	seed := `[{"type":"entity","name":"Existing Person","entityType":"person","observations":["Was here before the run"]},` +
		`{"type":"entity","name":"Existing Org","entityType":"organisation","observations":[]},` +
		`{"type":"relation","from":"Existing Person","to":"Existing Org","relationType":"works_for"}]`
	if err := os.WriteFile(file, []byte(seed), 0o600); err != nil {
		t.Fatal(err)
	}
	tcfg := memoryTarget(s, file)
	before := readGraph(t, tcfg)
	if !strings.Contains(fmt.Sprint(before), "Existing Person") {
		t.Fatalf("the seeded graph is not there: %v", before)
	}
	for _, name := range fakeNames() {
		// One server process per run, reading and writing one file, so the
		// attempts run one at a time.
		n := attemptsOf(name)
		rec := run(t, s, tcfg, name, n, 1)
		rep := checkColumns(t, s, rec, name, n, memoryLoses[name])
		if name == "perfect" {
			for _, a := range rep.Attempts {
				if len(a.Notes) > 0 {
					t.Errorf("%s #%d: fixture problems: %v", a.Case, a.N, a.Notes)
				}
			}
		}
		if after := readGraph(t, tcfg); !reflect.DeepEqual(before, after) {
			t.Fatalf("after fake:%s the graph is not as it was:\nbefore %v\nafter  %v", name, before, after)
		}
	}
}
