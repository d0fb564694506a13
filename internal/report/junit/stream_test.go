package junit

import (
	"bytes"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestDurationsForAStreamedRun: a run read as a stream holds no attempts;
// given the per-case durations, it writes the XML of the run read whole.
func TestDurationsForAStreamedRun(t *testing.T) {
	r, res := testRun(t)
	var whole, streamed bytes.Buffer
	if err := Write(&whole, Run{Record: r, Result: res}); err != nil {
		t.Fatal(err)
	}
	dur := map[string]time.Duration{}
	for _, a := range r.Attempts {
		dur[a.Case] += time.Duration(a.DurationMS) * time.Millisecond
	}
	slim := *r
	slim.Attempts = nil
	if err := Write(&streamed, Run{Record: &slim, Result: res, Durations: dur}); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(whole.String(), streamed.String()); d != "" {
		t.Errorf("XML (-whole +streamed):\n%s", d)
	}
}
