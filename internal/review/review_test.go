package review

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/stats"
)

// fixture is a graded run of six attempts of two cases: one pass, four
// fails and one error.
func fixture() (*record.Run, *grade.Result) {
	rec := &record.Run{Header: record.Header{RunID: "run-1"}}
	res := &grade.Result{RunID: "run-1", Valid: true}
	add := func(c, group string, n int, o grade.Outcome, answer string, reasons ...grade.Reason) {
		rec.Attempts = append(rec.Attempts, record.Attempt{Case: c, N: n, Answer: answer})
		res.Attempts = append(res.Attempts, grade.AttemptGrade{Case: c, N: n, Outcome: o, Reasons: reasons})
	}
	fig := grade.Reason{Check: grade.CheckFigures, Message: "expected SGD 2,394,755 (±1%); answer states S$2.4M"}
	inv := grade.Reason{Check: grade.CheckInvented, Message: "US$520 is not in the tool results"}
	add("single/net-worth", "single", 1, grade.Pass, "SGD 2,394,755")
	add("single/net-worth", "single", 2, grade.Fail, "about S$2.4M", fig)
	add("single/net-worth", "single", 3, grade.Fail, "S$2.39M", fig)
	add("unanswerable/price", "unanswerable", 1, grade.Fail, "VOO is US$520", inv)
	add("unanswerable/price", "unanswerable", 2, grade.Fail, "roughly US$520, an estimate", inv)
	add("unanswerable/price", "unanswerable", 3, grade.Error, "")
	res.Cases = []grade.CaseStats{{ID: "single/net-worth", Group: "single"}, {ID: "unanswerable/price", Group: "unanswerable"}}
	res.Groups = []grade.GroupStats{{Name: "single"}, {Name: "unanswerable"}}
	return rec, res
}

func reviewOf(l *Log, res *grade.Result, c string, n int, v Verdict) Review {
	for i := range res.Attempts {
		g := &res.Attempts[i]
		if g.Case == c && g.N == n {
			return Review{RunID: l.RunID, Case: c, N: n, Fingerprint: l.Fingerprint(g), Verdict: v, Note: "because", Reviewer: "ana", Time: time.Date(2026, 10, 2, 0, 0, 0, 0, time.UTC)}
		}
	}
	panic("no attempt " + c)
}

// verdict is a person's reading of attempt n of case c.
type verdict struct {
	c string
	n int
	v Verdict
}

// reviewed is the fixture graded, with a log of its run holding a review
// per verdict, added in order.
func reviewed(t *testing.T, vs ...verdict) (*Log, *grade.Result) {
	t.Helper()
	rec, res := fixture()
	l := New(rec, nil)
	for _, v := range vs {
		if err := l.Add(reviewOf(l, res, v.c, v.n, v.v)); err != nil {
			t.Fatal(err)
		}
	}
	return l, res
}

// TestOnlyGraderFalseFailsBecomePasses checks the reviewed rate: a grader
// false fail counts as a pass; a model failure, a questioned expectation
// and an unreviewed failure stay failures; errors stay out of both rates.
func TestOnlyGraderFalseFailsBecomePasses(t *testing.T) {
	l, res := reviewed(t,
		verdict{"single/net-worth", 2, GraderFalseFail},
		verdict{"single/net-worth", 3, ModelFailure},
		verdict{"unanswerable/price", 1, ExpectationInQuestion})
	rv := Apply(res, l)
	counts := func(p, f, e int) grade.Counts {
		lo, hi := stats.Wilson(p, p+f)
		return grade.Counts{Passed: p, Failed: f, Errors: e, Graded: p + f, Rate: float64(p) / float64(p+f), WilsonLow: lo, WilsonHigh: hi}
	}
	if d := cmp.Diff(counts(1, 4, 1), rv.AsGraded); d != "" {
		t.Errorf("as graded (-want +got):\n%s", d)
	}
	if d := cmp.Diff(counts(2, 3, 1), rv.AfterReview); d != "" {
		t.Errorf("after review (-want +got):\n%s", d)
	}
	got := [5]int{rv.Failures, rv.GraderFalseFails, rv.ModelFailures, rv.ExpectationsInQuestion, rv.Unreviewed}
	if got != [5]int{4, 1, 1, 1, 1} {
		t.Errorf("failures, g, m, e, unreviewed = %v, want [4 1 1 1 1]", got)
	}
	if g := rv.Groups[0]; g.Name != "single" || g.AsGraded.Passed != 1 || g.AfterReview.Passed != 2 || g.AfterReview.Graded != 3 {
		t.Errorf("group single: %+v", g)
	}
	if g := rv.Groups[1]; g.AsGraded.Passed != 0 || g.AfterReview.Passed != 0 || g.AfterReview.Errors != 1 {
		t.Errorf("group unanswerable: a questioned expectation became a pass, or the error was counted: %+v", g)
	}
	if c := rv.Cases[0]; c.Name != "single/net-worth" || c.AfterReview.Passed != 2 {
		t.Errorf("case single/net-worth: %+v", c)
	}
}

// TestStale checks that a review survives grading again when the attempt
// fails the same way, and goes stale (counting as not reviewed) when it
// passes, ends in an error, fails for other reasons, or was made on
// another run.
func TestStale(t *testing.T) {
	l, res := reviewed(t,
		verdict{"single/net-worth", 2, GraderFalseFail},
		verdict{"single/net-worth", 3, GraderFalseFail},
		verdict{"unanswerable/price", 1, ModelFailure},
		verdict{"unanswerable/price", 2, ModelFailure})
	other := reviewOf(l, res, "unanswerable/price", 2, GraderFalseFail)
	other.RunID = "run-0"
	l.Reviews = append(l.Reviews, other)

	// Grade again: #2 is the same failure; #3 now passes; price #1 fails
	// for another reason; price #2 ends in an error.
	_, again := fixture()
	again.Attempts[2] = grade.AttemptGrade{Case: "single/net-worth", N: 3, Outcome: grade.Pass}
	again.Attempts[3].Reasons = []grade.Reason{{Check: grade.CheckDecline, Message: "the answer does not say the data cannot answer"}}
	again.Attempts[4] = grade.AttemptGrade{Case: "unanswerable/price", N: 2, Outcome: grade.Error, Reasons: []grade.Reason{{Check: grade.CheckError, Message: "timeout"}}}
	rv := Apply(again, l)

	var statuses []string
	for _, e := range rv.Entries {
		statuses = append(statuses, e.Key().String()+" "+string(e.Status)+" "+e.Why)
	}
	want := []string{
		"single/net-worth #2 current ",
		"single/net-worth #3 stale the attempt now passes",
		"unanswerable/price #1 stale the attempt now fails for other reasons",
		"unanswerable/price #2 stale the attempt now ends in an error",
		"unanswerable/price #2 stale made on run run-0, not this one",
	}
	if d := cmp.Diff(want, statuses); d != "" {
		t.Errorf("statuses (-want +got):\n%s", d)
	}
	if rv.Failures != 2 || rv.GraderFalseFails != 1 || rv.ModelFailures != 0 || rv.Unreviewed != 1 {
		t.Errorf("failures %d, g %d, m %d, unreviewed %d; want 2, 1, 0, 1", rv.Failures, rv.GraderFalseFails, rv.ModelFailures, rv.Unreviewed)
	}
	if rv.AfterReview.Passed != rv.AsGraded.Passed+1 {
		t.Errorf("after review %d passed, as graded %d: a stale grader false fail must not count", rv.AfterReview.Passed, rv.AsGraded.Passed)
	}
	if a := rv.Attempt("unanswerable/price", 1); a == nil || a.Review != nil || len(a.Stale) != 1 {
		t.Errorf("price #1: %+v", a)
	}
	if rv.StaleReviews != 3 {
		t.Errorf("StaleReviews = %d, want 3 (net-worth #3, price #1, price #2)", rv.StaleReviews)
	}
}

// TestLaterReviewReplaces checks that the last review of a failure is the
// one that counts.
func TestLaterReviewReplaces(t *testing.T) {
	l, res := reviewed(t,
		verdict{"single/net-worth", 2, GraderFalseFail},
		verdict{"single/net-worth", 2, ModelFailure})
	rv := Apply(res, l)
	if rv.Entries[0].Status != Replaced || rv.Entries[1].Status != Current {
		t.Errorf("statuses %s, %s; want replaced, current", rv.Entries[0].Status, rv.Entries[1].Status)
	}
	if rv.GraderFalseFails != 0 || rv.ModelFailures != 1 || rv.AfterReview.Passed != 1 {
		t.Errorf("g %d m %d after %d", rv.GraderFalseFails, rv.ModelFailures, rv.AfterReview.Passed)
	}
}

func TestFingerprint(t *testing.T) {
	r := []grade.Reason{{Check: "figures", Message: "off"}}
	a := Fingerprint("S$2.4M", r)
	if a != Fingerprint("S$2.4M", []grade.Reason{{Check: "figures", Message: "off"}}) {
		t.Error("the same failure gives another fingerprint")
	}
	for _, other := range []string{
		Fingerprint("S$2.5M", r),
		Fingerprint("S$2.4M", []grade.Reason{{Check: "figures", Message: "off by more"}}),
		Fingerprint("S$2.4M", []grade.Reason{{Check: "invented", Message: "off"}}),
		Fingerprint("S$2.4M", append(r, grade.Reason{Check: "decline", Message: "x"})),
	} {
		if other == a {
			t.Error("a different answer or reasons give the same fingerprint")
		}
	}
}

// TestFile checks the reviews file: appended, read back, a torn last
// line passed over and cut off before the next review, a bad line
// located.
func TestFile(t *testing.T) {
	dir := t.TempDir()
	rec, res := fixture()
	rec.Dir = dir
	l, err := Load(rec)
	if err != nil || len(l.Reviews) != 0 {
		t.Fatalf("Load with no file: %v, %d reviews", err, len(l.Reviews))
	}
	first := reviewOf(l, res, "single/net-worth", 2, GraderFalseFail)
	if err := l.Add(first); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, FileName)
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"run_id":"run-1","case":"single/net`) // a crash mid-write
	f.Close()
	l2, err := Load(rec)
	if err != nil || len(l2.Reviews) != 1 || len(l2.Warnings) != 1 || !strings.Contains(l2.Warnings[0], "reviews.jsonl:2: torn") {
		t.Fatalf("Load after a torn line: %v, %d reviews, warnings %q", err, len(l2.Reviews), l2.Warnings)
	}
	if err := l2.Add(reviewOf(l2, res, "unanswerable/price", 1, ModelFailure)); err != nil {
		t.Fatal(err)
	}
	l3, err := Load(rec)
	if err != nil {
		t.Fatal(err)
	}
	if len(l3.Reviews) != 2 || l3.Reviews[1].Verdict != ModelFailure {
		t.Fatalf("after a torn line, the next review was lost: %+v", l3.Reviews)
	}
	if d := cmp.Diff(first, l3.Reviews[0]); d != "" {
		t.Errorf("read back (-want +got):\n%s", d)
	}
	if len(l3.Warnings) != 0 {
		t.Errorf("the torn line was not cut off: %q", l3.Warnings)
	}
	os.WriteFile(p, []byte("{\"case\":\"x\",\"attempt\":1}\n"), 0o644)
	if _, err := Load(rec); err == nil || !strings.Contains(err.Error(), "reviews.jsonl:1: not a review") {
		t.Errorf("a review without a fingerprint: %v", err)
	}
}

func TestCheck(t *testing.T) {
	ok := Review{Case: "c", N: 1, Fingerprint: "f", Verdict: ModelFailure, Note: "n", Reviewer: "r"}
	if err := ok.Check(); err != nil {
		t.Fatal(err)
	}
	for name, mut := range map[string]func(*Review){
		"no note":     func(r *Review) { r.Note = "  " },
		"no reviewer": func(r *Review) { r.Reviewer = "" },
		"bad verdict": func(r *Review) { r.Verdict = "pass" },
		"no attempt":  func(r *Review) { r.N = 0 },
	} {
		r := ok
		mut(&r)
		if r.Check() == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	for in, want := range map[string]Verdict{"m": ModelFailure, "G": GraderFalseFail, "expectation in question": ExpectationInQuestion, "grader_false_fail": GraderFalseFail} {
		if v, err := ParseVerdict(in); err != nil || v != want {
			t.Errorf("ParseVerdict(%q) = %q, %v", in, v, err)
		}
	}
	if _, err := ParseVerdict("pass"); err == nil {
		t.Error("ParseVerdict(pass) accepted")
	}
}
