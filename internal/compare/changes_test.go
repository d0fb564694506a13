package compare

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/record"
)

// TestOptionKeys checks the option names of two runs are listed once each,
// effort first and the rest in order.
func TestOptionKeys(t *testing.T) {
	for _, tc := range []struct {
		a, b map[string]string
		want []string
	}{
		{map[string]string{"temperature": "0", "effort": "high"}, map[string]string{"budget": "1", "temperature": "1"}, []string{"effort", "budget", "temperature"}},
		{map[string]string{"b": "1"}, map[string]string{"a": "1", "effort": "low"}, []string{"effort", "a", "b"}},
		{map[string]string{"b": "1"}, map[string]string{"a": "1"}, []string{"a", "b"}},
		{map[string]string{"effort": "x"}, nil, []string{"effort"}},
		{nil, nil, []string{}},
	} {
		if got := optionKeys(tc.a, tc.b); !slices.Equal(got, tc.want) {
			t.Errorf("optionKeys(%v, %v) = %q, want %q", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestSettingsChanged: the run settings that decide how attempts overlap
// (concurrency, the target pool, how model requests in flight were
// limited) are listed when they differ.
func TestSettingsChanged(t *testing.T) {
	s := testSuite(1)
	base := testRun(s, "base", allPass)
	nw := testRun(s, "new", allPass)
	base.Header.Concurrency, nw.Header.Concurrency = 1, 4
	base.Header.TargetPool, nw.Header.TargetPool = 0, 2
	base.Header.InFlight = &record.InFlight{Adaptive: false, Initial: 1, Max: 1}
	nw.Header.InFlight = &record.InFlight{Adaptive: true, Initial: 4, Max: 4}
	c := Compare(base, nw, grade.Run(s, base), grade.Run(s, nw))
	want := []Change{
		{What: "concurrency", Base: "1", New: "4"},
		{What: "target pool", Base: "none shared", New: "2"},
		{What: "model requests in flight", Base: "fixed", New: "adaptive"},
	}
	if diff := cmp.Diff(want, c.Changes); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
	if same := Compare(base, base, grade.Run(s, base), grade.Run(s, base)); same.HasChanges() {
		t.Errorf("a run compared with itself has changes: %+v", same.Changes)
	}
}
