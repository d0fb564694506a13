package judge

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/rundir"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// scripted is a judge model that gives its replies in turn, per answer
// it is asked about: reply(answer, ask) is the ask-th reply for answer.
type scripted struct {
	mu      sync.Mutex
	asked   map[string]int
	reply   func(answer string, ask int) (string, error)
	prompts []string
}

func (s *scripted) Generate(_ context.Context, req *model.Request) (*model.Response, error) {
	text := req.Messages[0].TextOf()
	_, rest, _ := strings.Cut(text, "<answer>\n")
	answer, _, _ := strings.Cut(rest, "\n</answer>")
	s.mu.Lock()
	if s.asked == nil {
		s.asked = map[string]int{}
	}
	n := s.asked[answer]
	s.asked[answer]++
	s.prompts = append(s.prompts, req.System+"\n"+text)
	s.mu.Unlock()
	r, err := s.reply(answer, n)
	if err != nil {
		return nil, err
	}
	return &model.Response{Message: model.Message{Role: model.Assistant, Blocks: []model.Block{{Kind: model.Text, Text: r}}}, Usage: model.Usage{Input: 100, Output: 10}}, nil
}

// replies scripts the same replies for every answer.
func replies(rs ...string) *scripted {
	return &scripted{reply: func(_ string, n int) (string, error) { return rs[n%len(rs)], nil }}
}

const (
	pass = `{"verdict": "pass", "reason": "every day is planned"}`
	fail = `{"verdict": "fail", "reason": "Tuesday is missing"}`
)

var planCase = &suite.Case{ID: "agent/plan", Prompt: "Plan my week.", Judge: &suite.Rubric{Rubric: "Names each day.", PassWhen: "Every day has an item."}, GradedBy: suite.GradedByJudge}

func TestParseVerdict(t *testing.T) {
	for _, tc := range []struct {
		reply  string
		want   grade.Outcome
		reason string
	}{
		{pass, grade.Pass, "every day is planned"},
		{"  \n" + fail + "\n", grade.Fail, "Tuesday is missing"},
		{`{"reason": "", "verdict": "fail"}`, grade.Fail, ""},
	} {
		got, why, err := ParseVerdict(tc.reply)
		if err != nil || got != tc.want || why != tc.reason {
			t.Errorf("ParseVerdict(%q) = %q, %q, %v: want %q, %q", tc.reply, got, why, err, tc.want, tc.reason)
		}
	}
	for _, reply := range []string{
		"",
		"PASS: every day is planned",
		"```json\n" + pass + "\n```",
		"Here is my verdict: " + pass,
		pass + " I hope this helps.",
		pass + pass,
		`{"verdict": "PASS", "reason": "x"}`,
		`{"verdict": "maybe", "reason": "x"}`,
		`{"verdict": true, "reason": "x"}`,
		`{"verdict": "pass"}`,
		`{"reason": "x"}`,
		`{"verdict": "pass", "reason": "x", "confidence": 0.9}`,
		`["pass", "x"]`,
	} {
		if got, _, err := ParseVerdict(reply); err == nil {
			t.Errorf("ParseVerdict(%q) = %q: want an abstention", reply, got)
		}
	}
}

func TestRuleMajorityWithOneDissent(t *testing.T) {
	m := replies(pass, fail, pass)
	j := New(m, model.Info{Provider: "script", Name: "judge"}).(RubricJudge)
	r := j.Rule(context.Background(), planCase, "Plan my week.", "Mon: gym. Wed: dentist.", 3)
	if len(r.Asks) != 3 || len(m.prompts) != 3 {
		t.Fatalf("%d asks recorded, %d made: want 3", len(r.Asks), len(m.prompts))
	}
	for _, want := range []string{RubricPrompt, "<rubric>\nNames each day.\n</rubric>", "<pass_when>\nEvery day has an item.\n</pass_when>", "<answer>\nMon: gym. Wed: dentist.\n</answer>", "<request>\nPlan my week.\n</request>"} {
		if !strings.Contains(r.System+"\n"+r.Prompt, want) {
			t.Errorf("recorded prompt lacks %q:\n%s\n%s", want, r.System, r.Prompt)
		}
	}
	if r.Asks[1].Reply != fail || r.Asks[1].Verdict != grade.Fail || r.Asks[1].Reason != "Tuesday is missing" {
		t.Errorf("second ask %+v", r.Asks[1])
	}
	if r.Usage != (model.Usage{Input: 300, Output: 30}) || r.CostUSD != nil {
		t.Errorf("usage %+v, cost %v: want 300 in, 30 out, unpriced", r.Usage, r.CostUSD)
	}
	jg := r.Judgement()
	if jg.Verdict != grade.Pass || !jg.Split() || jg.Tally() != "2 pass, 1 fail" || jg.Reason != "every day is planned" || jg.Model != "script:judge" {
		t.Errorf("judgement %+v (split %v, tally %q): want a pass by 2 to 1, shown split", jg, jg.Split(), jg.Tally())
	}
	if u := replies(pass).asks(t, 3); u.Split() || u.Verdict != grade.Pass {
		t.Errorf("unanimous judgement %+v reads as split", u)
	}
}

// asks rules on one answer with s and returns the judgement.
func (s *scripted) asks(t *testing.T, n int) grade.Judgement {
	t.Helper()
	return New(s, model.Info{Provider: "script", Name: "judge"}).(RubricJudge).Rule(context.Background(), planCase, "q", "a", n).Judgement()
}

func TestRuleMalformedAnswerAbstains(t *testing.T) {
	m := replies("PASS. Every day is planned.", pass, fail)
	r := New(m, model.Info{Provider: "script", Name: "judge"}).(RubricJudge).Rule(context.Background(), planCase, "q", "a", 3)
	a := r.Asks[0]
	if a.Verdict != "" || a.Reply != "PASS. Every day is planned." || !strings.Contains(a.Abstained, "not the structured verdict") {
		t.Errorf("malformed ask recorded as %+v: want an abstention keeping the reply", a)
	}
	jg := r.Judgement()
	if jg.Verdict != "" || jg.Abstained != 1 || jg.Tally() != "1 pass, 1 fail, 1 abstained" {
		t.Errorf("judgement %+v: want no majority with one abstention", jg)
	}
	// Two readable asks out of three still carry a majority.
	if jg := replies("no idea", pass, pass).asks(t, 3); jg.Verdict != grade.Pass || jg.Abstained != 1 {
		t.Errorf("judgement %+v: want a pass by 2 of 3", jg)
	}
	// A provider failure is an abstention too, with the error kept.
	down := &scripted{reply: func(string, int) (string, error) { return "", errors.New("503 overloaded") }}
	r = New(down, model.Info{Provider: "script", Name: "judge"}).(RubricJudge).Rule(context.Background(), planCase, "q", "a", 3)
	if jg := r.Judgement(); jg.Verdict != "" || jg.Abstained != 3 || !strings.Contains(r.Asks[0].Abstained, "503 overloaded") {
		t.Errorf("judgement %+v, first ask %+v: want three abstentions saying why", jg, r.Asks[0])
	}
}

func TestRulingPriced(t *testing.T) {
	r := New(replies(pass), model.Info{Provider: "anthropic", Name: "claude-haiku-5-5"}).(RubricJudge).Rule(context.Background(), planCase, "q", "a", 2)
	if r.CostUSD == nil || *r.CostUSD <= 0 {
		t.Errorf("cost %v: want the asks priced", r.CostUSD)
	}
}

// planCaseYAML is planCase as a suite writes it, under "cases:".
const planCaseYAML = `
  - id: agent/plan
    prompt: Plan my week.
    judge: {rubric: Names each day., pass_when: Every day has an item.}
    graded_by: judge`

// loadSuite loads a suite from its YAML text, failing the test if it does
// not load.
func loadSuite(t *testing.T, text string) *suite.Suite {
	t.Helper()
	s, err := suite.LoadFS(fstest.MapFS{"s.yaml": {Data: []byte(text)}}, "s.yaml", "s.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

const judgedSuite = `name: j
target: builtin:household
cases:` + planCaseYAML + `
  - id: s/total
    prompt: What's the total?
    figures: [{value: 10}]
    judge: {rubric: States the total., pass_when: The total is stated.}
`

func TestJudgedCaseVerdictFromJudgeRateApart(t *testing.T) {
	s := loadSuite(t, judgedSuite)
	rec := &record.Run{Dir: t.TempDir(), Header: record.Header{Preflight: record.Preflight{Valid: true}}, Attempts: []record.Attempt{
		{Case: "agent/plan", N: 1, Prompt: "Plan my week.", End: record.EndAnswered, Answer: "good plan"},
		{Case: "agent/plan", N: 2, Prompt: "Plan my week.", End: record.EndAnswered, Answer: "bad plan"},
		{Case: "agent/plan", N: 3, Prompt: "Plan my week.", End: record.EndAnswered, Answer: "split plan"},
		{Case: "agent/plan", N: 4, End: record.EndError, Error: &record.Error{Kind: "provider"}},
		{Case: "s/total", N: 1, Prompt: "What's the total?", End: record.EndAnswered, Answer: "The total is 10."},
	}}
	m := &scripted{reply: func(answer string, n int) (string, error) {
		switch answer {
		case "good plan":
			return pass, nil
		case "split plan":
			return []string{pass, fail, "dunno"}[n], nil
		}
		return fail, nil // the judge fails the figure case too: advisory there
	}}
	ops := Ask(context.Background(), New(m, model.Info{Provider: "script", Name: "judge"}), s, rec, 2, 0)
	if len(ops.Rulings) != 4 || len(m.prompts) != 12 {
		t.Fatalf("%d rulings, %d asks: want 4 answered attempts asked 3 times each", len(ops.Rulings), len(m.prompts))
	}
	res := grade.Run(s, rec)
	if res.Judged == nil || res.Judged.Errors != 4 || res.Totals.Graded != 1 || res.Totals.Passed != 1 {
		t.Fatalf("before the judge: judged %+v, totals %+v: want every judged attempt without a verdict and the total the figure case alone", res.Judged, res.Totals)
	}
	Apply(s, res, ops)
	got := map[record.AttemptKey]grade.Outcome{}
	for _, g := range res.Attempts {
		got[record.AttemptKey{Case: g.Case, N: g.N}] = g.Outcome
	}
	want := map[record.AttemptKey]grade.Outcome{
		{Case: "agent/plan", N: 1}: grade.Pass,
		{Case: "agent/plan", N: 2}: grade.Fail,
		{Case: "agent/plan", N: 3}: grade.Error, // 1 pass, 1 fail, 1 abstained: no majority
		{Case: "agent/plan", N: 4}: grade.Error,
		{Case: "s/total", N: 1}:    grade.Pass, // the judge's fail stays advisory
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s graded %s, want %s", k, got[k], w)
		}
	}
	checkJudgedFigures(t, res)
	checkRulingsKept(t, s, rec, ops, res)
}

// checkJudgedFigures checks the figures of grading judgedSuite's run with
// the judge's rulings applied: the judged case's rate kept apart from the
// checked cases', its split attempt shown, and the judge advisory on the
// case with figures.
func checkJudgedFigures(t *testing.T, res *grade.Result) {
	t.Helper()
	j := res.Judged
	if j.Passed != 1 || j.Failed != 1 || j.Errors != 2 || j.Rate != 0.5 {
		t.Errorf("judged counts %+v: want 1 of 2, two without a verdict", *j)
	}
	if res.Totals.Passed != 1 || res.Totals.Graded != 1 || len(res.Groups) != 1 || res.Groups[0].Name != "s" {
		t.Errorf("totals %+v, groups %+v: want the judged case kept out of both", res.Totals, res.Groups)
	}
	if cs := res.Cases[0]; !cs.Judged || cs.Passed != 1 || cs.Graded != 2 || !cs.Inconsistent {
		t.Errorf("judged case stats %+v", cs)
	}
	if split := Split(res); len(split) != 1 || !strings.Contains(split[0], "agent/plan #3") || !strings.Contains(split[0], "1 pass, 1 fail, 1 abstained") {
		t.Errorf("split %q: want agent/plan#3 shown with its tally", split)
	}
	for _, g := range res.Attempts {
		if g.Case == "s/total" && (g.Judged == nil || g.Judged.Verdict != grade.Fail) {
			t.Errorf("advisory judgement on s/total %+v: want it shown beside the pass", g.Judged)
		}
	}
}

// checkRulingsKept checks that the rulings are kept in judge.json, prompt,
// answers and usage, and read back to the same grades res without asking
// again.
func checkRulingsKept(t *testing.T, s *suite.Suite, rec *record.Run, ops Opinions, res *grade.Result) {
	t.Helper()
	if err := Write(rec.Dir, ops); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(rundir.Path(rec.Dir, rundir.Judge))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{`"rubric"`, `"prompt"`, `"reply"`, `"abstained"`, `"usage"`, "Every day has an item."} {
		if !strings.Contains(string(b), w) {
			t.Errorf("judge.json lacks %s", w)
		}
	}
	back, err := Read(rec.Dir)
	if err != nil {
		t.Fatal(err)
	}
	res2 := grade.Run(s, rec)
	Apply(s, res2, back)
	b1, _ := json.Marshal(res)
	b2, _ := json.Marshal(res2)
	if string(b1) != string(b2) {
		t.Errorf("grades from the stored rulings differ:\n%s\n%s", b1, b2)
	}
}
