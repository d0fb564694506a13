package grade

import (
	"testing"

	"github.com/mcpeval/mcpeval/internal/builtin"
	"github.com/mcpeval/mcpeval/record"
)

// benchHouseholdRun is a household run of 3 attempts a case: the key's
// answer over the key's calls (answered with the results captured in
// testdata/household), a refusal, and an invented answer, so that grading
// walks every kind of check and both verdicts.
func benchHouseholdRun(b *testing.B) (*record.Run, int) {
	b.Helper()
	s, err := builtin.LoadSuite("household")
	if err != nil {
		b.Fatal(err)
	}
	hh := loadHousehold(b)
	run := &record.Run{Header: *hh.header(false)}
	for _, c := range s.Cases {
		calls := hh.keyCalls(b, c)
		for n, answer := range []string{c.Key.Answer, refusal, invented} {
			a := answered(c, answer, calls...)
			a.N = n + 1
			run.Attempts = append(run.Attempts, *a)
		}
	}
	return run, len(run.Attempts)
}

// BenchmarkGradeHousehold grades a household run (grade.Run: every check
// of every attempt, then the case and group rates); the figures are per
// run, and ns/attempt per attempt graded.
func BenchmarkGradeHousehold(b *testing.B) {
	s, err := builtin.LoadSuite("household")
	if err != nil {
		b.Fatal(err)
	}
	run, n := benchHouseholdRun(b)
	if res := Run(s, run); res.Totals.Passed == 0 || res.Totals.Passed == res.Totals.Graded {
		b.Fatalf("want passes and fails, got %d of %d passed", res.Totals.Passed, res.Totals.Graded)
	}
	b.ReportAllocs()
	for b.Loop() {
		Run(s, run)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/attempt")
}
