package otlp_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/internal/export/otlp"
	"github.com/mcpeval/mcpeval/internal/testkit/otlptest"
)

// TestEnvTimeoutBoundsEachRequest: OTEL_EXPORTER_OTLP_TIMEOUT bounds each
// request, as docs/observability.md promises, so a collector that hangs
// is asked again within the export's own timeout.
func TestEnvTimeoutBoundsEachRequest(t *testing.T) {
	t.Setenv("OTEL_EXPORTER_OTLP_TIMEOUT", "100")
	r := otlptest.NewReceiver(t)
	r.Hang = make(chan struct{})
	_, err := otlp.Send(context.Background(), items(), otlp.Options{Endpoint: r.URL, Timeout: 1500 * time.Millisecond})
	if err == nil {
		t.Fatal("a hanging collector took the spans")
	}
	if n := r.Requests(); n < 2 {
		t.Errorf("%d requests in 1.5s with a 100ms timeout each, want several", n)
	}
}

// TestEnvEndpointHeadersCompression: without an endpoint given, traces and
// metrics go where OTEL_EXPORTER_OTLP_ENDPOINT says, with the headers of
// OTEL_EXPORTER_OTLP_HEADERS (percent-decoded), gzipped as
// OTEL_EXPORTER_OTLP_COMPRESSION asks.
func TestEnvEndpointHeadersCompression(t *testing.T) {
	r := otlptest.NewReceiver(t)
	r.Path = "/otel/v1/traces"
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", r.URL+"/otel")
	t.Setenv("OTEL_EXPORTER_OTLP_HEADERS", "x-team=evals, authorization=Basic%20abc%3D,malformed")
	t.Setenv("OTEL_EXPORTER_OTLP_COMPRESSION", "gzip")
	e, err := otlp.NewExporter(otlp.Options{Metrics: true, MetricsInterval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	e.Attempt(header(), attempt(), grades())
	if st := e.Close(context.Background()); st.Sent != 5 {
		t.Fatalf("stats = %+v, want 5 sent", st)
	}
	if len(r.Metrics()) == 0 {
		t.Error("no metrics reached OTEL_EXPORTER_OTLP_ENDPOINT/v1/metrics")
	}
	hs := r.Headers()
	if len(hs) != 2 {
		t.Fatalf("%d requests, want one of traces and one of metrics", len(hs))
	}
	for _, h := range hs {
		if h.Get("X-Team") != "evals" || h.Get("Authorization") != "Basic abc=" || h.Get("Content-Encoding") != "gzip" || h.Get("Content-Type") != "application/x-protobuf" {
			t.Errorf("request headers %v, want x-team, the decoded authorization, gzip and protobuf", h)
		}
	}
}

// TestEnvTracesEndpointWins: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is used as
// it is, over OTEL_EXPORTER_OTLP_ENDPOINT; an endpoint given wins over both.
func TestEnvTracesEndpointWins(t *testing.T) {
	r := otlptest.NewReceiver(t)
	r.Path = "/custom/v1/traces"
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:1")
	t.Setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", r.URL+"/custom/v1/traces")
	if _, err := otlp.Send(context.Background(), items(), otlp.Options{Timeout: 5 * time.Second}); err != nil {
		t.Fatal(err)
	}
	t.Setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://127.0.0.1:1/v1/traces")
	if _, err := otlp.Send(context.Background(), items(), otlp.Options{Endpoint: r.URL + "/custom/v1/traces", Timeout: 5 * time.Second}); err != nil {
		t.Fatal(err)
	}
	if got := len(r.Spans()); got != 10 {
		t.Errorf("received %d spans, want 10", got)
	}
	t.Setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "collector:4318")
	if _, err := otlp.Send(context.Background(), items(), otlp.Options{}); err == nil {
		t.Error("an endpoint that is not a URL was taken")
	}
}

// TestRetryAfter: a collector that answers 429 or 503 with Retry-After is
// asked again after the wait it asked for, and takes the spans then.
func TestRetryAfter(t *testing.T) {
	for _, status := range []int{http.StatusTooManyRequests, http.StatusServiceUnavailable} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			recv := &otlptest.Receiver{}
			var mu sync.Mutex
			var at []time.Time
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
				mu.Lock()
				at = append(at, time.Now())
				first := len(at) == 1
				mu.Unlock()
				if first {
					w.Header().Set("Retry-After", "1")
					http.Error(w, "busy", status)
					return
				}
				recv.ServeHTTP(w, req)
			}))
			defer srv.Close()
			st, err := otlp.Send(context.Background(), items(), otlp.Options{Endpoint: srv.URL, Timeout: 10 * time.Second})
			if err != nil || st.Sent != 5 {
				t.Fatalf("Send = %+v, %v; want 5 sent", st, err)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(at) != 2 {
				t.Fatalf("%d requests, want 2", len(at))
			}
			if d := at[1].Sub(at[0]); d < 900*time.Millisecond {
				t.Errorf("asked again after %s, want the 1s Retry-After asked for", d)
			}
		})
	}
}
