package otlp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metricpb "go.opentelemetry.io/proto/otlp/metrics/v1"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/grade/actions"
	"github.com/mcpeval/mcpeval/internal/export/otlp"
	"github.com/mcpeval/mcpeval/internal/redact"
	"github.com/mcpeval/mcpeval/internal/testkit/otlptest"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
)

// secret is a credential an answer might carry; it must never be sent.
const secret = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz"

var t0 = time.Date(2026, 9, 30, 8, 0, 0, 0, time.UTC)

func header() *record.Header {
	return &record.Header{
		RunID:  "run-1",
		Start:  t0,
		Tool:   record.Build{Name: "mcpeval", Version: "v0.9.0"},
		Model:  model.Info{Spec: "anthropic:claude-x", Provider: "anthropic", Name: "claude-x"},
		Suite:  record.SuiteInfo{Name: "household", Hash: "abc"},
		Target: record.TargetInfo{Spec: "http://mcp.internal.example:8080/mcp", Server: record.Build{Name: "household", Version: "1.0"}},
	}
}

// attempt is two turns: the first calls two tools, the second answers.
func attempt() *record.Attempt {
	return &record.Attempt{
		Case: "single-tool/net-worth-now", N: 2, Prompt: "What is our net worth? my key is " + secret,
		Start: t0.Add(time.Minute), DurationMS: 2000, End: record.EndAnswered,
		Answer: "S$2,394,755 " + secret,
		Turns: []record.Turn{
			{Text: "Let me look.", StopReason: "tool_use", LatencyMS: 700, Usage: model.Usage{Input: 1200, Output: 40, CacheRead: 900, CacheWrite: 300},
				Calls: []record.Call{
					{ID: "toolu_1", Name: "get_net_worth", Args: json.RawMessage(`{"token":"` + secret + `"}`), Result: `{"net_worth_sgd":2394755}`, Shown: true, DurationMS: 100},
					{ID: "toolu_2", Name: "get_holdings", Args: json.RawMessage(`{}`), Result: "no such account", IsError: true, Shown: true, DurationMS: 50},
				}},
			{Text: "S$2,394,755", StopReason: "end_turn", LatencyMS: 900, Usage: model.Usage{Input: 1500, Output: 25}},
		},
	}
}

func grades() *grade.AttemptGrade {
	return &grade.AttemptGrade{Case: "single-tool/net-worth-now", N: 2, Outcome: grade.Fail, Reasons: []grade.Reason{{Check: "figures", Message: "missing S$100"}}}
}

func items() []otlp.Attempt {
	return []otlp.Attempt{{Header: header(), Attempt: attempt(), Grade: grades(), Group: "single-tool", Dataset: "pr",
		Actions: &actions.Result{Kind: "read", Pass: false, Columns: actions.Columns{Reached: actions.Column{Num: 1, Den: 2}}}}}
}

func ns(t time.Time) uint64 { return uint64(t.UnixNano()) }

// sorted returns spans in start order, the attempt first.
func sorted(spans []otlptest.Span) []otlptest.Span {
	sort.SliceStable(spans, func(i, j int) bool {
		if spans[i].StartTimeUnixNano != spans[j].StartTimeUnixNano {
			return spans[i].StartTimeUnixNano < spans[j].StartTimeUnixNano
		}
		return spans[i].ParentHex() == "" && spans[j].ParentHex() != ""
	})
	return spans
}

// row is what a test checks of each span.
type row struct {
	Name       string
	Parent     bool // has the attempt as its parent
	Start, End time.Duration
}

// TestSendToReceiver exports an attempt to an OTLP/HTTP receiver that
// decodes the official protobufs, and checks the trace against the record:
// span names, parent links, timestamps from the record, GenAI attributes
// and token counts, the verdict and action columns, and no content.
func TestSendToReceiver(t *testing.T) {
	r := otlptest.NewReceiver(t)
	st, err := otlp.Send(context.Background(), items(), otlp.Options{Endpoint: r.URL})
	if err != nil {
		t.Fatal(err)
	}
	if st.Spans != 5 || st.Sent != 5 || st.NotSent() != 0 {
		t.Fatalf("stats = %+v, want 5 spans all sent", st)
	}
	spans := sorted(r.Spans())
	if len(spans) != 5 {
		t.Fatalf("received %d spans, want 5", len(spans))
	}
	root := spans[0]
	a := attempt()
	var got []row
	for _, s := range spans {
		got = append(got, row{s.Name, s.ParentHex() == root.SpanHex(),
			time.Duration(s.StartTimeUnixNano - ns(a.Start)), time.Duration(s.EndTimeUnixNano - ns(a.Start))})
		if s.TraceHex() != root.TraceHex() {
			t.Errorf("%s: trace %s, want the attempt's %s", s.Name, s.TraceHex(), root.TraceHex())
		}
	}
	ms := time.Millisecond
	want := []row{
		{"attempt single-tool/net-worth-now #2", false, 0, 2000 * ms},
		{"chat claude-x", true, 0, 700 * ms},
		{"execute_tool get_net_worth", true, 700 * ms, 800 * ms},
		{"execute_tool get_holdings", true, 800 * ms, 850 * ms},
		{"chat claude-x", true, 850 * ms, 1750 * ms},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("spans (-want +got):\n%s", d)
	}
	if root.ParentHex() != "" {
		t.Errorf("the attempt span has a parent %s", root.ParentHex())
	}
	if tid := otlp.TraceID("run-1", a.Case, a.N); root.TraceHex() != tid.String() {
		t.Errorf("trace id %s, want %s (derived from the run, case and attempt)", root.TraceHex(), tid)
	}

	checkAttrs(t, root, map[string]any{
		"gen_ai.operation.name":                    "invoke_agent",
		"gen_ai.provider.name":                     "anthropic",
		"gen_ai.request.model":                     "claude-x",
		"gen_ai.usage.input_tokens":                int64(2700),
		"gen_ai.usage.output_tokens":               int64(65),
		"gen_ai.usage.cache_read.input_tokens":     int64(900),
		"gen_ai.usage.cache_creation.input_tokens": int64(300),
		"mcpeval.case.id":                          a.Case,
		"mcpeval.case.group":                       "single-tool",
		"mcpeval.case.dataset":                     "pr",
		"mcpeval.attempt.n":                        int64(2),
		"mcpeval.verdict":                          "fail",
		"mcpeval.reasons":                          []any{"figures: missing S$100"},
		"mcpeval.checks.failed":                    []any{"figures"},
		"mcpeval.action.reached.num":               int64(1),
		"mcpeval.action.reached.den":               int64(2),
		"mcpeval.action.first_time.den":            int64(0),
		"mcpeval.run.id":                           "run-1",
	})
	checkAttrs(t, spans[1], map[string]any{
		"gen_ai.operation.name":                    "chat",
		"gen_ai.provider.name":                     "anthropic",
		"gen_ai.request.model":                     "claude-x",
		"gen_ai.usage.input_tokens":                int64(1200),
		"gen_ai.usage.output_tokens":               int64(40),
		"gen_ai.usage.cache_read.input_tokens":     int64(900),
		"gen_ai.usage.cache_creation.input_tokens": int64(300),
		"gen_ai.response.finish_reasons":           []any{"tool_use"},
	})
	checkAttrs(t, spans[4], map[string]any{
		"gen_ai.usage.input_tokens":      int64(1500),
		"gen_ai.usage.output_tokens":     int64(25),
		"gen_ai.response.finish_reasons": []any{"end_turn"},
	})
	checkAttrs(t, spans[2], map[string]any{
		"gen_ai.operation.name":      "execute_tool",
		"gen_ai.tool.name":           "get_net_worth",
		"gen_ai.tool.call.id":        "toolu_1",
		"mcp.method.name":            "tools/call",
		"network.transport":          "tcp",
		"mcpeval.target.server.name": "household",
		"error.type":                 nil,
	})
	checkAttrs(t, spans[3], map[string]any{"gen_ai.tool.name": "get_holdings", "error.type": "tool_error"})
	if spans[3].Status.GetCode() != 2 { // STATUS_CODE_ERROR
		t.Errorf("a tool error's span has status %v, want an error", spans[3].Status)
	}
	if got := root.Resource["service.name"]; got != "mcpeval" {
		t.Errorf("service.name = %v, want mcpeval", got)
	}
	// Without --content nothing the model or the tools said is sent, nor
	// the server's address.
	for _, s := range spans {
		for _, k := range []string{"gen_ai.input.messages", "gen_ai.output.messages", "gen_ai.system_instructions", "gen_ai.tool.call.arguments", "gen_ai.tool.call.result", "server.address"} {
			if v := s.Attr(k); v != nil {
				t.Errorf("%s: %s = %v sent without content", s.Name, k, v)
			}
		}
	}
	noSecret(t, spans)
}

func checkAttrs(t *testing.T, s otlptest.Span, want map[string]any) {
	t.Helper()
	for k, w := range want {
		if d := cmp.Diff(w, s.Attr(k)); d != "" {
			t.Errorf("%s: %s (-want +got):\n%s", s.Name, k, d)
		}
	}
}

func noSecret(t *testing.T, spans []otlptest.Span) {
	t.Helper()
	for _, s := range spans {
		if b := fmt.Sprint(s.Span, s.Resource); strings.Contains(b, secret) || strings.Contains(b, "sk-ant-") {
			t.Errorf("%s carries the secret", s.Name)
		}
	}
}

// TestContent sends prompts, answers, arguments and results with
// Content, redacted.
func TestContent(t *testing.T) {
	r := otlptest.NewReceiver(t)
	if _, err := otlp.Send(context.Background(), items(), otlp.Options{Endpoint: r.URL, Content: true}); err != nil {
		t.Fatal(err)
	}
	spans := sorted(r.Spans())
	noSecret(t, spans)
	in, _ := spans[0].Attr("gen_ai.input.messages").(string)
	var msgs []struct {
		Role  string
		Parts []struct{ Type, Content string }
	}
	if err := json.Unmarshal([]byte(in), &msgs); err != nil || len(msgs) != 1 || msgs[0].Role != "user" || !strings.HasPrefix(msgs[0].Parts[0].Content, "What is our net worth?") {
		t.Errorf("gen_ai.input.messages = %s (%v), want the prompt as a user message", in, err)
	}
	if out, _ := spans[0].Attr("gen_ai.output.messages").(string); !strings.Contains(out, "S$2,394,755") {
		t.Errorf("gen_ai.output.messages = %s, want the answer", out)
	}
	if res := spans[2].Attr("gen_ai.tool.call.result"); res != `{"net_worth_sgd":2394755}` {
		t.Errorf("tool result = %v", res)
	}
	if args, _ := spans[2].Attr("gen_ai.tool.call.arguments").(string); !strings.Contains(args, "[redacted") {
		t.Errorf("tool arguments = %s, want the token redacted", args)
	}
	if out, _ := spans[1].Attr("gen_ai.output.messages").(string); !strings.Contains(out, `"tool_call"`) || !strings.Contains(out, "toolu_2") {
		t.Errorf("the first chat's output = %s, want its two tool calls", out)
	}
	if got := spans[2].Attr("server.address"); got != "mcp.internal.example" {
		t.Errorf("server.address = %v", got)
	}
}

// TestReexportIsIdempotent: the same attempt sent twice makes the same ids.
func TestReexportIsIdempotent(t *testing.T) {
	r := otlptest.NewReceiver(t)
	for range 2 {
		if _, err := otlp.Send(context.Background(), items(), otlp.Options{Endpoint: r.URL}); err != nil {
			t.Fatal(err)
		}
	}
	ids := map[string]int{}
	for _, s := range r.Spans() {
		ids[s.TraceHex()+"/"+s.SpanHex()]++
	}
	if len(ids) != 5 {
		t.Fatalf("%d distinct span ids over two exports, want 5", len(ids))
	}
	for id, n := range ids {
		if n != 2 {
			t.Errorf("span %s sent %d times, want 2", id, n)
		}
	}
}

// TestDeadCollector: Send retries for a bounded time, then says how many
// spans were not sent.
func TestDeadCollector(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + l.Addr().String()
	l.Close()
	for name, endpoint := range map[string]func(t *testing.T) string{
		"refused": func(*testing.T) string { return dead },
		"unavailable": func(t *testing.T) string {
			r := otlptest.NewReceiver(t)
			r.Status = http.StatusServiceUnavailable
			return r.URL
		},
		"hangs": func(t *testing.T) string { r := otlptest.NewReceiver(t); r.Hang = make(chan struct{}); return r.URL },
	} {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			st, err := otlp.Send(context.Background(), items(), otlp.Options{Endpoint: endpoint(t), Timeout: 700 * time.Millisecond})
			if err == nil || !strings.Contains(err.Error(), "5 of 5 spans not sent") {
				t.Errorf("err = %v, want 5 of 5 spans not sent", err)
			}
			if st.NotSent() != 5 || st.Sent != 0 {
				t.Errorf("stats = %+v", st)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("gave up after %s, want about the timeout", d)
			}
		})
	}
}

func TestParseEndpoint(t *testing.T) {
	for in, want := range map[string]string{
		"http://localhost:4318":                       "http://localhost:4318/v1/traces",
		"https://x.example/":                          "https://x.example/v1/traces",
		"https://x.example/api/public/otel/v1/traces": "https://x.example/api/public/otel/v1/traces",
		"localhost:4318":                              "",
		"ftp://x":                                     "",
	} {
		got, err := otlp.ParseEndpoint(in)
		if got != want || (want == "") != (err != nil) {
			t.Errorf("ParseEndpoint(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

// TestExporterNeverBlocks: with a collector that hangs, each Attempt call
// returns at once, what the queue cannot hold is dropped and counted, and
// Close gives up when told to, counting what it could not send.
func TestExporterNeverBlocks(t *testing.T) {
	r := otlptest.NewReceiver(t)
	r.Hang = make(chan struct{})
	var warnings []string
	e, err := otlp.NewExporter(otlp.Options{Endpoint: r.URL, Queue: 1, Timeout: time.Hour, Warn: func(s string) { warnings = append(warnings, s) }})
	if err != nil {
		t.Fatal(err)
	}
	h, g := header(), grades()
	done := make(chan time.Duration)
	go func() {
		var longest time.Duration
		for n := 1; n <= 6; n++ {
			a := attempt()
			a.N = n
			start := time.Now()
			e.Attempt(h, a, g)
			longest = max(longest, time.Since(start))
		}
		done <- longest
	}()
	select {
	case d := <-done:
		if d > 100*time.Millisecond {
			t.Errorf("an Attempt call took %s with a hanging collector", d)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Attempt blocked on a hanging collector")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	st := e.Close(ctx)
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("Close took %s, want about its deadline", d)
	}
	// One attempt is being sent, one waits in the queue, four are dropped.
	if st.Spans != 30 || st.Sent != 0 || st.Dropped < 15 || st.Dropped+st.Failed != 30 {
		t.Errorf("stats = %+v, want 30 spans, none sent, at least 15 dropped, every one counted", st)
	}
	if len(warnings) == 0 || !strings.Contains(warnings[0], "dropping spans") {
		t.Errorf("warnings = %q, want one about dropped spans", warnings)
	}
	e.Attempt(h, attempt(), g) // after Close: dropped, no panic
	if got := e.Stats().Dropped; got != st.Dropped+5 {
		t.Errorf("after Close, dropped = %d, want %d", got, st.Dropped+5)
	}
}

// TestExporterSends: a healthy collector gets every attempt.
func TestExporterSends(t *testing.T) {
	r := otlptest.NewReceiver(t)
	e, err := otlp.NewExporter(otlp.Options{Endpoint: r.URL})
	if err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= 3; n++ {
		a := attempt()
		a.N = n
		e.Attempt(header(), a, nil)
	}
	st := e.Close(context.Background())
	if st.Spans != 15 || st.Sent != 15 || st.NotSent() != 0 {
		t.Errorf("stats = %+v, want 15 sent", st)
	}
	traces := map[string]bool{}
	for _, s := range r.Spans() {
		traces[s.TraceHex()] = true
		if s.ParentHex() == "" && s.Attr("mcpeval.verdict") != nil {
			t.Errorf("an ungraded attempt has a verdict %v", s.Attr("mcpeval.verdict"))
		}
	}
	if len(traces) != 3 || len(r.Spans()) != 15 {
		t.Errorf("received %d spans in %d traces, want 15 in 3", len(r.Spans()), len(traces))
	}
}

// TestExporterCollectorDies: the collector dies in the middle of a run;
// what it took stays taken, the rest is counted as not sent, and Close
// returns promptly.
func TestExporterCollectorDies(t *testing.T) {
	r := otlptest.NewReceiver(t)
	e, err := otlp.NewExporter(otlp.Options{Endpoint: r.URL, Timeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	send := func(from, to int) {
		for n := from; n <= to; n++ {
			a := attempt()
			a.N = n
			e.Attempt(header(), a, grades())
		}
	}
	send(1, 2)
	waitFor(t, 5*time.Second, func() bool { return e.Stats().Sent == 10 })
	r.Close()
	send(3, 5)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	start := time.Now()
	st := e.Close(ctx)
	if st.Spans != 25 || st.Sent != 10 || st.Failed+st.Dropped != 15 || st.NotSent() != 15 {
		t.Errorf("stats = %+v, want 25 spans, 10 sent, 15 not", st)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("Close took %s", d)
	}
	if got := len(r.Spans()); got != 10 {
		t.Errorf("the collector took %d spans, want 10", got)
	}
}

// TestRedactionListWithoutContent: an operator's redaction list applies to
// the reasons even when no content is sent.
func TestRedactionListWithoutContent(t *testing.T) {
	red, err := redact.New(&redact.Config{Identifiers: []string{"S$100"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := otlptest.NewReceiver(t)
	if _, err := otlp.Send(context.Background(), items(), otlp.Options{Endpoint: r.URL, Redactor: red}); err != nil {
		t.Fatal(err)
	}
	root := sorted(r.Spans())[0]
	if d := cmp.Diff([]any{"figures: missing [redacted:id]"}, root.Attr("mcpeval.reasons")); d != "" {
		t.Errorf("reasons (-want +got):\n%s", d)
	}
	if v := root.Attr("gen_ai.input.messages"); v != nil {
		t.Errorf("a redaction list sent content: %v", v)
	}
}

// TestExporterMetrics: with Metrics, an Exporter also sends attempts by
// verdict, token counts and latencies, checked against the record.
func TestExporterMetrics(t *testing.T) {
	r := otlptest.NewReceiver(t)
	e, err := otlp.NewExporter(otlp.Options{Endpoint: r.URL, Metrics: true, MetricsInterval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= 3; n++ {
		a := attempt()
		a.N = n
		g := grades()
		if n == 3 {
			g = nil
		}
		e.Attempt(header(), a, g)
	}
	e.Close(context.Background()) // sends the metrics as it shuts down
	byName := map[string]*metricpb.Metric{}
	for _, m := range r.Metrics() {
		byName[m.Name] = m
	}
	attempts := map[string]int64{}
	for _, p := range byName[otlp.MetricAttempts].GetSum().GetDataPoints() {
		attempts[otlptest.Attrs(p.Attributes)["mcpeval.verdict"].(string)] += p.GetAsInt()
	}
	if d := cmp.Diff(map[string]int64{"fail": 2, "ungraded": 1}, attempts); d != "" {
		t.Errorf("%s by verdict (-want +got):\n%s", otlp.MetricAttempts, d)
	}
	tokens := map[string][2]float64{} // count, sum by token type
	for _, p := range byName[otlp.MetricTokens].GetHistogram().GetDataPoints() {
		k := otlptest.Attrs(p.Attributes)["gen_ai.token.type"].(string)
		tokens[k] = [2]float64{tokens[k][0] + float64(p.GetCount()), tokens[k][1] + p.GetSum()}
	}
	if d := cmp.Diff(map[string][2]float64{"input": {6, 3 * 2700}, "output": {6, 3 * 65}}, tokens); d != "" {
		t.Errorf("%s (-want +got):\n%s", otlp.MetricTokens, d)
	}
	var model, tool float64
	for _, p := range byName[otlp.MetricModelDuration].GetHistogram().GetDataPoints() {
		model += p.GetSum()
	}
	for _, p := range byName[otlp.MetricToolDuration].GetHistogram().GetDataPoints() {
		tool += p.GetSum()
	}
	if math.Abs(model-3*1.6) > 1e-9 || math.Abs(tool-3*0.15) > 1e-9 {
		t.Errorf("model time %gs, tool time %gs; want %gs and %gs", model, tool, 3*1.6, 3*0.15)
	}
}
