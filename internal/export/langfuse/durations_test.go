package langfuse_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/builtin"
	"github.com/mcpeval/mcpeval/internal/export/langfuse"
	"github.com/mcpeval/mcpeval/internal/export/otlp"
	"github.com/mcpeval/mcpeval/model"
	fakemodel "github.com/mcpeval/mcpeval/model/fake"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/runner"
	"github.com/mcpeval/mcpeval/target"
)

// householdInput runs the household suite once over its in-process server
// with the fake that answers every case as its key does, and makes of the
// record read back the graded run Export takes.
func householdInput(t *testing.T) langfuse.Input {
	t.Helper()
	s, err := builtin.LoadSuite("household")
	if err != nil {
		t.Fatal(err)
	}
	m, err := fakemodel.New("perfect", s)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := runner.Run(context.Background(), runner.Config{
		Suite: s, Target: target.Config{Builtins: builtin.All()}, Model: m,
		ModelInfo: model.Info{Spec: "fake:perfect", Provider: "fake", Name: "perfect", Fake: true},
		Attempts:  1, OutDir: dir, CallTimeout: 30 * time.Second,
	}); err != nil {
		t.Fatal(err)
	}
	rec, err := record.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	res := grade.Run(s, rec)
	in := langfuse.Input{Suite: s, Run: rec}
	for i := range rec.Attempts {
		a := &rec.Attempts[i]
		var g *grade.AttemptGrade
		for j := range res.Attempts {
			if res.Attempts[j].Case == a.Case && res.Attempts[j].N == a.N {
				g = &res.Attempts[j]
			}
		}
		c := s.Case(a.Case)
		in.Attempts = append(in.Attempts, otlp.Attempt{Header: &rec.Header, Attempt: a, Grade: g, Group: c.Group, Dataset: s.DatasetOf(c)})
	}
	return in
}

// TestToolObservationsLast: Langfuse makes an observation of each span,
// so tool calls kept in whole milliseconds made observations of a
// household run last nothing. Each lasts the microseconds the record
// kept; a record written before they were kept (no duration_us) still
// gives its calls their milliseconds.
func TestToolObservationsLast(t *testing.T) {
	in := householdInput(t)
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
			if _, err := langfuse.Export(context.Background(), f.client(t, nil), in); err != nil {
				t.Fatal(err)
			}
			tools := 0
			for _, s := range f.otel.Spans() {
				if !strings.HasPrefix(s.Name, otlp.SpanTool+" ") {
					continue
				}
				tools++
				id, _ := s.Attr("gen_ai.tool.call.id").(string)
				w, ok := want[s.TraceHex()+"/"+id]
				got := time.Duration(s.EndTimeUnixNano - s.StartTimeUnixNano)
				switch {
				case !ok:
					t.Errorf("%s (call %s): an observation of no recorded call", s.Name, id)
				case !c.old && got <= 0:
					t.Errorf("%s (call %s): lasts %s, want more than nothing", s.Name, id, got)
				case got != w:
					t.Errorf("%s (call %s): lasts %s, want the recorded %s", s.Name, id, got, w)
				}
			}
			if tools != len(want) {
				t.Errorf("Langfuse received %d tool observations, want one per recorded call (%d)", tools, len(want))
			}
		})
	}
}
