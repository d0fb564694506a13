package suite

import (
	"strings"
	"testing"
)

func TestJudgeRubricLoads(t *testing.T) {
	dir := t.TempDir()
	body := `name: x
judge_asks: 5
cases:
  - id: agent/plan
    prompt: Plan my week.
    judge:
      rubric: The plan names each day and uses the calendar tool's events.
      pass_when: Every day has at least one item drawn from the calendar.
    graded_by: judge
  - id: money/total
    prompt: What's the total?
    figures: [{value: 10}]
    judge: {rubric: States the total plainly., pass_when: The total is stated once.}
`
	s, err := Load(write(t, dir, "suite.yaml", body))
	if err != nil {
		t.Fatal(err)
	}
	plan, total := s.Case("agent/plan"), s.Case("money/total")
	if plan.Judge == nil || !strings.HasPrefix(plan.Judge.Rubric, "The plan names") || !strings.HasPrefix(plan.Judge.PassWhen, "Every day") || plan.Judge.Line != 7 {
		t.Errorf("rubric %+v", plan.Judge)
	}
	if !plan.JudgedOnly() || total.JudgedOnly() || total.Judge == nil {
		t.Errorf("judged only: plan %v, total %v", plan.JudgedOnly(), total.JudgedOnly())
	}
	if s.JudgeAsksFor() != 5 || (&Suite{}).JudgeAsksFor() != 3 {
		t.Errorf("judge asks %d, default %d", s.JudgeAsksFor(), (&Suite{}).JudgeAsksFor())
	}
}

func TestJudgeLoadErrors(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       []string
	}{
		{"judged case with figures", "name: x\ncases:\n  - id: a/b\n    prompt: p\n    figures: [{value: 1}]\n    judge: {rubric: r, pass_when: w}\n    graded_by: judge\n",
			[]string{"suite.yaml:3: case a/b: graded_by: judge is only for a case with no deterministic check, and this one has figures"}},
		{"judged case with tool rules and an answer check", "name: x\ncases:\n  - id: a/b\n    prompt: p\n    tools: {required: [t]}\n    answer: {contains: [x]}\n    judge: {rubric: r, pass_when: w}\n    graded_by: judge\n",
			[]string{"suite.yaml:3: case a/b: graded_by: judge is only for a case with no deterministic check, and this one has tools, answer"}},
		{"judged decline", "name: x\ncases:\n  - id: a/b\n    prompt: p\n    decline: true\n    judge: {rubric: r, pass_when: w}\n    graded_by: judge\n",
			[]string{"suite.yaml:3: case a/b: graded_by: judge is only for", "has decline"}},
		{"judged without rubric", "name: x\ncases:\n  - id: a/b\n    prompt: p\n    graded_by: judge\n",
			[]string{"suite.yaml:3: case a/b: graded_by: judge needs a rubric"}},
		{"unknown graded_by", "name: x\ncases:\n  - id: a/b\n    prompt: p\n    decline: true\n    graded_by: people\n",
			[]string{`suite.yaml:3: case a/b: graded_by "people": want judge`}},
		{"rubric without pass_when", "name: x\ncases:\n  - id: a/b\n    prompt: p\n    judge:\n      rubric: r\n    graded_by: judge\n",
			[]string{"suite.yaml:6: case a/b: judge has no pass_when"}},
		{"empty rubric", "name: x\ncases:\n  - id: a/b\n    prompt: p\n    decline: true\n    judge: {rubric: ' ', pass_when: w}\n",
			[]string{"suite.yaml:6: case a/b: judge has no rubric"}},
		{"unknown rubric field", "name: x\ncases:\n  - id: a/b\n    prompt: p\n    decline: true\n    judge: {rubric: r, pass_when: w, passes_when: v}\n",
			[]string{"suite.yaml:6:", "passes_when"}},
		{"rubric not a mapping", "name: x\ncases:\n  - id: a/b\n    prompt: p\n    decline: true\n    judge: be fair\n",
			[]string{"suite.yaml:6:", "judge is a mapping: want rubric and pass_when"}},
		{"a rubric alone is no check", "name: x\ncases:\n  - id: a/b\n    prompt: p\n    judge: {rubric: r, pass_when: w}\n",
			[]string{"suite.yaml:3: case a/b: declares no check", "graded_by: judge"}},
		{"negative asks", "name: x\njudge_asks: -1\ncases:\n  - id: a/b\n    prompt: p\n    decline: true\n",
			[]string{"suite.yaml:2: judge_asks is -1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(write(t, t.TempDir(), "suite.yaml", tc.body))
			wantLoadError(t, err, tc.want...)
		})
	}
}
