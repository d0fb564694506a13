package grade

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// streamed grades the record in dir attempt by attempt, as a run too large
// to hold is graded.
func streamed(t *testing.T, s *suite.Suite, dir string) *Result {
	t.Helper()
	rd, err := record.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	g := NewGrader(s, rd.Run())
	if err := rd.Each(func(a *record.Attempt) error { g.Add(a); return nil }); err != nil {
		t.Fatal(err)
	}
	return g.Result()
}

// TestGraderMatchesRun grades records read whole (Run) and as a stream
// (Grader over record.Open): the results are the same, retries,
// duplicates, cases the suite lacks, a torn line and an unfinished run
// included.
func TestGraderMatchesRun(t *testing.T) {
	s := loadSuite(t)
	r := testRun(t)
	dir := t.TempDir()
	w, err := record.Create(dir, &r.Header)
	if err != nil {
		t.Fatal(err)
	}
	for i := range r.Attempts {
		a := r.Attempts[i]
		if a.End == record.EndError {
			// Recorded twice, errored both times: the later one counts.
			w.Attempt(&record.Attempt{Case: a.Case, N: a.N, End: record.EndError, Error: &record.Error{Kind: record.KindTarget, Message: "first try"}})
		}
		if err := w.Attempt(&a); err != nil {
			t.Fatal(err)
		}
	}
	w.Attempt(&r.Attempts[0]) // a duplicate: ignored with a warning
	w.Close()
	f, _ := os.OpenFile(filepath.Join(dir, record.FileName), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"attempt":{"case":"single-tool/net`) // torn
	f.Close()

	whole, err := record.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := Run(s, whole)
	if len(want.Warnings) < 3 {
		t.Fatalf("warnings %q: the record should have a torn line, a duplicate and an unfinished run", want.Warnings)
	}
	if d := cmp.Diff(want, streamed(t, s, dir)); d != "" {
		t.Errorf("Grader differs from Run (-Run +Grader):\n%s", d)
	}

	// The report package's fixtures: a finished run, and an invalid one.
	rs, err := suite.Load(filepath.Join("..", "internal", "report", "testdata", "suite.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"record.jsonl", "invalid.jsonl"} {
		p := filepath.Join("..", "internal", "report", "testdata", name)
		whole, err := record.Read(p)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(Run(rs, whole), streamed(t, rs, p)); d != "" {
			t.Errorf("%s: Grader differs from Run (-Run +Grader):\n%s", name, d)
		}
	}
}

// TestGraderKeepsNoAttempt: what a Grader holds per attempt is its
// verdict, never its transcript or answer.
func TestGraderKeepsNoAttempt(t *testing.T) {
	s := loadSuite(t)
	r := testRun(t)
	g := NewGrader(s, &record.Run{Header: r.Header, End: &record.End{Complete: true}})
	for i := range r.Attempts {
		a := r.Attempts[i]
		g.Add(&a)
		a.Answer, a.Turns = "overwritten", nil // the caller reuses its attempt
	}
	if d := cmp.Diff(Run(s, r), g.Result(), cmp.FilterPath(func(p cmp.Path) bool { return p.String() == "Warnings" }, cmp.Ignore())); d != "" {
		t.Errorf("Grader depends on attempts after Add (-Run +Grader):\n%s", d)
	}
}

// TestGraderOrdersAttempts: attempts added in any order (a run's workers
// finish out of order) come out in suite order, each case's by number,
// attempts of the same number in the order added.
func TestGraderOrdersAttempts(t *testing.T) {
	s := loadSuite(t)
	r := testRun(t)
	g := NewGrader(s, &record.Run{Header: r.Header, End: &record.End{Complete: true}})
	var added []AttemptGrade
	add := func(a record.Attempt) {
		g.Add(&a)
		added = append(added, Attempt(s, s.Case(a.Case), &r.Header, &a))
	}
	for i := len(r.Attempts) - 1; i >= 0; i-- {
		a := r.Attempts[i]
		add(a)
		a.N += 7
		add(a)
		if i%3 == 0 {
			a.N -= 7
			a.End, a.Error = record.EndError, &record.Error{Kind: record.KindTarget, Message: "again"}
			add(a) // a second attempt of the same number, after the first
		}
	}
	var want []string
	for _, c := range s.Cases {
		var as []AttemptGrade
		for _, a := range added {
			if a.Case == c.ID {
				as = append(as, a)
			}
		}
		sort.SliceStable(as, func(i, j int) bool { return as[i].N < as[j].N })
		for _, a := range as {
			want = append(want, fmt.Sprintf("%s#%d %s", a.Case, a.N, a.Outcome))
		}
	}
	var got []string
	for _, a := range g.Result().Attempts {
		got = append(got, fmt.Sprintf("%s#%d %s", a.Case, a.N, a.Outcome))
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("the attempts' order (-want +got):\n%s", d)
	}
}

// countedOnly grades the record in dir as streamed does, with a counting
// grader (NewCounter).
func countedOnly(t *testing.T, s *suite.Suite, dir string) *Result {
	t.Helper()
	rd, err := record.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	g := NewCounter(s, rd.Run())
	if err := rd.Each(func(a *record.Attempt) error { g.Add(a); return nil }); err != nil {
		t.Fatal(err)
	}
	return g.Result()
}

// TestCounterMatchesGrader: a counting grader's result is a grader's
// without the attempts, errors by kind, a case graded by its judge, cases
// the suite lacks and an invalid run included.
func TestCounterMatchesGrader(t *testing.T) {
	s := loadSuite(t)
	r := testRun(t)
	// One case graded by its judge: its counts are kept apart.
	s.Cases[0].GradedBy = suite.GradedByJudge
	dir := t.TempDir()
	w, err := record.Create(dir, &r.Header)
	if err != nil {
		t.Fatal(err)
	}
	for i := range r.Attempts {
		if err := w.Attempt(&r.Attempts[i]); err != nil {
			t.Fatal(err)
		}
	}
	w.Attempt(&record.Attempt{Case: "no-such-case", N: 1, End: record.EndAnswered})
	w.Close()
	rs, err := suite.Load(filepath.Join("..", "internal", "report", "testdata", "suite.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		s   *suite.Suite
		dir string
	}{
		{s, dir},
		{rs, filepath.Join("..", "internal", "report", "testdata", "record.jsonl")},
		{rs, filepath.Join("..", "internal", "report", "testdata", "invalid.jsonl")},
	} {
		want := streamed(t, tc.s, tc.dir)
		if len(want.Attempts) == 0 && want.Valid {
			t.Fatalf("%s: no attempt graded", tc.dir)
		}
		want.Attempts = []AttemptGrade{}
		got := countedOnly(t, tc.s, tc.dir)
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s: counting grader differs (-Grader +counting):\n%s", tc.dir, d)
		}
	}
	res := streamed(t, s, dir)
	if res.Judged == nil || res.Totals.Errors == 0 || len(res.Totals.ErrorKinds) == 0 {
		t.Errorf("the test run should have a judged case and errors by kind: judged %v, totals %+v", res.Judged, res.Totals)
	}
	if res := streamed(t, rs, filepath.Join("..", "internal", "report", "testdata", "record.jsonl")); res.Totals.Failed == 0 || res.Totals.Passed == 0 {
		t.Errorf("the report's run should have passes and failures: totals %+v", res.Totals)
	}
}

// TestCounterRoomDoesNotGrowWithPlan: a counting grader makes no room for
// a verdict per planned attempt, since it keeps none: starting one for a
// run that plans 100,000 attempts allocates what starting one for a run
// of its few attempts does, within 1 MB.
func TestCounterRoomDoesNotGrowWithPlan(t *testing.T) {
	s := loadSuite(t)
	r := testRun(t)
	big := *r
	big.Header.Planned = nil
	for n := 1; len(big.Header.Planned) < 100_000; n++ {
		for _, a := range r.Attempts {
			big.Header.Planned = append(big.Header.Planned, record.Planned{Case: a.Case, N: n})
		}
	}
	allocated := func(r *record.Run) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		g := NewCounter(s, r)
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(g)
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := allocated(r), allocated(&big)
	if large > small+1<<20 {
		t.Errorf("NewCounter allocated %d bytes for a run planning %d attempts, %d for one planning %d: want within 1 MB", large, len(big.Header.Planned), small, len(r.Header.Planned))
	}
	if !big.Header.Preflight.Valid {
		t.Fatal("the run is not valid: no verdict would be made room for")
	}
}
