package ops_test

import (
	"context"
	"maps"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mcpeval/mcpeval/internal/builtin"
	"github.com/mcpeval/mcpeval/internal/pipeline"
	"github.com/mcpeval/mcpeval/internal/testkit/actionstest"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/fake"
	"github.com/mcpeval/mcpeval/runner"
	"github.com/mcpeval/mcpeval/target"
)

// runOnSurface runs the embedded ops suite on one of its surfaces with a
// fake model, through the real MCP transport the builtin targets use, and
// grades it.
func runOnSurface(t *testing.T, surface, variant string) *pipeline.Graded {
	t.Helper()
	s, err := builtin.LoadSuite("ops")
	if err != nil {
		t.Fatal(err)
	}
	sf := s.Surface(surface)
	if sf == nil {
		t.Fatalf("the ops suite has no surface %s (has %v)", surface, s.SurfaceNames())
	}
	m, err := fake.New(variant, s)
	if err != nil {
		t.Fatal(err)
	}
	cfg := runner.Config{
		Suite: s, Surface: sf, Target: target.Config{Builtins: builtin.All()},
		Model: m, ModelInfo: model.Info{Spec: "fake:" + variant, Provider: "fake", Name: variant, Fake: true},
		Attempts: 1, Concurrency: 4, OutDir: filepath.Join(t.TempDir(), "run"),
	}
	g, err := pipeline.Run(context.Background(), cfg, pipeline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestSuiteOnEverySurface: fake:perfect, which plays the canonical key,
// passes every case of the ops suite on every surface, every action
// column full; the meta surface's record shows the model calling the
// meta-tools, the search surface's the search tools, and each names the
// surface.
func TestSuiteOnEverySurface(t *testing.T) {
	for _, surface := range []string{"individual", "meta", "search"} {
		t.Run(surface, func(t *testing.T) {
			g := runOnSurface(t, surface, "perfect")
			res := g.Result
			if res.Totals.Graded == 0 || res.Totals.Passed != res.Totals.Graded || res.Totals.Errors != 0 {
				for _, a := range res.Attempts {
					if a.Outcome != "pass" {
						t.Errorf("%s #%d: %s %v", a.Case, a.N, a.Outcome, a.Reasons)
					}
				}
				t.Fatalf("on %s: %d of %d passed, %d errors; want all", surface, res.Totals.Passed, res.Totals.Graded, res.Totals.Errors)
			}
			for _, row := range res.Actions.Models {
				for i, col := range row.Columns.List() {
					if !col.Full() {
						t.Errorf("on %s: column %d is %s, want full", surface, i, col)
					}
				}
			}
			h := g.Record.Header
			if h.Surface == nil || h.Surface.Name != surface {
				t.Fatalf("header surface %+v, want %s", h.Surface, surface)
			}
			called := map[string]bool{}
			for _, a := range g.Record.Attempts {
				for _, c := range a.Calls() {
					called[c.Name] = true
				}
			}
			switch surface {
			case "meta":
				if len(h.Tools) != 7 || len(h.Surface.Canonical) != 36 || len(h.Surface.Map) != 36 {
					t.Errorf("meta header: %d tools shown, %d canonical, %d mapped; want 7, 36, 36", len(h.Tools), len(h.Surface.Canonical), len(h.Surface.Map))
				}
				if !called["containers"] || called["create_container"] {
					t.Errorf("on meta the model called %v: want the meta-tools only", called)
				}
			case "search":
				if len(h.Tools) != 36 || h.Surface.Map != nil || h.Surface.Kind != "search" {
					t.Errorf("search header: %d tools, map %v, kind %q; want 36, none, search", len(h.Tools), h.Surface.Map, h.Surface.Kind)
				}
				if !called["search_tools"] || !called["describe_tool"] || !called["call_tool"] || called["create_container"] {
					t.Errorf("on search the model called %v: want the search tools only", called)
				}
				if s := res.Searches; s == nil || s.Searches == 0 || s.Searches != s.Describes || s.Searches != s.Calls {
					t.Errorf("searches counted %+v: want one search and one description a call", s)
				}
			default:
				if len(h.Tools) != 36 || h.Surface.Map != nil {
					t.Errorf("individual header: %d tools, map %v; want 36 and none", len(h.Tools), h.Surface.Map)
				}
			}
		})
	}
}

// TestSuiteOnMetaSurfaceLosesPoints: each of the fake's wrong variants
// loses exactly its columns on the meta and search surfaces, as it does on
// the canonical one (actionstest.OpsLoses).
func TestSuiteOnMetaSurfaceLosesPoints(t *testing.T) {
	for _, surface := range []string{"meta", "search"} {
		for _, variant := range slices.Sorted(maps.Keys(actionstest.OpsLoses)) {
			if variant == "perfect" { // TestSuiteOnEverySurface
				continue
			}
			t.Run(surface+"/"+variant, func(t *testing.T) {
				g := runOnSurface(t, surface, variant)
				actionstest.CheckColumns(t, g.Suite, g.Record, variant, len(g.Suite.Cases), actionstest.OpsLoses[variant])
			})
		}
	}
}
