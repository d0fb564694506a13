package pipeline

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/compare"
	"github.com/mcpeval/mcpeval/internal/ladder"
	"github.com/mcpeval/mcpeval/internal/provider"
	"github.com/mcpeval/mcpeval/internal/rundir"
	"github.com/mcpeval/mcpeval/internal/sequential"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/runner"
)

// DefaultModel is the model RunModels runs when it is given none: a fake
// that replays each case's key.
const DefaultModel = "fake:perfect"

// LadderConfig is what RunModels runs: one suite on each of several models
// (a model ladder, the strongest first), or on one model over several of
// the suite's surfaces, each a run of its own in its own run directory,
// and what is checked once they have run.
type LadderConfig struct {
	// Models are the specs of the models to run, the strongest first, as
	// provider.Open reads them; empty means DefaultModel. Several make a
	// ladder (LadderResult.Ladder).
	Models []string
	// Surfaces name the suite surfaces each model is run on, each a run of
	// its own; empty means one run per model, on the target the run's
	// configuration names. Only Prepare can set a surface's target up:
	// without Prepare, Surfaces must be empty.
	Surfaces []string
	// Out is the directory the runs are written under: with several
	// models each model's run is in a directory of its own named for its
	// spec (Out/fake-perfect), with several surfaces each surface's in
	// Out/SURFACE, with both each model's run on each surface in
	// Out/MODEL/SURFACE (Out/fake-perfect/meta), and a single run in Out
	// itself. Empty means each run in runs/RUN_ID, and no ladder.json.
	Out string

	// Run is the configuration every run starts from when Prepare is nil:
	// RunModels opens each model (provider.Open) and sets Model,
	// ModelInfo and OutDir.
	Run runner.Config
	// Options are what Run is given for every run when Prepare is nil.
	Options Options
	// Prepare, when set, makes the configuration and options of run r
	// (its model, surface and run directory set) in place of Run and
	// Options: it opens the model, resolves the surface's target, and may
	// start what watches the run. An error it returns is the run's error,
	// and the run is not started.
	Prepare func(ctx context.Context, r *LadderRun) (runner.Config, Options, error)
	// Done, when set, is told of each run as it ends, its Graded and Err
	// set (Graded nil when there is no record to grade); the error it
	// returns replaces r.Err. It may print the run and say what went
	// wrong.
	Done func(r *LadderRun) error

	// Gates are checked once every run has ended without an error.
	Gates Gates
	// Baseline, when set, is the run the gates' Baseline names: the run
	// on its surface (else the last) is compared with it.
	Baseline *record.Run
	// Alpha is the comparison's significance level; 0 means
	// compare.DefaultAlpha.
	Alpha float64
	// StopEarly, when set with a Baseline, stops each run once a
	// sequential test against the baseline has decided, and the baseline
	// gate takes that test's decision (stopearly.go).
	StopEarly *StopEarly
	// Bar, when above 0, marks the ladder's models that clear it
	// (ladder.Ladder.SetBar).
	Bar float64
}

// LadderRun is one run of RunModels: a model, on a surface when the suite
// has several, in its run directory.
type LadderRun struct {
	// Index is the run's place among the runs, from 0.
	Index int
	// Model is the model's spec.
	Model string
	// Surface is the surface the run measures; empty for the run's own
	// target.
	Surface string
	// Out is the run's directory; empty means runs/RUN_ID.
	Out string
	// Graded is the graded run; nil when there was no record to grade.
	Graded *Graded
	// Err is what went wrong with the run (pipeline.Run's error, or one
	// from Prepare), as Done returned it.
	Err error
}

// LadderResult is what RunModels ran and found.
type LadderResult struct {
	// Runs are every run, in the order they ran: each model's on each
	// surface.
	Runs []*LadderRun
	// Ladder sets the models' runs side by side, with several models; nil
	// with one. Over several surfaces it sets the models' runs on the
	// first surface side by side (LadderSurface), case by case: the
	// matrix of every model on every surface is the caller's to build
	// from Runs (report.BuildSurfaces). It is written to Out/ladder.json
	// when Out is set.
	Ladder *ladder.Ladder
	// LadderSurface is the surface the Ladder's runs measured, when
	// several surfaces ran; empty otherwise.
	LadderSurface string
	// Comparison is the comparison with LadderConfig.Baseline; nil when
	// there is none or a run went wrong.
	Comparison *compare.Comparison
	// Checked is true when the gates were checked: every run ended
	// without an error.
	Checked bool
	// Verdict is the gates' verdict when Checked.
	Verdict Verdict
	// Sequential is the sequential test's decision on the run compared
	// with the baseline, with LadderConfig.StopEarly; nil without.
	Sequential *sequential.Decision
	// Problems are files that could not be written (ladder.json).
	Problems []error
}

// Graded returns the graded runs, in the order they ran.
func (r *LadderResult) Graded() []*Graded {
	var out []*Graded
	for _, run := range r.Runs {
		if run.Graded != nil {
			out = append(out, run.Graded)
		}
	}
	return out
}

// RunModels runs the suite on each model of cfg, on each surface it names,
// one run after another, each in its own run directory (pipeline.Run);
// a run that goes wrong does not stop the next. Then it sets the models
// side by side in a ladder (with several), compares the run on the
// baseline's surface with cfg.Baseline, and checks the gates, unless a
// run went wrong.
//
// The error is the first run's error, after Done; the result holds every
// run, graded or not, whatever the error.
func RunModels(ctx context.Context, cfg LadderConfig) (*LadderResult, error) {
	if cfg.Prepare == nil && len(cfg.Surfaces) > 0 {
		return nil, errors.New("running on surfaces: a surface's target is set up by LadderConfig.Prepare, and none was given")
	}
	res := &LadderResult{}
	var firstErr error
	for _, r := range cfg.runs() {
		var w *watcher
		r.Graded, r.Err = cfg.runOne(ctx, r, &w)
		if w != nil {
			res.Sequential = w.decision()
		}
		if cfg.Done != nil {
			r.Err = cfg.Done(r)
		}
		if r.Err != nil && firstErr == nil {
			firstErr = r.Err
		}
		res.Runs = append(res.Runs, r)
	}
	graded := res.Graded()
	if len(graded) == 0 {
		return res, firstErr
	}
	if cfg.Baseline != nil && firstErr == nil {
		last := BaselinePeer(cfg.Baseline, graded)
		res.Comparison = compare.Compare(cfg.Baseline, last.Record, grade.Run(last.Suite, cfg.Baseline), last.Result)
		if cfg.Alpha > 0 {
			res.Comparison.SetAlpha(cfg.Alpha)
		}
	}
	if len(cfg.models()) > 1 {
		if len(cfg.Surfaces) > 1 {
			res.LadderSurface = cfg.Surfaces[0]
		}
		res.buildLadder(cfg.Out, cfg.Bar)
	}
	if firstErr == nil {
		var results []*grade.Result
		for _, r := range res.Runs {
			if r.Graded == nil {
				continue
			}
			g := r.Graded.Result
			if len(cfg.Surfaces) > 1 {
				// Each cell of a matrix is gated as a run is; its
				// verdict names the surface as well as the model.
				named := *g
				named.Model += " on surface " + r.Surface
				g = &named
			}
			results = append(results, g)
		}
		res.Checked = true
		if res.Sequential == nil {
			res.Verdict = cfg.Gates.Check(results, res.Comparison)
		} else {
			res.Verdict = cfg.Gates.Check(results, nil)
			if len(res.Verdict.TooFew) == 0 {
				res.Verdict.Failed = append(res.Verdict.Failed, sequentialReasons(res.Comparison, res.Sequential, cfg.Gates.Baseline)...)
			}
		}
	}
	return res, firstErr
}

// models returns the specs to run, DefaultModel when none is given.
func (cfg *LadderConfig) models() []string {
	if len(cfg.Models) == 0 {
		return []string{DefaultModel}
	}
	return cfg.Models
}

// runs plans every run: each model on each surface, each in its directory.
func (cfg *LadderConfig) runs() []*LadderRun {
	models := cfg.models()
	surfaces := cfg.Surfaces
	if len(surfaces) == 0 {
		surfaces = []string{""}
	}
	var runs []*LadderRun
	used := map[string]bool{}
	for _, m := range models {
		out := cfg.Out
		if len(models) > 1 && out != "" {
			out = filepath.Join(out, modelDir(m, used))
		}
		for _, sf := range surfaces {
			r := &LadderRun{Index: len(runs), Model: m, Surface: sf, Out: out}
			if len(surfaces) > 1 && out != "" {
				r.Out = filepath.Join(out, sf)
			}
			runs = append(runs, r)
		}
	}
	return runs
}

// runOne makes run r's configuration (Prepare, else Run with the model
// opened) and runs it; with StopEarly it sets *w to what watches it.
func (cfg *LadderConfig) runOne(ctx context.Context, r *LadderRun, w **watcher) (*Graded, error) {
	if cfg.Prepare != nil {
		rc, opts, err := cfg.Prepare(ctx, r)
		if err != nil {
			return nil, err
		}
		*w = cfg.watch(&rc)
		return Run(ctx, rc, opts)
	}
	rc := cfg.Run
	m, info, err := provider.Open(r.Model, provider.Options{Suite: rc.Suite})
	if err != nil {
		return nil, fmt.Errorf("opening model %s: %w", r.Model, err)
	}
	rc.Model, rc.ModelInfo, rc.OutDir = m, info, r.Out
	if rc.Sampler == nil {
		if rc.Sampler, rc.SamplerInfo, err = OpenSampler(rc.Suite); err != nil {
			return nil, err
		}
	}
	*w = cfg.watch(&rc)
	return Run(ctx, rc, cfg.Options)
}

// buildLadder sets the graded runs on r.LadderSurface (every run, when it
// is empty) side by side, marks those that clear bar (when above 0), and
// writes the ladder to out/ladder.json when out is set.
func (r *LadderResult) buildLadder(out string, bar float64) {
	var recs []*record.Run
	var ress []*grade.Result
	for _, run := range r.Runs {
		if run.Graded != nil && (r.LadderSurface == "" || run.Surface == r.LadderSurface) {
			recs = append(recs, run.Graded.Record)
			ress = append(ress, run.Graded.Result)
		}
	}
	r.Ladder = ladder.Build(recs, ress)
	if bar > 0 {
		r.Ladder.SetBar(bar)
	}
	if out != "" {
		if err := rundir.WriteJSON(rundir.Path(out, rundir.Ladder), r.Ladder); err != nil {
			r.Problems = append(r.Problems, err)
		}
	}
}

// BaselinePeer is the run a baseline is compared with: the one on the
// baseline's surface, when the runs measured several; else the last.
func BaselinePeer(base *record.Run, runs []*Graded) *Graded {
	if base.Header.Surface != nil {
		for _, r := range runs {
			if s := r.Record.Header.Surface; s != nil && s.Name == base.Header.Surface.Name {
				return r
			}
		}
	}
	return runs[len(runs)-1]
}

var unsafeDir = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// modelDir returns a directory name for model spec m, unique among used.
func modelDir(m string, used map[string]bool) string {
	name := strings.Trim(unsafeDir.ReplaceAllString(m, "-"), "-.")
	if name == "" {
		name = "model"
	}
	base := name
	for i := 2; used[name]; i++ {
		name = fmt.Sprintf("%s-%d", base, i)
	}
	used[name] = true
	return name
}
