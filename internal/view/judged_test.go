package view

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/internal/agreement"
	"github.com/mcpeval/mcpeval/internal/judge"
	"github.com/mcpeval/mcpeval/internal/pipeline"
	"github.com/mcpeval/mcpeval/internal/testkit/reporttest"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// judgedSuite has a checked case and a case graded by its judge.
const judgedSuite = `name: view-judged
target: builtin:household
cases:
  - id: money/net-worth
    group: money
    prompt: What's our total net worth right now?
    figures:
      - {value: 2394755, currency: SGD, label: net worth}
  - id: agent/plan
    group: agent
    prompt: Plan my week.
    judge: {rubric: Names each day., pass_when: Every day has an item.}
    graded_by: judge
`

// judgeName is the judge model's name as the judge records it
// (provider:name): hostile, as a model's name is not ours.
const judgeName = "script:" + hostile

// mondayJudge is a judge model that passes an answer naming Monday and
// fails every other.
type mondayJudge struct{}

func (mondayJudge) Generate(_ context.Context, req *model.Request) (*model.Response, error) {
	v := "fail"
	if strings.Contains(req.Messages[0].Blocks[0].Text, "Mon:") {
		v = "pass"
	}
	return &model.Response{Message: model.Message{Role: model.Assistant, Blocks: []model.Block{{Kind: model.Text, Text: `{"verdict": "` + v + `", "reason": "read"}`}}}}, nil
}

// judgedRunDir writes a finished run of judgedSuite under a new directory
// and scores it with mondayJudge, as "mcpeval score --judge" does: of the
// judged case's 3 attempts, 2 pass. It returns the root and the run's
// directory.
func judgedRunDir(t *testing.T) (root, dir string) {
	t.Helper()
	root = t.TempDir()
	path := filepath.Join(root, "suite", "judged.yaml")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(judgedSuite), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := suite.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	answers := []answer{{"money/net-worth", rightWorth}, {"agent/plan", "Mon: gym."}, {"agent/plan", "Tue: dentist."}, {"agent/plan", "Mon: run."}}
	h := &record.Header{
		RunID: "judged-run", Start: time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC),
		Model:     model.Info{Spec: "fake:perfect", Provider: "fake", Name: "perfect", Fake: true},
		Suite:     record.SuiteInfo{Name: "view-judged", Path: path, Hash: "abc", Cases: 2},
		Target:    record.TargetInfo{Spec: "builtin:household"},
		Preflight: record.Preflight{Valid: true}, Attempts: 1,
	}
	count := map[string]int{}
	for _, a := range answers {
		count[a.Case]++
		h.Planned = append(h.Planned, record.Planned{Case: a.Case, N: count[a.Case]})
	}
	dir = filepath.Join(root, "runs", "judged")
	w, err := record.Create(dir, h)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, a := range answers {
		seen[a.Case]++
		writeAttempt(t, w, a, seen[a.Case])
	}
	if err := w.End(&record.End{Finish: h.Start.Add(time.Minute), Complete: true}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	rec, err := record.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	g := pipeline.Score(context.Background(), s, rec, pipeline.Options{Judge: judge.New(mondayJudge{}, model.Info{Provider: "script", Name: hostile}), JudgeAsks: 3})
	if j := g.Result.Judged; j == nil || j.Passed != 2 || j.Graded != 3 {
		t.Fatalf("scored with the judge: judged %+v, want 2 of 3", j)
	}
	return root, dir
}

// TestRunPageJudged: the view's run page shows the cases graded by a judge
// apart, as the reports do: their rate with its interval, the judge, and
// its agreement with people — "agreement not measured" until the run's
// agreement.json measures that judge, then its kappa. The judge's name is
// escaped. Graded from the suite (the judge's stored rulings applied) or
// from grades.json, the block is the same.
func TestRunPageJudged(t *testing.T) {
	root, dir := judgedRunDir(t)
	escaped := `judge <span class="mono">script:&lt;script&gt;window.__pwned=1&lt;/script&gt;&lt;img src=x onerror=&#34;window.__pwned=1&#34;&gt;&#34;&#39;&amp;&lt;/textarea&gt;</span>: `
	for _, tc := range []struct {
		name  string
		suite SuiteFunc
	}{{"graded from the suite", testSuite}, {"graded from grades.json", nil}} {
		t.Run(tc.name, func(t *testing.T) {
			_, ts := serve(t, Options{Dirs: []string{root}, Suite: tc.suite, Version: "test"})
			code, page, _ := get(t, ts.URL, "/run/judged-run")
			if code != 200 {
				t.Fatalf("run page: %d\n%s", code, page)
			}
			block := reporttest.JudgedSection(t, page)
			reporttest.Contains(t, "the judged block", block,
				`data-check="as-judged-rate"`,
				"<b>67%</b> passed, as judged (2/3, 95% CI [21%, 94%])", // Wilson
				`<td class="mono">agent/plan</td>`,
				escaped+"<b>agreement not measured</b>",
			)
			for _, r := range raw {
				if strings.Contains(block, r) {
					t.Errorf("the judge's name is not escaped (%q):\n%s", r, block)
				}
			}
		})
	}

	// The judge measured: the same server shows its kappa.
	_, ts := serve(t, Options{Dirs: []string{root}, Suite: testSuite, Version: "test"})
	get(t, ts.URL, "/run/judged-run")
	k, lo, hi, se := 0.62, 0.41, 0.83, 0.1
	saved := &agreement.Saved{Agreement: &agreement.Agreement{N: 40, Kappa: &k, KappaLow: &lo, KappaHigh: &hi, KappaSE: &se, Judges: []string{judgeName}}, Runs: []string{"judged-run"}, Measured: "2026-11-30"}
	if err := agreement.Save(dir, saved); err != nil {
		t.Fatal(err)
	}
	_, page, _ := get(t, ts.URL, "/run/judged-run")
	block := reporttest.JudgedSection(t, page)
	if want := escaped + "kappa 0.62, 95% CI [0.41, 0.83] (n=40"; !strings.Contains(block, want) || strings.Contains(block, "not measured") {
		t.Errorf("with agreement.json, the judged block lacks %q:\n%s", want, block)
	}

	// An agreement that measured another judge measures not this one.
	saved.Judges = []string{"script:another"}
	if err := agreement.Save(dir, saved); err != nil {
		t.Fatal(err)
	}
	_, page, _ = get(t, ts.URL, "/run/judged-run")
	if block := reporttest.JudgedSection(t, page); !strings.Contains(block, "<b>agreement not measured</b>") {
		t.Errorf("an agreement of another judge is shown as this one's:\n%s", block)
	}

	// An unreadable agreement.json is said, and the page still shows.
	if err := os.WriteFile(filepath.Join(dir, "agreement.json"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, page, _ := get(t, ts.URL, "/run/judged-run")
	if code != 200 || !strings.Contains(page, "the judge&#39;s measured agreement could not be read") || !strings.Contains(reporttest.JudgedSection(t, page), "agreement not measured") {
		t.Errorf("an unreadable agreement.json: %d, want the page with a warning:\n%s", code, page)
	}
}

// TestRunPageNotJudged: a run with no case graded by a judge has no
// judged block.
func TestRunPageNotJudged(t *testing.T) {
	_, ts := newTest(t, standardRuns(t))
	if _, page, _ := get(t, ts.URL, "/run/base-run"); strings.Contains(page, "Judged by a model") {
		t.Error("a run with no judged case shows a judged block")
	}
}
