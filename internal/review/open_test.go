package review

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/testkit/recordtest"
	"github.com/mcpeval/mcpeval/record"
)

// TestOpenKeepsOnlyFailures: reviews read with Open, the run's record read
// as a stream, apply exactly as those read with Load from the whole
// record, and the log keeps the answers of the failed attempts only.
func TestOpenKeepsOnlyFailures(t *testing.T) {
	rec, res := fixture()
	rec.Dir = t.TempDir()
	rd := recordtest.Open(t, rec)
	whole, err := Load(rec)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []Review{
		reviewOf(whole, res, "single/net-worth", 2, ModelFailure),
		reviewOf(whole, res, "unanswerable/price", 1, GraderFalseFail),
	} {
		if err := whole.Add(r); err != nil {
			t.Fatal(err)
		}
	}

	streamed, err := Open(rd, res)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(Apply(res, whole), Apply(res, streamed)); diff != "" {
		t.Errorf("reviews read with Open apply otherwise than with Load (-Load +Open):\n%s", diff)
	}
	for i := range res.Attempts {
		g := &res.Attempts[i]
		if got, want := streamed.Fingerprint(g), whole.Fingerprint(g); g.Outcome == grade.Fail && got != want {
			t.Errorf("%s #%d: fingerprint %s with Open, %s with Load", g.Case, g.N, got, want)
		}
	}
	want := map[record.AttemptKey]string{
		{Case: "single/net-worth", N: 2}:   "about S$2.4M",
		{Case: "single/net-worth", N: 3}:   "S$2.39M",
		{Case: "unanswerable/price", N: 1}: "VOO is US$520",
		{Case: "unanswerable/price", N: 2}: "roughly US$520, an estimate",
	}
	if diff := cmp.Diff(want, streamed.answers); diff != "" {
		t.Errorf("Open kept answers other than the failures' (-want +got):\n%s", diff)
	}
}
