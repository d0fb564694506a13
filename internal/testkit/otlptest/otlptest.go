// Package otlptest is an OTLP/HTTP trace receiver for tests: it decodes
// each request with the official OTLP protobufs, as a collector does, and
// keeps the spans it received.
package otlptest

import (
	"bytes"
	"compress/gzip"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/internal/export/otlp"
	colmetricpb "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	metricpb "go.opentelemetry.io/proto/otlp/metrics/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/mcpeval/mcpeval/internal/ingest"
)

// Span is a received span with the resource it came with.
type Span struct {
	*tracepb.Span
	// Resource are the resource's attributes.
	Resource map[string]any
}

// TraceHex is the span's trace id in hex.
func (s Span) TraceHex() string { return hex.EncodeToString(s.TraceId) }

// SpanHex is the span's id in hex.
func (s Span) SpanHex() string { return hex.EncodeToString(s.SpanId) }

// ParentHex is the span's parent id in hex ("" for a root).
func (s Span) ParentHex() string { return hex.EncodeToString(s.ParentSpanId) }

// Attr returns the span's attribute key as a Go value (string, int64,
// float64, bool or []any), nil when absent.
func (s Span) Attr(key string) any { return Attrs(s.Attributes)[key] }

// Attrs turns OTLP attributes into a map, as mcpeval import reads them.
func Attrs(kvs []*commonpb.KeyValue) map[string]any { return ingest.Attrs(kvs) }

// Receiver is an OTLP/HTTP trace endpoint on loopback.
type Receiver struct {
	*httptest.Server
	mu       sync.Mutex
	spans    []Span
	metrics  []*metricpb.Metric
	requests int
	headers  []http.Header
	// Status, when not 0 or 200, is answered to every request instead of
	// taking it.
	Status int
	// Hang, when not nil, makes every request wait until it is closed
	// (or the client gives up).
	Hang chan struct{}
	// Path is where traces are taken ("/v1/traces" when empty).
	Path string
}

// NewReceiver starts a receiver, closed when the test ends.
func NewReceiver(t testing.TB) *Receiver {
	r := &Receiver{}
	r.Server = httptest.NewServer(r)
	t.Cleanup(func() {
		r.Cleanup()
		r.Server.Close()
	})
	return r
}

// Endpoint is the receiver's trace URL.
func (r *Receiver) Endpoint() string { return r.URL + "/v1/traces" }

// Cleanup releases requests a Receiver made without NewReceiver holds.
func (r *Receiver) Cleanup() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.Hang != nil {
		select {
		case <-r.Hang:
		default:
			close(r.Hang)
		}
	}
}

// ServeHTTP takes an OTLP/HTTP trace request, so that a Receiver made
// without NewReceiver can be mounted in another test server.
func (r *Receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	r.requests++
	r.headers = append(r.headers, req.Header.Clone())
	hang, status := r.Hang, r.Status
	r.mu.Unlock()
	if hang != nil {
		select {
		case <-hang:
		case <-req.Context().Done():
		}
		return
	}
	path := r.Path
	if path == "" {
		path = "/v1/traces"
	}
	if req.Method == http.MethodPost && req.URL.Path == strings.TrimSuffix(path, "/v1/traces")+"/v1/metrics" && (status == 0 || status == http.StatusOK) {
		var msg colmetricpb.ExportMetricsServiceRequest
		if !decode(w, req, &msg) {
			return
		}
		r.mu.Lock()
		for _, rm := range msg.ResourceMetrics {
			for _, sm := range rm.ScopeMetrics {
				r.metrics = append(r.metrics, sm.Metrics...)
			}
		}
		r.mu.Unlock()
		reply(w, &colmetricpb.ExportMetricsServiceResponse{})
		return
	}
	if req.Method != http.MethodPost || req.URL.Path != path {
		http.Error(w, "not an OTLP trace request", http.StatusNotFound)
		return
	}
	if status != 0 && status != http.StatusOK {
		http.Error(w, "refused", status)
		return
	}
	var msg coltracepb.ExportTraceServiceRequest
	if !decode(w, req, &msg) {
		return
	}
	r.mu.Lock()
	for _, rs := range msg.ResourceSpans {
		res := Attrs(rs.GetResource().GetAttributes())
		for _, ss := range rs.ScopeSpans {
			for _, s := range ss.Spans {
				r.spans = append(r.spans, Span{Span: s, Resource: res})
			}
		}
	}
	r.mu.Unlock()
	reply(w, &coltracepb.ExportTraceServiceResponse{})
}

// decode reads an OTLP/HTTP protobuf request into msg, or answers an
// error and returns false.
func decode(w http.ResponseWriter, req *http.Request, msg proto.Message) bool {
	var body io.Reader = req.Body
	if req.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(req.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return false
		}
		body = zr
	}
	b, err := io.ReadAll(body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return false
	}
	if ct := req.Header.Get("Content-Type"); ct != "application/x-protobuf" {
		http.Error(w, "want application/x-protobuf, got "+ct, http.StatusUnsupportedMediaType)
		return false
	}
	if err := proto.Unmarshal(b, msg); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return false
	}
	return true
}

func reply(w http.ResponseWriter, msg proto.Message) {
	out, _ := proto.Marshal(msg)
	w.Header().Set("Content-Type", "application/x-protobuf")
	io.Copy(w, bytes.NewReader(out))
}

// Metrics returns the metrics received so far, every export's.
func (r *Receiver) Metrics() []*metricpb.Metric {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*metricpb.Metric(nil), r.metrics...)
}

// Spans returns the spans received so far.
func (r *Receiver) Spans() []Span {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Span(nil), r.spans...)
}

// Requests is how many requests arrived.
func (r *Receiver) Requests() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.requests
}

// Headers returns the headers of every request so far.
func (r *Receiver) Headers() []http.Header {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]http.Header(nil), r.headers...)
}

// CheckToolDurations checks that spans hold one execute_tool span for each
// call in want, keyed "TRACE/CALL-ID" (the span's trace in hex and its
// gen_ai.tool.call.id), and that each lasts what want says; with positive,
// also that each lasts more than nothing.
func CheckToolDurations(t testing.TB, spans []Span, want map[string]time.Duration, positive bool) {
	t.Helper()
	tools := 0
	for _, s := range spans {
		if !strings.HasPrefix(s.Name, otlp.SpanTool+" ") {
			continue
		}
		tools++
		id, _ := s.Attr("gen_ai.tool.call.id").(string)
		w, ok := want[s.TraceHex()+"/"+id]
		got := time.Duration(s.EndTimeUnixNano - s.StartTimeUnixNano)
		switch {
		case !ok:
			t.Errorf("%s (call %s): a span for no recorded call", s.Name, id)
		case positive && got <= 0:
			t.Errorf("%s (call %s): lasts %s, want more than nothing", s.Name, id, got)
		case got != w:
			t.Errorf("%s (call %s): lasts %s, want the recorded %s", s.Name, id, got, w)
		}
	}
	if tools != len(want) {
		t.Errorf("received %d tool spans, want one per recorded call (%d)", tools, len(want))
	}
}
