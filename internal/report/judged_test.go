package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/testkit/reporttest"
)

// TestTextShowsJudgedCasesApart: the text report shows the cases graded by
// a judge below the table, not in it, with each attempt whose judge split
// or gave no majority.
func TestTextShowsJudgedCasesApart(t *testing.T) {
	res := judgedResult("script:judge")
	// Attempt #1's judge split; a fifth attempt got no majority verdict.
	res.Attempts[1].Judged = &grade.Judgement{Model: "script:judge", Verdict: grade.Pass, Pass: 2, Fail: 1}
	res.Attempts = append(res.Attempts, grade.AttemptGrade{Case: "agent/plan", N: 5, Outcome: grade.Error, ErrorKind: grade.ErrorNoVerdict, Reasons: []grade.Reason{{Check: grade.CheckJudge, Message: "no majority verdict: judge script:judge: 1 pass, 1 fail, 1 abstained"}}})
	res.Cases[1].Counts.Errors++
	res.Judged.Errors++
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
	reporttest.Contains(t, "judged block", apart, "agent/plan", "judged total", "agent/plan #1: judge script:judge split (2 pass, 1 fail), majority pass", "agent/plan #5: no majority verdict")
	res.Judged = nil
	b.Reset()
	Text(&b, res, nil, nil)
	if strings.Contains(b.String(), "judged by a model") {
		t.Errorf("a run with no judged case shows a judged block:\n%s", b.String())
	}
}
