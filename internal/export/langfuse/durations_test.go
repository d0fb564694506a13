package langfuse_test

import (
	"context"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/internal/export/langfuse"
	"github.com/mcpeval/mcpeval/internal/export/otlp"
	"github.com/mcpeval/mcpeval/internal/testkit/otlptest"
	"github.com/mcpeval/mcpeval/internal/testkit/recordtest"
)

// TestToolObservationsLast: Langfuse makes an observation of each span,
// so tool calls kept in whole milliseconds made observations of a
// household run last nothing. Each lasts the microseconds the record
// kept; a record written before they were kept (no duration_us) still
// gives its calls their milliseconds.
func TestToolObservationsLast(t *testing.T) {
	in := graded(recordtest.Household(t))
	for _, c := range []struct {
		name string
		old  bool // drop the microseconds, as records written before them
	}{{"as recorded", false}, {"recorded in milliseconds", true}} { // the last drops them from in
		t.Run(c.name, func(t *testing.T) {
			want := map[string]time.Duration{} // by trace and call id
			for _, it := range in.Attempts {
				for i := range it.Attempt.Turns {
					calls := it.Attempt.Turns[i].Calls
					for j := range calls {
						if c.old {
							calls[j].DurationUS = 0
						}
						d := time.Duration(calls[j].DurationMS) * time.Millisecond
						if !c.old {
							if calls[j].DurationUS <= 0 {
								t.Fatalf("%s #%d: call %s recorded without microseconds", it.Attempt.Case, it.Attempt.N, calls[j].Name)
							}
							d = time.Duration(calls[j].DurationUS) * time.Microsecond
						}
						want[otlp.TraceID(in.Run.Header.RunID, it.Attempt.Case, it.Attempt.N).String()+"/"+calls[j].ID] = d
					}
				}
			}
			if len(want) < 10 {
				t.Fatalf("the household run made %d tool calls, want a run that calls tools", len(want))
			}
			f := newFake(t)
			if _, err := langfuse.Export(context.Background(), client(t, f, nil), in); err != nil {
				t.Fatal(err)
			}
			otlptest.CheckToolDurations(t, f.OTel.Spans(), want, !c.old)
		})
	}
}
