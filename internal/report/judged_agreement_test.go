package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/agreement"
	"github.com/mcpeval/mcpeval/internal/testkit/reporttest"
)

// judgedResult is a run with one checked case and one case graded by its
// judge, 3 of 4 judged attempts passing.
func judgedResult(judge string) *grade.Result {
	res := &grade.Result{RunID: "r", Model: "m", Valid: true,
		Cases: []grade.CaseStats{
			{ID: "s/total", Group: "s", Counts: grade.Counts{Passed: 1, Graded: 1, Rate: 1}},
			{ID: "agent/plan", Group: "s", Judged: true, Counts: grade.Counts{Passed: 3, Failed: 1, Graded: 4, Rate: 0.75}},
		},
		Groups: []grade.GroupStats{{Name: "s", Counts: grade.Counts{Passed: 1, Graded: 1, Rate: 1}}},
		Totals: grade.Totals{Counts: grade.Counts{Passed: 1, Graded: 1, Rate: 1}},
		Judged: &grade.Counts{Passed: 3, Failed: 1, Graded: 4, Rate: 0.75},
	}
	res.Attempts = append(res.Attempts, grade.AttemptGrade{Case: "s/total", N: 1, Outcome: grade.Pass})
	for n := 1; n <= 4; n++ {
		v := grade.Pass
		if n == 4 {
			v = grade.Fail
		}
		res.Attempts = append(res.Attempts, grade.AttemptGrade{Case: "agent/plan", N: n, Outcome: v, Judged: &grade.Judgement{Model: judge, Verdict: v, Pass: 3}})
	}
	return res
}

func measured(judge string) *agreement.Saved {
	k, lo, hi, se := 0.4, 0.15, 0.65, 0.128
	return &agreement.Saved{Agreement: &agreement.Agreement{N: 50, Kappa: &k, KappaLow: &lo, KappaHigh: &hi, KappaSE: &se, Judges: []string{judge}}, Measured: "2026-11-30"}
}

// TestJudgedBlockSaysTheAgreement: the judged cases, apart, name their
// judge and its measured agreement, or say it is not measured, in text
// and in Markdown.
func TestJudgedBlockSaysTheAgreement(t *testing.T) {
	res := judgedResult("anthropic:judge")
	for _, c := range []struct {
		name string
		opts []Option
		want string
	}{
		{"none on file", nil, "judge anthropic:judge: agreement not measured"},
		{"another judge's", []Option{WithAgreement(measured("openai:other"))}, "judge anthropic:judge: agreement not measured"},
		{"measured", []Option{WithAgreement(measured("anthropic:judge"))}, "judge anthropic:judge: kappa 0.40, 95% CI [0.15, 0.65] (n=50"},
	} {
		var txt, md bytes.Buffer
		if err := Text(&txt, res, nil, nil, c.opts...); err != nil {
			t.Fatal(err)
		}
		_, apart, ok := strings.Cut(txt.String(), "judged by a model (graded_by: judge)")
		if !ok || !strings.Contains(apart, c.want) || !strings.Contains(apart, "judged total      3/4") {
			t.Errorf("%s: text judged block lacks %q or its total:\n%s", c.name, c.want, txt.String())
		}
		if err := Markdown(&md, res, nil, nil, c.opts...); err != nil {
			t.Fatal(err)
		}
		table, apart, ok := strings.Cut(md.String(), "#### Judged by a model (graded_by: judge)")
		if !ok {
			t.Fatalf("%s: no judged section in Markdown:\n%s", c.name, md.String())
		}
		if strings.Contains(table, "agent/plan") {
			t.Errorf("%s: the judged case is in the main Markdown table:\n%s", c.name, table)
		}
		reporttest.Contains(t, c.name+": Markdown judged section", apart, "**75% passed, as judged** (3 of 4 graded, 95% CI ", "| agent/plan | 3/4 | 75% |", "| **judged total** | 3/4 |", "- "+mdText(c.want))
	}
}

// TestJudgedMarkdownEscapesTheJudge: a judge model's name is untrusted
// text; it cannot break the Markdown it lands in.
func TestJudgedMarkdownEscapesTheJudge(t *testing.T) {
	res := judgedResult("evil:<img src=x onerror=alert(1)>|`x`")
	var md bytes.Buffer
	if err := Markdown(&md, res, nil, nil); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(md.String(), "<img") || strings.Contains(md.String(), "|`x`") {
		t.Errorf("the judge's name is not escaped:\n%s", md.String())
	}
}
