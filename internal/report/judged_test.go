package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/grade"
)

func TestTextShowsJudgedCasesApart(t *testing.T) {
	res := &grade.Result{RunID: "r", Model: "m", Valid: true,
		Attempts: []grade.AttemptGrade{
			{Case: "s/total", N: 1, Outcome: grade.Pass},
			{Case: "agent/plan", N: 1, Outcome: grade.Pass, Judged: &grade.Judgement{Model: "script:judge", Verdict: grade.Pass, Pass: 2, Fail: 1}},
			{Case: "agent/plan", N: 2, Outcome: grade.Error, ErrorKind: grade.ErrorNoVerdict, Reasons: []grade.Reason{{Check: grade.CheckJudge, Message: "no majority verdict: judge script:judge: 1 pass, 1 fail, 1 abstained"}}},
		},
		Cases: []grade.CaseStats{
			{ID: "s/total", Group: "s", Counts: grade.Counts{Passed: 1, Graded: 1, Rate: 1}},
			{ID: "agent/plan", Group: "s", Judged: true, Counts: grade.Counts{Passed: 1, Errors: 1, Graded: 1, Rate: 1}},
		},
		Groups: []grade.GroupStats{{Name: "s", Counts: grade.Counts{Passed: 1, Graded: 1, Rate: 1}}},
		Totals: grade.Totals{Counts: grade.Counts{Passed: 1, Graded: 1, Rate: 1}},
		Judged: &grade.Counts{Passed: 1, Errors: 1, Graded: 1, Rate: 1},
	}
	var b bytes.Buffer
	if err := Text(&b, res, nil, nil); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	table, apart, ok := strings.Cut(out, "judged by a model (graded_by: judge)")
	if !ok {
		t.Fatalf("no judged block:\n%s", out)
	}
	if strings.Contains(table, "agent/plan") {
		t.Errorf("the judged case is in the main table:\n%s", table)
	}
	for _, want := range []string{"agent/plan", "judged total", "agent/plan #1: judge script:judge split (2 pass, 1 fail), majority pass", "agent/plan #2: no majority verdict"} {
		if !strings.Contains(apart, want) {
			t.Errorf("judged block lacks %q:\n%s", want, apart)
		}
	}
	res.Judged = nil
	b.Reset()
	Text(&b, res, nil, nil)
	if strings.Contains(b.String(), "judged by a model") {
		t.Errorf("a run with no judged case shows a judged block:\n%s", b.String())
	}
}
