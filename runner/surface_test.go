package runner_test

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/builtin"
	"github.com/mcpeval/mcpeval/internal/fixture"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/fake"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/runner"
	"github.com/mcpeval/mcpeval/suite"
)

// TestResumeOnSurface stops a run of the ops suite on its meta surface
// twice, once at a budget and once by a cancelled context, and resumes it
// each time: the resumed legs run on the same surface (every call the
// model makes is of a meta-tool), no attempt is recorded twice, and the
// whole run grades at 100% with fake:perfect. A resume on another surface,
// or on none, is refused.
func TestResumeOnSurface(t *testing.T) {
	s, err := builtin.LoadSuite("ops")
	if err != nil {
		t.Fatal(err)
	}
	meta := s.Surface("meta")
	tgt, err := runner.ResolveTarget(s, runner.TargetOverrides{Surface: meta})
	if err != nil {
		t.Fatal(err)
	}
	tgt.Builtins = builtin.All()
	dir := t.TempDir()
	cfg := func(resume *record.Run, before func() string) runner.Config {
		m, err := fake.New("perfect", s)
		if err != nil {
			t.Fatal(err)
		}
		fx, _ := fixture.For(s)
		return runner.Config{Suite: s, Surface: meta, Target: tgt, Model: m, ModelInfo: model.Info{Spec: "fake:perfect"},
			Fixtures: fx, Cases: []string{"write/"}, Attempts: 1, Concurrency: 1, FixedConcurrency: true,
			OutDir: dir, Resume: resume, BeforeAttempt: before}
	}
	after := func(n int, stop func() string) func() string {
		started := 0
		return func() string {
			if started++; started > n {
				return stop()
			}
			return ""
		}
	}

	// Leg 1: a budget stops it after 4 attempts.
	rec, err := runner.Run(context.Background(), cfg(nil, after(4, func() string { return "budget" })))
	if err != nil {
		t.Fatal(err)
	}
	planned := len(rec.Header.Planned)
	if rec.Complete() || len(rec.Attempts) != 4 || planned != 14 {
		t.Fatalf("leg 1: complete %v, %d attempts of %d planned; want 4 of 14", rec.Complete(), len(rec.Attempts), planned)
	}

	// Leg 2: resumed, and interrupted (the context cancelled) after 5 more.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rec, err = runner.Run(ctx, cfg(rec, after(5, func() string { cancel(); return "" })))
	if err == nil || rec == nil || rec.Complete() {
		t.Fatalf("leg 2: err %v, want the run interrupted", err)
	}
	if n := len(rec.Attempts); n <= 4 || n >= planned {
		t.Fatalf("leg 2: %d attempts recorded, want more than 4 and fewer than %d", n, planned)
	}

	refusesOtherSurfaces(t, s, cfg(rec, nil), cfg(rec, nil))

	// Leg 3: resumed to the end.
	rec, err = runner.Run(context.Background(), cfg(rec, nil))
	if err != nil {
		t.Fatal(err)
	}
	if !rec.Complete() || len(rec.Attempts) != planned {
		t.Fatalf("leg 3: complete %v, %d attempts of %d", rec.Complete(), len(rec.Attempts), planned)
	}
	checkOnMeta(t, s, meta, rec, planned)
}

// refusesOtherSurfaces checks that a run on surface meta resumes neither
// on surface individual (other) nor on no surface (none).
func refusesOtherSurfaces(t *testing.T, s *suite.Suite, other, none runner.Config) {
	t.Helper()
	var err error
	other.Surface = s.Surface("individual")
	if other.Target, err = runner.ResolveTarget(s, runner.TargetOverrides{Surface: other.Surface}); err != nil {
		t.Fatal(err)
	}
	other.Target.Builtins = builtin.All()
	if _, err := runner.Run(context.Background(), other); err == nil {
		t.Errorf("a run on surface meta was resumed on surface individual")
	}
	// Nor can a run on no surface, even against the same server.
	none.Surface = nil
	want := "it ran on surface meta, and this run is on no surface"
	if _, err := runner.Run(context.Background(), none); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("resumed with no surface: %v, want %q", err, want)
	}
}

// checkOnMeta checks a finished run on surface meta: its header names the
// surface, no attempt is recorded twice, every call is of a meta-tool, and
// fake:perfect passes every planned attempt.
func checkOnMeta(t *testing.T, s *suite.Suite, meta *suite.Surface, rec *record.Run, planned int) {
	t.Helper()
	if h := rec.Header.Surface; h == nil || h.Name != "meta" {
		t.Errorf("header surface %+v, want meta", h)
	}
	metaTools := map[string]bool{}
	for _, tool := range meta.SurfaceTools() {
		metaTools[tool] = true
	}
	seen := map[record.Planned]bool{}
	for _, a := range rec.Attempts {
		p := record.Planned{Case: a.Case, N: a.N}
		if seen[p] {
			t.Errorf("attempt %s #%d recorded twice", a.Case, a.N)
		}
		seen[p] = true
		for _, c := range a.Calls() {
			if !metaTools[c.Name] {
				t.Errorf("attempt %s: the model called %s, not a meta-tool", a.Case, c.Name)
			}
		}
	}
	res := grade.Run(s, rec)
	if res.Totals.Passed != planned || res.Totals.Graded != planned {
		for _, a := range res.Attempts {
			t.Logf("%s #%d: %s %v", a.Case, a.N, a.Outcome, a.Reasons)
		}
		t.Errorf("fake:perfect passed %d of %d graded attempts, want %d of %d", res.Totals.Passed, res.Totals.Graded, planned, planned)
	}
}
