package pipeline

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/mcpeval/mcpeval/internal/rundir"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/runner"
)

// gated holds every model request until release is closed, and says on
// started when the first arrives.
type gated struct {
	m       model.Model
	once    sync.Once
	started chan struct{}
	release chan struct{}
}

func (g *gated) Generate(ctx context.Context, req *model.Request) (*model.Response, error) {
	g.once.Do(func() { close(g.started) })
	select {
	case <-g.release:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return g.m.Generate(ctx, req)
}

// interrupted makes a run of opsMini that stopped after its first attempt.
func interrupted(t *testing.T) *record.Run {
	t.Helper()
	s := loadSuite(t, opsMini)
	m, info := perfect(t, s)
	cfg := config(t, s, m, info)
	n := 0
	cfg.BeforeAttempt = func() string {
		if n++; n > 1 {
			return "budget"
		}
		return ""
	}
	cfg.Concurrency = 1
	g, err := Run(context.Background(), cfg, Options{})
	if g == nil {
		t.Fatal(err)
	}
	rec, err := record.Read(g.Record.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Complete() || len(rec.Attempts) != 1 {
		t.Fatalf("the first run: complete %v, %d attempts; want an interrupted one with 1", rec.Complete(), len(rec.Attempts))
	}
	return rec
}

// TestConcurrentResumes: two resumes of one run at once. Exactly one
// proceeds; the other is refused, naming the holder; the record stays
// whole, and resuming it again says there is nothing left.
func TestConcurrentResumes(t *testing.T) {
	rec := interrupted(t)
	s := loadSuite(t, opsMini)
	m, info := perfect(t, s)
	slow := &gated{m: m, started: make(chan struct{}), release: make(chan struct{})}
	first := config(t, s, slow, info)
	first.OutDir, first.Resume = "", rec
	done := make(chan error, 1)
	go func() {
		_, err := Run(context.Background(), first, Options{})
		done <- err
	}()
	<-slow.started // the first resume holds the lock and is running

	second := config(t, s, m, info)
	second.OutDir, second.Resume = "", rec
	_, err := Run(context.Background(), second, Options{})
	if !errors.Is(err, rundir.ErrLocked) || !strings.Contains(err.Error(), "process ") {
		t.Errorf("the second resume: %v, want it refused as locked, naming the process", err)
	}
	close(slow.release)
	if err := <-done; err != nil {
		t.Fatalf("the first resume: %v", err)
	}

	got, err := record.Read(rec.Dir)
	if err != nil {
		t.Fatalf("the record after two resumes: %v", err)
	}
	if !got.Complete() || len(got.Attempts) != 4 || len(got.Warnings) != 0 {
		t.Errorf("complete %v, %d attempts, warnings %q; want complete, 4, none", got.Complete(), len(got.Attempts), got.Warnings)
	}
	if _, err := os.Stat(rundir.Path(rec.Dir, rundir.LockFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the lock outlived the run: %v", err)
	}
	// A resume that read the record before the first finished reads it
	// again under the lock, and finds nothing to do.
	_, err = Run(context.Background(), second, Options{})
	if !errors.Is(err, ErrNothingToResume) {
		t.Errorf("resuming a completed run: %v, want ErrNothingToResume", err)
	}
	if g := Score(context.Background(), s, got, Options{}); g.Result.Totals.Graded != 4 || len(g.Problems) != 0 {
		t.Errorf("scoring it: %+v, problems %v", g.Result.Totals, g.Problems)
	}
}

// TestRetryErrors: a run whose every attempt errored is complete; a resume
// with RetryErrors runs exactly those attempts again, appends them, and
// grades the new ones, the old staying in the record as superseded.
func TestRetryErrors(t *testing.T) {
	s := loadSuite(t, opsMini)
	info := model.Info{Spec: "openai:gpt-x", Provider: "openai", Name: "gpt-x"}
	g, err := Run(context.Background(), config(t, s, down{}, info), Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := record.Read(g.Record.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if !rec.Complete() {
		t.Fatal("a run of errors is complete")
	}
	m, _ := perfect(t, s)
	cfg := config(t, s, m, info)
	cfg.OutDir, cfg.Resume = "", rec
	if _, err := Run(context.Background(), cfg, Options{}); !errors.Is(err, ErrNothingToResume) {
		t.Fatalf("resuming without RetryErrors: %v, want nothing to resume", err)
	}
	g, err = Run(context.Background(), cfg, Options{RetryErrors: true})
	if err != nil {
		t.Fatalf("retrying the errors: %v", err)
	}
	if tot := g.Result.Totals; tot.Graded != 4 || tot.Passed != 4 || tot.Errors != 0 {
		t.Errorf("totals after the retry %+v, want 4 graded, 4 passed", tot)
	}
	got, err := record.Read(rec.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Attempts) != 4 || len(got.Superseded) != 4 || !got.Complete() || len(got.Warnings) != 0 {
		t.Errorf("%d attempts, %d superseded, complete %v, warnings %q; want 4, 4, true, none", len(got.Attempts), len(got.Superseded), got.Complete(), got.Warnings)
	}
	for _, a := range got.Superseded {
		if a.End != record.EndError {
			t.Errorf("superseded %s #%d ended %q, want error", a.Case, a.N, a.End)
		}
	}
	// Nothing errored is left: a second retry has nothing to do.
	cfg.Resume = got
	if _, err := Run(context.Background(), cfg, Options{RetryErrors: true}); !errors.Is(err, ErrNothingToResume) {
		t.Errorf("retrying a run with no errors: %v, want nothing to resume", err)
	}
}

// TestResumeGradesAnEndedRun: a run killed between its end line and its
// grades is graded by its resume, without a model: nothing is run.
func TestResumeGradesAnEndedRun(t *testing.T) {
	s := loadSuite(t, opsMini)
	m, info := perfect(t, s)
	g, err := Run(context.Background(), config(t, s, m, info), Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := g.Record.Dir
	if err := os.Remove(rundir.Path(dir, rundir.Grades)); err != nil {
		t.Fatal(err)
	}
	rec, err := record.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Run(context.Background(), runner.Config{Suite: s, Resume: rec}, Options{})
	if err != nil {
		t.Fatalf("resuming a run that ended ungraded: %v", err)
	}
	if got.Attempts != len(rec.Attempts) || got.Result.Totals.Graded != g.Result.Totals.Graded {
		t.Errorf("graded %d attempts (%d graded), want the run's %d (%d)", got.Attempts, got.Result.Totals.Graded, len(rec.Attempts), g.Result.Totals.Graded)
	}
	if _, err := rundir.ReadGrades(dir); err != nil {
		t.Errorf("grades after the resume: %v", err)
	}
	// Graded now, it has nothing left to resume.
	if _, err := Run(context.Background(), runner.Config{Suite: s, Resume: rec}, Options{}); !errors.Is(err, ErrNothingToResume) {
		t.Errorf("resuming it again: %v, want ErrNothingToResume", err)
	}
}
