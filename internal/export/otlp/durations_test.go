package otlp_test

import (
	"context"
	"math"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/internal/export/otlp"
	"github.com/mcpeval/mcpeval/internal/testkit/otlptest"
	"github.com/mcpeval/mcpeval/internal/testkit/recordtest"
	"github.com/mcpeval/mcpeval/record"
)

// TestHouseholdToolSpansLast: the household server answers a tool call
// within a millisecond, so a record kept in whole milliseconds made every
// execute_tool span last 0 µs (a back end such as Jaeger warns of each).
// Exported from a real run, each tool span lasts the microseconds the
// record kept, more than nothing, and the tool-time metric adds them up.
func TestHouseholdToolSpansLast(t *testing.T) {
	_, rec := recordtest.Household(t)
	r := otlptest.NewReceiver(t)
	e, err := otlp.NewExporter(otlp.Options{Endpoint: r.URL, Metrics: true, MetricsInterval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]time.Duration{} // each call's duration, by trace and call id
	var total time.Duration
	for i := range rec.Attempts {
		a := &rec.Attempts[i]
		e.Attempt(&rec.Header, a, nil)
		for _, c := range a.Calls() {
			if c.DurationUS <= 0 || c.DurationMS != c.DurationUS/1000 {
				t.Errorf("%s #%d: call %s recorded as %d µs and %d ms; want a positive µs count that rounds down to the ms", a.Case, a.N, c.Name, c.DurationUS, c.DurationMS)
			}
			d := time.Duration(c.DurationUS) * time.Microsecond
			want[otlp.TraceID(rec.Header.RunID, a.Case, a.N).String()+"/"+c.ID] = d
			total += d
		}
	}
	if st := e.Close(context.Background()); st.NotSent() != 0 {
		t.Fatalf("stats = %+v, want every span sent", st)
	}
	if len(want) < 10 {
		t.Fatalf("the household run made %d tool calls, want a run that calls tools", len(want))
	}
	otlptest.CheckToolDurations(t, r.Spans(), want, true)
	var sum float64
	for _, m := range r.Metrics() {
		if m.Name != otlp.MetricToolDuration {
			continue
		}
		for _, p := range m.GetHistogram().GetDataPoints() {
			sum += p.GetSum()
		}
	}
	if math.Abs(sum-total.Seconds()) > 1e-9 {
		t.Errorf("%s sums to %gs, want the recorded %gs", otlp.MetricToolDuration, sum, total.Seconds())
	}
}

// oldRecord is an attempt as records were written before calls kept
// microseconds: a call lasting 3 ms and one within the millisecond.
const oldRecord = `{"header":{"format":"mcpeval-record/1","run_id":"old-run","start":"2026-11-29T12:00:00Z","model":{"spec":"fake:perfect","provider":"fake","name":"perfect","fake":true},"suite":{"name":"household"},"target":{"spec":"builtin:household","server":{"name":"household","version":"1"}}}}
{"attempt":{"case":"a/b","n":1,"prompt":"What is our net worth?","start":"2026-11-29T12:00:00Z","duration_ms":20,"turns":[{"calls":[{"id":"c1","name":"get_net_worth","args":{},"result":"S$2,394,755","shown":true,"duration_ms":3},{"id":"c2","name":"get_accounts","args":{},"result":"5 accounts","shown":true,"duration_ms":0}],"stop_reason":"tool_use","usage":{"input":10,"output":5},"latency_ms":4},{"text":"S$2,394,755","stop_reason":"end_turn","usage":{"input":20,"output":5},"latency_ms":2}],"end":"answered","answer":"S$2,394,755"}}
`

// TestOldRecordKeepsMilliseconds: a record without microseconds exports
// exactly as before, its calls lasting their whole milliseconds; a call
// with microseconds lasts those, whatever its milliseconds say.
func TestOldRecordKeepsMilliseconds(t *testing.T) {
	for _, c := range []struct {
		name   string
		record string
		want   [2]time.Duration // the calls' spans, start to end
	}{
		{"milliseconds only", oldRecord, [2]time.Duration{3 * time.Millisecond, 0}},
		{"with microseconds", strings.Replace(strings.Replace(oldRecord, `"duration_ms":3}`, `"duration_ms":3,"duration_us":3456}`, 1), `"duration_ms":0}`, `"duration_ms":0,"duration_us":250}`, 1),
			[2]time.Duration{3456 * time.Microsecond, 250 * time.Microsecond}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec, err := record.Parse(strings.NewReader(c.record), "record.jsonl")
			if err != nil {
				t.Fatal(err)
			}
			r := otlptest.NewReceiver(t)
			if _, err := otlp.Send(context.Background(), []otlp.Attempt{{Header: &rec.Header, Attempt: &rec.Attempts[0]}}, otlp.Options{Endpoint: r.URL}); err != nil {
				t.Fatal(err)
			}
			spans := r.Spans()
			// In the order they happened: the attempt, then by start, and
			// a span that lasts nothing before the one starting as it ends.
			sort.SliceStable(spans, func(i, j int) bool {
				a, b := spans[i], spans[j]
				if (a.ParentHex() == "") != (b.ParentHex() == "") {
					return a.ParentHex() == ""
				}
				if a.StartTimeUnixNano != b.StartTimeUnixNano {
					return a.StartTimeUnixNano < b.StartTimeUnixNano
				}
				return a.EndTimeUnixNano < b.EndTimeUnixNano
			})
			if len(spans) != 5 {
				t.Fatalf("received %d spans, want 5", len(spans))
			}
			start := ns(rec.Attempts[0].Start)
			var got []row
			for _, s := range spans {
				got = append(got, row{s.Name, s.ParentHex() != "", time.Duration(s.StartTimeUnixNano - start), time.Duration(s.EndTimeUnixNano - start)})
			}
			ms := time.Millisecond
			t1, t2 := 4*ms+c.want[0], 4*ms+c.want[0]+c.want[1]
			want := []row{
				{"attempt a/b #1", false, 0, 20 * ms},
				{"chat perfect", true, 0, 4 * ms},
				{"execute_tool get_net_worth", true, 4 * ms, t1},
				{"execute_tool get_accounts", true, t1, t2},
				{"chat perfect", true, t2, t2 + 2*ms},
			}
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("span %d: %+v, want %+v", i, got[i], want[i])
				}
			}
		})
	}
}
