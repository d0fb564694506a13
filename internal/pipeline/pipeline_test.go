package pipeline

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/grade/actions"
	"github.com/mcpeval/mcpeval/internal/builtin"
	"github.com/mcpeval/mcpeval/internal/judge"
	"github.com/mcpeval/mcpeval/internal/rundir"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/fake"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/runner"
	"github.com/mcpeval/mcpeval/suite"
	"github.com/mcpeval/mcpeval/target"
)

// opsMini (testdata/ops-mini.yaml, which the CLI's tests run too) is one
// write case on builtin:ops, whose key creates a 5 GB volume, and one
// question that must be declined.
//
//go:embed testdata/ops-mini.yaml
var opsMini string

func loadSuite(t *testing.T, yaml string) *suite.Suite {
	t.Helper()
	s, err := suite.LoadFS(fstest.MapFS{"suite.yaml": {Data: []byte(yaml)}}, "suite.yaml", "suite.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func config(t *testing.T, s *suite.Suite, m model.Model, info model.Info) runner.Config {
	return runner.Config{
		Suite: s, Target: target.Config{Builtins: builtin.All()}, Model: m, ModelInfo: info,
		OutDir: filepath.Join(t.TempDir(), "run"),
	}
}

func perfect(t *testing.T, s *suite.Suite) (model.Model, model.Info) {
	m, err := fake.New("perfect", s)
	if err != nil {
		t.Fatal(err)
	}
	return m, model.Info{Spec: "fake:perfect", Provider: "fake", Name: "perfect", Fake: true}
}

func readActions(t *testing.T, dir string) *actions.Report {
	t.Helper()
	b, err := os.ReadFile(rundir.Path(dir, rundir.Actions))
	if err != nil {
		t.Fatal(err)
	}
	var rep actions.Report
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	return &rep
}

// TestScoreRefreshesEveryFile: Run writes the grades and the action
// columns; after the suite is edited, Score rewrites both to match it, and
// removes the action columns once the suite has no action case.
func TestScoreRefreshesEveryFile(t *testing.T) {
	s := loadSuite(t, opsMini)
	m, info := perfect(t, s)
	g, err := Run(context.Background(), config(t, s, m, info), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Problems) > 0 || g.Usage != nil {
		t.Fatalf("problems %v, usage %v for a fake model", g.Problems, g.Usage)
	}
	dir := g.Record.Dir
	if a := readActions(t, dir).Models[0].Columns.Arguments; a != (actions.Column{Num: 6, Den: 6}) {
		t.Fatalf("arguments after the run: %v, want 6/6", a)
	}

	edited := loadSuite(t, strings.NewReplacer("size_gb: {literal: 5}", "size_gb: {literal: 6}", "a 5 GB volume", "a 6 GB volume").Replace(opsMini))
	rec, err := record.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	g = Score(context.Background(), edited, rec, Options{})
	if len(g.Problems) > 0 {
		t.Fatal(g.Problems)
	}
	if a := readActions(t, dir).Models[0].Columns.Arguments; a != (actions.Column{Num: 4, Den: 6}) {
		t.Errorf("actions.json after scoring against the edited suite: arguments %v, want 4/6", a)
	}
	graded, err := rundir.ReadGrades(dir)
	if err != nil || graded.Actions == nil || graded.Actions.Models[0].Columns.Arguments != (actions.Column{Num: 4, Den: 6}) {
		t.Errorf("grades.json after scoring against the edited suite: %+v, %v", graded, err)
	}

	questionsOnly := loadSuite(t, opsMini[:strings.Index(opsMini, "  - id: write/new-volume")]+opsMini[strings.Index(opsMini, "  - id: decline/weather"):])
	g = Score(context.Background(), questionsOnly, rec, Options{})
	if len(g.Problems) > 0 {
		t.Fatal(g.Problems)
	}
	if _, err := os.Stat(rundir.Path(dir, rundir.Actions)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("actions.json outlived the suite's last action case: %v", err)
	}
}

// TestScoreKeepsJudgeOpinions: a judge asked once stores its opinions; a
// later Score without a judge attaches them again and changes no grade.
func TestScoreKeepsJudgeOpinions(t *testing.T) {
	s := loadSuite(t, opsMini)
	m, info := perfect(t, s)
	g, err := Run(context.Background(), config(t, s, m, info), Options{Judge: judge.Fake{Phrases: []string{"weather"}}})
	if err != nil {
		t.Fatal(err)
	}
	judged := 0
	for _, a := range g.Result.Attempts {
		if a.Judge != nil {
			judged++
		}
	}
	if judged != 2 {
		t.Fatalf("%d attempts carry an opinion, want the 2 decline attempts", judged)
	}
	ops, err := judge.Read(g.Record.Dir)
	if err != nil || ops.Len() != 2 {
		t.Fatalf("stored opinions %+v, %v", ops, err)
	}
	again := Score(context.Background(), s, g.Record, Options{})
	for i, a := range again.Result.Attempts {
		if (a.Judge == nil) != (g.Result.Attempts[i].Judge == nil) || a.Outcome != g.Result.Attempts[i].Outcome {
			t.Errorf("%s #%d: re-scored %s with opinion %v; ran %s with %v", a.Case, a.N, a.Outcome, a.Judge, g.Result.Attempts[i].Outcome, g.Result.Attempts[i].Judge)
		}
	}
}

// down is a provider that refuses every request.
type down struct{}

func (down) Generate(context.Context, *model.Request) (*model.Response, error) {
	return nil, &model.ProviderError{Err: errors.New("503 service unavailable")}
}

// TestRunWithTheProviderDown: every attempt is an error; the run is
// recorded and written whole (usage too: the model is real), and a gate on
// it cannot pass.
func TestRunWithTheProviderDown(t *testing.T) {
	s := loadSuite(t, opsMini)
	g, err := Run(context.Background(), config(t, s, down{}, model.Info{Spec: "openai:gpt-x", Provider: "openai", Name: "gpt-x"}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	tot := g.Result.Totals
	if tot.Graded != 0 || tot.Errors != 4 {
		t.Fatalf("totals %+v, want 4 errors and nothing graded", tot)
	}
	if g.Usage == nil {
		t.Error("no usage for a real model")
	}
	for _, name := range []string{rundir.Record, rundir.Grades, rundir.Actions, rundir.Usage} {
		if _, err := os.Stat(rundir.Path(g.Record.Dir, name)); err != nil {
			t.Errorf("the run directory lacks %s: %v", name, err)
		}
	}
	v := Gates{MinPass: 0.5}.Check([]*grade.Result{g.Result}, nil)
	if v.Passed() || len(v.TooFew) != 1 {
		t.Errorf("a gate on a run with nothing graded: %+v", v)
	}
	if v := (Gates{}).Check([]*grade.Result{g.Result}, nil); !v.Passed() {
		t.Errorf("no gate set, yet %q", v.Reasons())
	}
}
