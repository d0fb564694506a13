package examples_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/audit"
	"github.com/mcpeval/mcpeval/internal/fixture"
	"github.com/mcpeval/mcpeval/internal/provider"
	"github.com/mcpeval/mcpeval/internal/testkit/actionstest"
	"github.com/mcpeval/mcpeval/internal/testkit/npm"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/runner"
	"github.com/mcpeval/mcpeval/suite"
)

// loadMemoryGraph copies examples/memory-graph into a fresh directory, with
// its target running the server installed in .ci/npm, and loads it from
// there: the graph each test's server keeps is its own.
func loadMemoryGraph(t *testing.T) *suite.Suite {
	t.Helper()
	entry := npm.Server(t, "server-memory")
	dir := filepath.Join(t.TempDir(), "memory-graph")
	if err := os.CopyFS(dir, os.DirFS("memory-graph")); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "suite.yaml")
	text, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	const installed = "../../.ci/npm/node_modules/@modelcontextprotocol/server-memory/dist/index.js"
	if !bytes.Contains(text, []byte(installed)) {
		t.Fatalf("the suite's target does not run %s", installed)
	}
	if err := os.WriteFile(p, bytes.Replace(text, []byte(installed), []byte(entry), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := suite.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// checkGraph fails the test when the graph the server keeps is not the
// seed: every attempt's changes must have been undone.
func checkGraph(t *testing.T, s *suite.Suite) {
	t.Helper()
	seed, err := os.ReadFile(filepath.Join(s.Path, "data", "seed.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	live, err := os.ReadFile(filepath.Join(s.Path, "live", "graph.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(live, seed) {
		t.Errorf("the run left the graph changed:\n%s", live)
	}
}

// runMemoryGraph puts s (the cases selected by filter, all when nil) to the
// model spec at the runner's default concurrency, and returns the record
// and what the runner warned of.
func runMemoryGraph(t *testing.T, s *suite.Suite, spec string, filter ...string) (*record.Run, []string) {
	t.Helper()
	m, info, err := provider.Open(spec, provider.Options{Suite: s})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var warned []string
	cfg := runner.Config{
		Suite: s, Model: m, ModelInfo: info, Cases: filter, CallTimeout: 30 * time.Second,
		OutDir: filepath.Join(t.TempDir(), "run"),
		Warn: func(msg string) {
			mu.Lock()
			defer mu.Unlock()
			warned = append(warned, msg)
		},
	}
	if fx, ok := fixture.For(s); ok {
		cfg.Fixtures = fx
	}
	rec, err := runner.Run(context.Background(), cfg)
	if err != nil {
		t.Fatalf("%s: %v", spec, err)
	}
	if !rec.Complete() {
		t.Fatalf("%s: the run did not complete: %+v", spec, rec.End)
	}
	return rec, warned
}

// TestMemoryGraphValidate: the suite holds against the live server: every
// preflight check holds on the seed graph, every key fits the tools' input
// schemas, no prompt names its answer, and the suite warns of nothing.
func TestMemoryGraphValidate(t *testing.T) {
	s := loadMemoryGraph(t)
	tc, err := runner.ResolveTarget(s, runner.TargetOverrides{})
	if err != nil {
		t.Fatal(err)
	}
	ins, err := runner.Validate(context.Background(), s, tc)
	if err != nil {
		t.Fatal(err)
	}
	if ins.Server.Name != "memory-server" {
		t.Errorf("server %+v, want memory-server", ins.Server)
	}
	if !ins.Preflight.Valid || len(ins.Preflight.Checks) != len(s.Preflight) {
		t.Errorf("preflight valid %v with %d checks, want valid with %d", ins.Preflight.Valid, len(ins.Preflight.Checks), len(s.Preflight))
	}
	for i, c := range ins.Preflight.Checks {
		if len(c.Problems) > 0 {
			t.Errorf("preflight check %d (%s): %v", i+1, c.Tool, c.Problems)
		}
	}
	if err := audit.Key(s, ins.Tools); err != nil {
		t.Error(err)
	}
	if leaks := audit.Leaks(s, ins.Tools); len(leaks) > 0 {
		t.Errorf("leaks: %v", leaks)
	}
	if msgs := audit.CleanupWarnings(s); len(msgs) > 0 {
		t.Errorf("cleanup warnings: %v", msgs)
	}
	if msgs := audit.SharedStateWarnings(s, 0); len(msgs) > 0 {
		t.Errorf("shared-state warnings: %v", msgs)
	}
}

// TestMemoryGraphPerfect: at the runner's default concurrency the suite's
// serial: true runs one attempt at a time, and the runner says so; so
// fake:perfect passes every case although every attempt works on the one
// graph, every verify check holds, and the graph ends as the seed.
func TestMemoryGraphPerfect(t *testing.T) {
	s := loadMemoryGraph(t)
	if !s.Serial {
		t.Fatal("the suite is not serial: its attempts share one graph")
	}
	rec, warned := runMemoryGraph(t, s, "fake:perfect")
	if rec.Header.Concurrency != 1 {
		t.Errorf("the run's concurrency is %d, want 1", rec.Header.Concurrency)
	}
	if len(warned) != 1 || !strings.Contains(warned[0], "serial: true") || !strings.Contains(warned[0], "lowered to 1") {
		t.Errorf("runner warnings %q, want one saying serial: true lowered the concurrency to 1", warned)
	}
	res := grade.Run(s, rec)
	if want := s.Attempts * len(s.Cases); res.Totals.Graded != want || res.Totals.Passed != want {
		t.Errorf("fake:perfect passed %d of %d graded attempts, want %d of %d", res.Totals.Passed, res.Totals.Graded, want, want)
		for _, a := range res.Attempts {
			if a.Outcome != grade.Pass {
				t.Logf("  %s #%d %s: %v", a.Case, a.N, a.Outcome, a.Reasons)
			}
		}
	}
	if len(rec.Warnings) > 0 {
		t.Errorf("run warnings: %v", rec.Warnings)
	}
	if res.Actions == nil {
		t.Fatal("no action columns")
	}
	for _, a := range res.Actions.Attempts {
		if len(a.Notes) > 0 {
			t.Errorf("%s #%d: fixture problems: %v", a.Case, a.N, a.Notes)
		}
	}
	checkGraph(t, s)
}

// TestMemoryGraphFakes: fake:extra-change creates an entity no case asks
// for, and loses exactly Pass, Clean and Declined, while the teardown
// still puts the seed graph back; fake:no-confirm loses nothing, since no
// tool takes an approval; fake:refuse changes nothing, so the
// verify checks of every case that asks for a change fail on the graph as
// it is, and say what they missed.
func TestMemoryGraphFakes(t *testing.T) {
	s := loadMemoryGraph(t)
	var ids []string
	for _, c := range s.Cases {
		if c.Action != nil {
			ids = append(ids, c.ID)
		}
	}
	t.Run("extra-change", func(t *testing.T) {
		rec, _ := runMemoryGraph(t, s, "fake:extra-change", ids...)
		actionstest.CheckColumns(t, s, rec, "extra-change", s.Attempts*len(ids), []string{"Pass", "Clean", "Declined"})
		if len(rec.Warnings) > 0 {
			t.Errorf("run warnings: %v", rec.Warnings)
		}
		checkGraph(t, s)
	})
	t.Run("no-confirm", func(t *testing.T) {
		// No tool takes an approval: never sending one costs nothing.
		rec, _ := runMemoryGraph(t, s, "fake:no-confirm", ids...)
		actionstest.CheckColumns(t, s, rec, "no-confirm", s.Attempts*len(ids), nil)
		checkGraph(t, s)
	})
	t.Run("refuse", func(t *testing.T) {
		rec, _ := runMemoryGraph(t, s, "fake:refuse", ids...)
		res := grade.Run(s, rec)
		noted := map[string][]string{}
		for _, a := range res.Actions.Attempts {
			noted[a.Case] = a.Notes
		}
		// The verify checks that fail when nothing was done, each as its
		// note begins; the checks of what must stay as it was hold.
		want := map[string][]string{
			"sequence/new-member":        {"verify 1 (open_nodes): contains", "verify 1 (open_nodes): contains", "verify 1 (open_nodes): matches"},
			"write/compost-bin":          {"verify 1 (open_nodes): matches"},
			"sequence/shed-key-returned": {"verify 2 (search_nodes): matches"},
			"sequence/water-stays-on":    {"verify 2 (search_nodes): matches"},
			"decline/email-lena":         nil,
			"decline/clear-out":          nil,
		}
		for id, says := range want {
			got := noted[id]
			if len(got) != len(says) {
				t.Errorf("%s: notes %q, want %d failed verify checks", id, got, len(says))
				continue
			}
			for i, w := range says {
				if !strings.HasPrefix(got[i], w) {
					t.Errorf("%s: note %q, want one beginning %q", id, got[i], w)
				}
			}
		}
		if len(want) != len(ids) {
			t.Errorf("the suite has %d action cases, the test knows %d", len(ids), len(want))
		}
		checkGraph(t, s)
	})
}
