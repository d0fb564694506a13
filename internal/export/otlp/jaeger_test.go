package otlp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/internal/export/otlp"
	"github.com/mcpeval/mcpeval/record"
)

// TestJaeger exports attempts to a real Jaeger and reads their traces back
// through its query API, one with calls kept in milliseconds and one with
// calls kept in microseconds. Building Jaeger costs minutes, so the test runs
// only when MCPEVAL_JAEGER names a jaeger binary (v2, built from
// github.com/jaegertracing/jaeger/cmd/jaeger; see docs/observability.md).
func TestJaeger(t *testing.T) {
	bin := os.Getenv("MCPEVAL_JAEGER")
	if bin == "" {
		t.Skip("set MCPEVAL_JAEGER to a jaeger binary to export to a real Jaeger")
	}
	otlpPort, queryPort, grpcPort := freePort(t), freePort(t), freePort(t)
	cfg := filepath.Join(t.TempDir(), "jaeger.yaml")
	if err := os.WriteFile(cfg, []byte(fmt.Sprintf(jaegerConfig, queryPort, grpcPort, otlpPort)), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--config", cfg)
	logs := filepath.Join(t.TempDir(), "jaeger.log")
	lf, err := os.Create(logs)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = lf, lf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cancel()
		cmd.Wait()
		if t.Failed() {
			b, _ := os.ReadFile(logs)
			t.Logf("jaeger's log:\n%s", b)
		}
	}()
	query := fmt.Sprintf("http://127.0.0.1:%d", queryPort)
	waitFor(t, 60*time.Second, func() bool {
		resp, err := http.Get(query + "/api/services")
		if err == nil {
			resp.Body.Close()
		}
		return err == nil && resp.StatusCode == 200
	})
	// A second attempt whose calls kept microseconds, one of them under a
	// millisecond: Jaeger shows them as the record kept them.
	fine := attempt()
	fine.N = 3
	fine.Turns[0].Calls[0].DurationMS, fine.Turns[0].Calls[0].DurationUS = 0, 370
	fine.Turns[0].Calls[1].DurationMS, fine.Turns[0].Calls[1].DurationUS = 50, 50_250
	its := append(items(), otlp.Attempt{Header: header(), Attempt: fine})
	if _, err := otlp.Send(ctx, its, otlp.Options{Endpoint: fmt.Sprintf("http://127.0.0.1:%d", otlpPort), Timeout: 20 * time.Second}); err != nil {
		t.Fatal(err)
	}
	type span struct {
		name       string
		start, end int64 // µs from the attempt's start
	}
	// check reads attempt a's trace back and compares its spans with want,
	// returning them in the order they started.
	check := func(a *record.Attempt, want []span) []jaegerSpan {
		t.Helper()
		id := otlp.TraceID("run-1", a.Case, a.N).String()
		var got jaegerTrace
		waitFor(t, 30*time.Second, func() bool {
			resp, err := http.Get(query + "/api/traces/" + id)
			if err != nil {
				return false
			}
			defer resp.Body.Close()
			var out struct{ Data []jaegerTrace }
			if json.NewDecoder(resp.Body).Decode(&out) != nil || len(out.Data) == 0 || len(out.Data[0].Spans) < len(want) {
				return false
			}
			got = out.Data[0]
			return true
		})
		spans := got.Spans
		sort.SliceStable(spans, func(i, j int) bool {
			if spans[i].StartTime != spans[j].StartTime {
				return spans[i].StartTime < spans[j].StartTime
			}
			return len(spans[i].References) < len(spans[j].References)
		})
		if len(spans) != len(want) {
			t.Fatalf("jaeger has %d spans of %s #%d, want %d", len(spans), a.Case, a.N, len(want))
		}
		root := spans[0]
		start := a.Start.UnixMicro()
		for i, w := range want {
			s := spans[i]
			if s.OperationName != w.name || s.StartTime-start != w.start || s.StartTime+s.Duration-start != w.end {
				t.Errorf("span %d: %s from %d to %dµs, want %s from %d to %d", i, s.OperationName, s.StartTime-start, s.StartTime+s.Duration-start, w.name, w.start, w.end)
			}
			if i > 0 && (len(s.References) != 1 || s.References[0].SpanID != root.SpanID) {
				t.Errorf("span %d (%s): references %v, want the attempt %s", i, s.OperationName, s.References, root.SpanID)
			}
		}
		return spans
	}
	check(fine, []span{
		{"attempt single-tool/net-worth-now #3", 0, 2_000_000},
		{"chat claude-x", 0, 700_000},
		{"execute_tool get_net_worth", 700_000, 700_370},
		{"execute_tool get_holdings", 700_370, 750_620},
		{"chat claude-x", 750_620, 1_650_620},
	})
	spans := check(attempt(), []span{
		{"attempt single-tool/net-worth-now #2", 0, 2_000_000},
		{"chat claude-x", 0, 700_000},
		{"execute_tool get_net_worth", 700_000, 800_000},
		{"execute_tool get_holdings", 800_000, 850_000},
		{"chat claude-x", 850_000, 1_750_000},
	})
	root := spans[0]
	tags := func(s jaegerSpan) map[string]any {
		m := map[string]any{}
		for _, tg := range s.Tags {
			m[tg.Key] = tg.Value
		}
		return m
	}
	rt, c1, tool := tags(root), tags(spans[1]), tags(spans[2])
	for _, c := range []struct {
		what      string
		got, want any
	}{
		{"attempt verdict", rt["mcpeval.verdict"], "fail"},
		{"attempt input tokens", rt["gen_ai.usage.input_tokens"], 2700.0},
		{"chat operation", c1["gen_ai.operation.name"], "chat"},
		{"chat provider", c1["gen_ai.provider.name"], "anthropic"},
		{"chat input tokens", c1["gen_ai.usage.input_tokens"], 1200.0},
		{"chat output tokens", c1["gen_ai.usage.output_tokens"], 40.0},
		{"chat cache read", c1["gen_ai.usage.cache_read.input_tokens"], 900.0},
		{"tool name", tool["gen_ai.tool.name"], "get_net_worth"},
		{"tool call id", tool["gen_ai.tool.call.id"], "toolu_1"},
		{"mcp method", tool["mcp.method.name"], "tools/call"},
	} {
		if c.got != c.want {
			t.Errorf("%s = %v (%T), want %v", c.what, c.got, c.got, c.want)
		}
	}
}

const jaegerConfig = `
service:
  extensions: [jaeger_storage, jaeger_query]
  pipelines:
    traces:
      receivers: [otlp]
      processors: [batch]
      exporters: [jaeger_storage_exporter]
  telemetry:
    metrics:
      level: none
extensions:
  jaeger_query:
    storage:
      traces: mem
    http:
      endpoint: 127.0.0.1:%d
    grpc:
      endpoint: 127.0.0.1:%d
  jaeger_storage:
    backends:
      mem:
        memory:
          max_traces: 1000
receivers:
  otlp:
    protocols:
      http:
        endpoint: 127.0.0.1:%d
processors:
  batch:
    timeout: 100ms
exporters:
  jaeger_storage_exporter:
    trace_storage: mem
`

type jaegerTrace struct {
	Spans []jaegerSpan
}

type jaegerSpan struct {
	SpanID        string `json:"spanID"`
	OperationName string `json:"operationName"`
	References    []struct {
		RefType string `json:"refType"`
		SpanID  string `json:"spanID"`
	} `json:"references"`
	StartTime int64 `json:"startTime"` // µs
	Duration  int64 `json:"duration"`  // µs
	Tags      []struct {
		Key   string `json:"key"`
		Value any    `json:"value"`
	} `json:"tags"`
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func waitFor(t *testing.T, d time.Duration, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up after %s", d)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
