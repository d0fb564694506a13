package pipeline

import (
	"context"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpeval/mcpeval/internal/rundir"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
)

// TestScoreDirMatchesScore scores recorded runs read whole (Score) and as
// a stream (ScoreDir): the grades, action columns, usage, cost and the
// files written are the same, for a fake model's run with action cases and
// a real model's run whose every attempt errored.
func TestScoreDirMatchesScore(t *testing.T) {
	s := loadSuite(t, opsMini)
	m, info := perfect(t, s)
	for name, cfg := range map[string]func() (model.Model, model.Info){
		"fake": func() (model.Model, model.Info) { return m, info },
		"provider down": func() (model.Model, model.Info) {
			return down{}, model.Info{Spec: "openai:gpt-x", Provider: "openai", Name: "gpt-x"}
		},
	} {
		t.Run(name, func(t *testing.T) {
			mm, mi := cfg()
			ran, err := Run(context.Background(), config(t, s, mm, mi), Options{})
			if err != nil {
				t.Fatal(err)
			}
			dir := ran.Record.Dir
			rec, err := record.Read(dir)
			if err != nil {
				t.Fatal(err)
			}
			whole := Score(context.Background(), s, rec, Options{})
			files := readDerived(t, dir)
			streamed, err := ScoreDir(context.Background(), s, dir, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(whole.Result, streamed.Result); d != "" {
				t.Errorf("result (-Score +ScoreDir):\n%s", d)
			}
			if d := cmp.Diff(whole.Usage, streamed.Usage); d != "" {
				t.Errorf("usage (-Score +ScoreDir):\n%s", d)
			}
			if d := cmp.Diff(whole.Cost, streamed.Cost); d != "" {
				t.Errorf("cost (-Score +ScoreDir):\n%s", d)
			}
			if whole.Attempts != streamed.Attempts || streamed.Attempts != len(rec.Attempts) || streamed.Record.Attempts != nil {
				t.Errorf("attempts: Score %d, ScoreDir %d (holding %d), record %d", whole.Attempts, streamed.Attempts, len(streamed.Record.Attempts), len(rec.Attempts))
			}
			if d := cmp.Diff(files, readDerived(t, dir)); d != "" {
				t.Errorf("files written (-Score +ScoreDir):\n%s", d)
			}
		})
	}
}

// readDerived reads the derived files of a run directory, by name.
func readDerived(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, name := range []string{rundir.Grades, rundir.Actions, rundir.Usage} {
		b, err := os.ReadFile(rundir.Path(dir, name))
		if err == nil {
			out[name] = string(b)
		}
	}
	return out
}

// TestLeanRunMatchesRun: a run whose runner leaves the attempts on disk
// (runner.Config.Lean) is graded as a stream to what a run read back
// whole gives, and its record holds no attempts.
func TestLeanRunMatchesRun(t *testing.T) {
	s := loadSuite(t, opsMini)
	m, info := perfect(t, s)
	whole, err := Run(context.Background(), config(t, s, m, info), Options{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := config(t, s, m, info)
	cfg.Lean = true
	lean, err := Run(context.Background(), cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if lean.Record.Attempts != nil || lean.Attempts != len(whole.Record.Attempts) || lean.Attempts == 0 {
		t.Errorf("lean run: record holds %d attempts, counts %d; want none held and %d counted", len(lean.Record.Attempts), lean.Attempts, len(whole.Record.Attempts))
	}
	ignore := cmp.FilterPath(func(p cmp.Path) bool {
		s := p.String()
		// The run id and each attempt's fixture token are fresh per run.
		return s == "RunID" || s == "Actions.Attempts"
	}, cmp.Ignore())
	if d := cmp.Diff(whole.Result, lean.Result, ignore); d != "" {
		t.Errorf("result (-whole +lean):\n%s", d)
	}
	if d := cmp.Diff(whole.Cost, lean.Cost); d != "" {
		t.Errorf("cost (-whole +lean):\n%s", d)
	}
	for _, name := range []string{rundir.Grades, rundir.Actions} {
		if _, err := os.Stat(rundir.Path(lean.Record.Dir, name)); err != nil {
			t.Errorf("the lean run's directory lacks %s: %v", name, err)
		}
	}
}
