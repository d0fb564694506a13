package pipeline_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/internal/builtin"
	"github.com/mcpeval/mcpeval/internal/ladder"
	"github.com/mcpeval/mcpeval/internal/pipeline"
	"github.com/mcpeval/mcpeval/internal/provider"
	"github.com/mcpeval/mcpeval/internal/rundir"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/runner"
	"github.com/mcpeval/mcpeval/target"
)

// household is a run configuration of the embedded household suite, one
// attempt per case, without a model: RunModels opens each.
func household(t testing.TB) runner.Config {
	s, err := builtin.LoadSuite("household")
	if err != nil {
		t.Fatal(err)
	}
	return runner.Config{Suite: s, Target: target.Config{Builtins: builtin.All()}, Attempts: 1, Concurrency: 4}
}

// TestRunModelsLadder: one call runs the household suite on two models,
// each in its own directory under Out, sets them side by side strongest
// first, writes the ladder beside them, and checks the gates.
func TestRunModelsLadder(t *testing.T) {
	out := t.TempDir()
	var told []string
	res, err := pipeline.RunModels(context.Background(), pipeline.LadderConfig{
		Models: []string{"fake:perfect", "fake:invent"},
		Out:    out,
		Run:    household(t),
		Done: func(r *pipeline.LadderRun) error {
			told = append(told, fmt.Sprintf("%d %s %s", r.Index, r.Model, filepath.Base(r.Out)))
			return r.Err
		},
		Gates: pipeline.Gates{MinPass: 0.9},
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"0 fake:perfect fake-perfect", "1 fake:invent fake-invent"}; fmt.Sprint(told) != fmt.Sprint(want) {
		t.Errorf("Done was told %q, want %q", told, want)
	}
	if len(res.Runs) != 2 {
		t.Fatalf("%d runs, want 2", len(res.Runs))
	}
	for _, r := range res.Runs {
		want := filepath.Join(out, map[string]string{"fake:perfect": "fake-perfect", "fake:invent": "fake-invent"}[r.Model])
		if r.Out != want || r.Graded == nil || r.Graded.Record.Dir != want {
			t.Fatalf("%s: run in %q, want %q", r.Model, r.Out, want)
		}
		rec, err := record.Read(want)
		if err != nil {
			t.Fatal(err)
		}
		if !rec.Complete() || rec.Header.Model.Spec != r.Model {
			t.Errorf("%s: the record in %s is of %s, complete %v", r.Model, want, rec.Header.Model.Spec, rec.Complete())
		}
		if _, err := rundir.ReadGrades(want); err != nil {
			t.Errorf("%s: %v", r.Model, err)
		}
	}

	l := res.Ladder
	if l == nil || len(l.Rungs) != 2 {
		t.Fatalf("ladder %+v, want two rungs", l)
	}
	top, low := l.Rungs[0], l.Rungs[1]
	if top.Model != "fake:perfect" || low.Model != "fake:invent" {
		t.Errorf("rungs %s, %s; want fake:perfect first, then fake:invent", top.Model, low.Model)
	}
	if top.Totals.Failed != 0 || top.Totals.Passed == 0 || low.Totals.Failed == 0 {
		t.Errorf("totals: perfect %+v, invent %+v; want perfect to pass every case and invent to fail some", top.Totals, low.Totals)
	}
	if n := l.Count(ladder.Descriptions); n != low.Totals.Failed {
		t.Errorf("%d cases read as descriptions, want one per case fake:invent failed (%d)", n, low.Totals.Failed)
	}
	if l.Count(ladder.Defect) != 0 {
		t.Errorf("%d defects; a case fake:perfect passes is none", l.Count(ladder.Defect))
	}
	if _, err := os.Stat(rundir.Path(out, rundir.Ladder)); err != nil {
		t.Errorf("ladder.json: %v", err)
	}

	if !res.Checked || res.Verdict.Passed() || len(res.Verdict.Failed) != 1 {
		t.Errorf("checked %v, verdict %+v; want fake:invent alone below --min-pass", res.Checked, res.Verdict)
	}
}

// TestRunModelsGoesOn: a model that cannot be opened does not stop the
// next; its error is returned, Done's in place of the run's, and no gate
// is checked.
func TestRunModelsGoesOn(t *testing.T) {
	cfg := household(t)
	cfg.Cases = []string{"single-tool/"}
	stop := errors.New("said and stopped")
	res, err := pipeline.RunModels(context.Background(), pipeline.LadderConfig{
		Models: []string{"fake:no-such-model", "fake:perfect"},
		Out:    t.TempDir(),
		Run:    cfg,
		Done: func(r *pipeline.LadderRun) error {
			if r.Err != nil {
				return fmt.Errorf("%w: %w", stop, r.Err)
			}
			return nil
		},
		Gates: pipeline.Gates{MinPass: 0.5},
	})
	if !errors.Is(err, stop) {
		t.Fatalf("error %v, want Done's", err)
	}
	if len(res.Runs) != 2 || res.Runs[0].Graded != nil || res.Runs[1].Graded == nil {
		t.Fatalf("runs %+v; want the first failed and the second graded", res.Runs)
	}
	if res.Checked || res.Ladder == nil || len(res.Ladder.Rungs) != 1 {
		t.Errorf("checked %v, ladder %+v; want no gate checked and a ladder of the graded run", res.Checked, res.Ladder)
	}
}

// A model ladder in one call: the household suite on the fake that replays
// each case's key, then on one that invents figures. Each model's run has
// its directory under Out, named for its spec, and the ladder says which
// cases the weaker model fails.
func ExampleRunModels() {
	s, err := builtin.LoadSuite("household")
	if err != nil {
		fmt.Println(err)
		return
	}
	out, err := os.MkdirTemp("", "ladder")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(out)

	res, err := pipeline.RunModels(context.Background(), pipeline.LadderConfig{
		Models: []string{"fake:perfect", "fake:invent"},
		Out:    out,
		Run:    runner.Config{Suite: s, Target: target.Config{Builtins: builtin.All()}, Attempts: 1},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range res.Runs {
		rel, _ := filepath.Rel(out, r.Out)
		fmt.Printf("%s in %s\n", r.Model, rel)
	}
	for _, rung := range res.Ladder.Rungs {
		fmt.Printf("%s: %d failed\n", rung.Model, rung.Totals.Failed)
	}
	// Output:
	// fake:perfect in fake-perfect
	// fake:invent in fake-invent
	// fake:perfect: 0 failed
	// fake:invent: 20 failed
}

// TestRunModelsMatrix: several models on several surfaces make every
// pair a run of its own in Out/MODEL/SURFACE, model by model; the ladder
// sets the models side by side on the first surface only, and the gates
// judge every run.
func TestRunModelsMatrix(t *testing.T) {
	s, err := builtin.LoadSuite("ops")
	if err != nil {
		t.Fatal(err)
	}
	surfaces := s.SurfaceNames()
	if len(surfaces) < 2 {
		t.Fatalf("the ops suite declares surfaces %q, want several", surfaces)
	}
	out := t.TempDir()
	models := []string{"fake:perfect", "fake:wrong-args"}
	res, err := pipeline.RunModels(context.Background(), pipeline.LadderConfig{
		Models: models, Surfaces: surfaces, Out: out,
		Prepare: func(ctx context.Context, r *pipeline.LadderRun) (runner.Config, pipeline.Options, error) {
			tc, err := runner.ResolveTarget(s, runner.TargetOverrides{Surface: s.Surface(r.Surface)})
			if err != nil {
				return runner.Config{}, pipeline.Options{}, err
			}
			tc.Builtins = builtin.All()
			m, info, err := provider.Open(r.Model, provider.Options{Suite: s})
			if err != nil {
				return runner.Config{}, pipeline.Options{}, err
			}
			return runner.Config{Suite: s, Target: tc, Surface: s.Surface(r.Surface), Model: m, ModelInfo: info, OutDir: r.Out,
				Attempts: 1, Concurrency: 2, Cases: []string{"write/new-volume"}}, pipeline.Options{}, nil
		},
		Gates: pipeline.Gates{MinPass: 0.9},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Runs) != len(models)*len(surfaces) {
		t.Fatalf("%d runs, want %d", len(res.Runs), len(models)*len(surfaces))
	}
	for i, r := range res.Runs {
		m, sf := models[i/len(surfaces)], surfaces[i%len(surfaces)]
		want := filepath.Join(out, map[string]string{"fake:perfect": "fake-perfect", "fake:wrong-args": "fake-wrong-args"}[m], sf)
		if r.Model != m || r.Surface != sf || r.Out != want || r.Graded == nil {
			t.Fatalf("run %d: %s on %s in %s, want %s on %s in %s", i, r.Model, r.Surface, r.Out, m, sf, want)
		}
		if h := r.Graded.Record.Header; h.Surface == nil || h.Surface.Name != sf || r.Graded.Record.Dir != want {
			t.Errorf("run %d: the record in %s is of surface %+v", i, r.Graded.Record.Dir, h.Surface)
		}
	}
	if res.LadderSurface != surfaces[0] || res.Ladder == nil || len(res.Ladder.Rungs) != len(models) {
		t.Fatalf("ladder on %q with %+v, want the %d models on %s", res.LadderSurface, res.Ladder, len(models), surfaces[0])
	}
	for i, rg := range res.Ladder.Rungs {
		if rg.Dir != res.Runs[i*len(surfaces)].Out {
			t.Errorf("rung %d is the run in %s, want the one on %s", i, rg.Dir, surfaces[0])
		}
	}
	if !res.Checked || len(res.Verdict.Failed) != len(surfaces) {
		t.Fatalf("verdict %+v: want fake:wrong-args below --min-pass once on each surface", res.Verdict)
	}
	for i, why := range res.Verdict.Failed {
		if want := "fake:wrong-args on surface " + surfaces[i] + ": pass rate"; !strings.HasPrefix(why, want) {
			t.Errorf("the gate says %q, want it to start %q", why, want)
		}
	}
}
