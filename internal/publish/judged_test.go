package publish

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/agreement"
	"github.com/mcpeval/mcpeval/internal/judge"
	"github.com/mcpeval/mcpeval/record"
)

// judgedSetup is the test run against a copy of its suite whose
// fixed-deposit case is graded by its judge, anthropic:judge, whose stored
// rulings pass two of its three attempts (the record's third ended in an
// error, which stays one).
func judgedSetup(t *testing.T) *env {
	t.Helper()
	b, err := os.ReadFile("testdata/suite.yaml")
	if err != nil {
		t.Fatal(err)
	}
	y := strings.Replace(string(b), `    prompt: How much is in the fixed deposit?
    tools: {accepted: [get_accounts]}
    figures:
      - {value: 210000, currency: SGD}`, `    prompt: How much is in the fixed deposit?
    judge: {rubric: Says how much is in the fixed deposit., pass_when: The answer states the amount.}
    graded_by: judge`, 1)
	if y == string(b) {
		t.Fatal("the test suite no longer has the fixed-deposit case as this test expects")
	}
	path := filepath.Join(t.TempDir(), "suite.yaml")
	os.WriteFile(path, []byte(y), 0o644)
	e := setup(t, path)
	ops := judge.Opinions{Rulings: map[record.AttemptKey]judge.Ruling{}}
	for n, v := range []grade.Outcome{grade.Pass, grade.Pass, grade.Fail} {
		ops.Rulings[record.AttemptKey{Case: "single-tool/fixed-deposit", N: n + 1}] = judge.Ruling{Model: "anthropic:judge",
			Asks: []judge.Reading{{Verdict: v, Reason: "read it"}, {Verdict: v, Reason: "read it"}, {Verdict: v, Reason: "read it"}}}
	}
	if err := judge.Write(e.rec.Dir, ops); err != nil {
		t.Fatal(err)
	}
	return e
}

func refusedBy(out *Outcome, rule string) *Refusal {
	for i := range out.Refusals {
		if out.Refusals[i].Rule == rule {
			return &out.Refusals[i]
		}
	}
	return nil
}

// TestUnmeasuredJudgeRefused: a run with cases graded by a judge whose
// agreement with people is not measured is not published, and the refusal
// says how to measure it; an agreement measured for another judge does
// not do.
func TestUnmeasuredJudgeRefused(t *testing.T) {
	e := judgedSetup(t)
	out := e.publish()
	r := refusedBy(out, "unmeasured-judge")
	if r == nil {
		t.Fatalf("refusals %v: want unmeasured-judge", out.Refusals)
	}
	for _, want := range []string{"anthropic:judge", "agreement with people is not measured", "mcpeval review " + e.rec.Dir, "mcpeval judge-agreement " + e.rec.Dir + " --save"} {
		if !strings.Contains(r.Message, want) {
			t.Errorf("refusal %q lacks %q", r.Message, want)
		}
	}
	if _, err := os.Stat(e.opts.Ledger); err == nil {
		t.Error("a refused run wrote the ledger")
	}
	k := 0.5
	agreement.Save(e.rec.Dir, &agreement.Saved{Agreement: &agreement.Agreement{N: 20, Kappa: &k, Judges: []string{"openai:other"}}, Measured: "2026-11-30"})
	if out := e.publish(); refusedBy(out, "unmeasured-judge") == nil {
		t.Errorf("another judge's agreement let the run through: %v", out.Refusals)
	}
}

// TestMeasuredJudgePublished: with the judge's agreement measured, the row
// carries the judged rate apart, with the kappa and its interval beside
// it, in the ledger and on its page.
func TestMeasuredJudgePublished(t *testing.T) {
	e := judgedSetup(t)
	k, lo, hi := 0.62, 0.41, 0.83
	if err := agreement.Save(e.rec.Dir, &agreement.Saved{Agreement: &agreement.Agreement{N: 40, Kappa: &k, KappaLow: &lo, KappaHigh: &hi, Judges: []string{"anthropic:judge"}}, Runs: []string{e.rec.Header.RunID}, Measured: "2026-11-30"}); err != nil {
		t.Fatal(err)
	}
	out := e.publish()
	if len(out.Refusals) > 0 {
		t.Fatalf("refused: %v", out.Refusals)
	}
	j := out.Row.Judged
	if j == nil || j.Counts.Passed != 1 || j.Counts.Graded != 2 || j.Counts.Errors != 1 || len(j.Judges) != 1 || j.Judges[0].Model != "anthropic:judge" || j.Judges[0].Kappa != 0.62 || *j.Judges[0].KappaLow != 0.41 {
		t.Fatalf("row judged %+v: want 1 of 2 judged (and an error) with the judge's kappa 0.62 [0.41, 0.83]", j)
	}
	if out.Row.AsGraded.Graded+out.Row.AsGraded.Errors+3 > out.Row.Attempts {
		t.Errorf("as graded %+v over %d attempts: the judged attempts must be apart", out.Row.AsGraded, out.Row.Attempts)
	}
	l, err := ReadLedger(e.opts.Ledger)
	if err != nil || len(l.Rows) != 1 || l.Rows[0].Judged == nil || l.Rows[0].Judged.Judges[0].Kappa != 0.62 {
		t.Fatalf("ledger %+v (%v)", l, err)
	}
	page, err := os.ReadFile(filepath.Join(e.opts.Site, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"judged 1/2 50% [", "; judge anthropic:judge kappa 0.62 [0.41, 0.83] (n=40)"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("ledger page lacks %q", want)
		}
	}
	if problems, err := Check(e.opts.Ledger, e.opts.Site); err != nil || len(problems) > 0 {
		t.Errorf("check: %v %v", problems, err)
	}
}
