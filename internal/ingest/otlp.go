package ingest

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// span is one span read from OTLP, in either encoding.
type span struct {
	trace, id, parent string // hex
	name              string
	start, end        time.Time
	attrs             map[string]any // string, int64, float64, bool or []any
	failed            bool           // status code ERROR
	status            string         // the status message
	resource          map[string]any
	order             int // the order it was read in, for ties
}

func (s *span) str(key string) string {
	switch v := s.attrs[key].(type) {
	case string:
		return v
	case int64:
		return strconv.FormatInt(v, 10)
	case bool:
		return strconv.FormatBool(v)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return ""
}

func (s *span) int(key string) int64 {
	switch v := s.attrs[key].(type) {
	case int64:
		return v
	case float64:
		return int64(v)
	case string:
		n, _ := strconv.ParseInt(v, 10, 64)
		return n
	}
	return 0
}

// Spans collects spans, from any number of OTLP requests or files, and
// turns them into conversations.
type Spans struct {
	spans []span
}

// Len is how many spans were read.
func (c *Spans) Len() int { return len(c.spans) }

// ReadFile reads a file of exported spans: OTLP/JSON, one
// ExportTraceServiceRequest per line as the OpenTelemetry Collector's file
// exporter writes them by default; or OTLP protobuf, either each request
// after its length in 4 big-endian bytes (the file exporter's
// format: proto) or one request alone (an OTLP/HTTP request's body).
func (c *Spans) ReadFile(r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	// Space before JSON is skipped to recognise it, never before protobuf:
	// a request's first byte, its field 1's tag, is a newline.
	if bytes.HasPrefix(bytes.TrimLeft(data, " \t\r\n"), []byte("{")) {
		return c.readJSON(bytes.NewReader(data))
	}
	return c.readProtoFile(data)
}

// Add reads one OTLP/HTTP trace request's body: JSON when contentType
// says so (application/json), else protobuf (application/x-protobuf).
func (c *Spans) Add(body []byte, contentType string) error {
	if mt, _, _ := strings.Cut(contentType, ";"); strings.TrimSpace(mt) == "application/json" {
		return c.readJSON(bytes.NewReader(body))
	}
	return c.readProto(body)
}

func (c *Spans) readProtoFile(data []byte) error {
	// Length-prefixed frames first; a file that does not split into them
	// is one request.
	var frames [][]byte
	for rest := data; len(rest) > 0; {
		if len(rest) < 4 {
			frames = nil
			break
		}
		n := binary.BigEndian.Uint32(rest)
		if uint64(n) > uint64(len(rest)-4) {
			frames = nil
			break
		}
		frames = append(frames, rest[4:4+n])
		rest = rest[4+n:]
	}
	if frames != nil {
		saved := len(c.spans)
		ok := true
		for _, f := range frames {
			if err := c.readProto(f); err != nil {
				ok = false
				break
			}
		}
		if ok {
			return nil
		}
		c.spans = c.spans[:saved]
	}
	return c.readProto(data)
}

// readProto reads an ExportTraceServiceRequest: its field 1 holds each
// ResourceSpans.
func (c *Spans) readProto(b []byte) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return fmt.Errorf("reading OTLP protobuf: %w", protowire.ParseError(n))
		}
		b = b[n:]
		if num != 1 || typ != protowire.BytesType {
			n = protowire.ConsumeFieldValue(num, typ, b)
			if n < 0 {
				return fmt.Errorf("reading OTLP protobuf: %w", protowire.ParseError(n))
			}
			b = b[n:]
			continue
		}
		v, n := protowire.ConsumeBytes(b)
		if n < 0 {
			return fmt.Errorf("reading OTLP protobuf: %w", protowire.ParseError(n))
		}
		b = b[n:]
		var rs tracepb.ResourceSpans
		if err := proto.Unmarshal(v, &rs); err != nil {
			return fmt.Errorf("reading OTLP protobuf: %w", err)
		}
		res := Attrs(rs.GetResource().GetAttributes())
		for _, ss := range rs.ScopeSpans {
			for _, s := range ss.Spans {
				c.spans = append(c.spans, span{
					trace: hex.EncodeToString(s.TraceId), id: hex.EncodeToString(s.SpanId), parent: hex.EncodeToString(s.ParentSpanId),
					name: s.Name, start: fromNano(s.StartTimeUnixNano), end: fromNano(s.EndTimeUnixNano),
					attrs: Attrs(s.Attributes), failed: s.GetStatus().GetCode() == tracepb.Status_STATUS_CODE_ERROR,
					status: s.GetStatus().GetMessage(), resource: res, order: len(c.spans),
				})
			}
		}
	}
	return nil
}

func fromNano(n uint64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, int64(n)).UTC()
}

// Attrs turns OTLP attributes into a map of Go values (string, int64,
// float64, bool or []any).
func Attrs(kvs []*commonpb.KeyValue) map[string]any {
	m := map[string]any{}
	for _, kv := range kvs {
		m[kv.Key] = pbValue(kv.Value)
	}
	return m
}

func pbValue(v *commonpb.AnyValue) any {
	switch x := v.GetValue().(type) {
	case *commonpb.AnyValue_StringValue:
		return x.StringValue
	case *commonpb.AnyValue_IntValue:
		return x.IntValue
	case *commonpb.AnyValue_DoubleValue:
		return x.DoubleValue
	case *commonpb.AnyValue_BoolValue:
		return x.BoolValue
	case *commonpb.AnyValue_ArrayValue:
		out := []any{}
		for _, e := range x.ArrayValue.Values {
			out = append(out, pbValue(e))
		}
		return out
	}
	return nil
}

// The OTLP/JSON encoding (the OTLP specification's JSON mapping of the
// protobufs): lowerCamelCase names, ids in hex, 64-bit integers as
// strings or numbers, enums as numbers.
type jsonRequest struct {
	ResourceSpans []struct {
		Resource struct {
			Attributes []jsonKV `json:"attributes"`
		} `json:"resource"`
		ScopeSpans []struct {
			Spans []jsonSpan `json:"spans"`
		} `json:"scopeSpans"`
	} `json:"resourceSpans"`
}

type jsonSpan struct {
	TraceID      string          `json:"traceId"`
	SpanID       string          `json:"spanId"`
	ParentSpanID string          `json:"parentSpanId"`
	Name         string          `json:"name"`
	Start        json.RawMessage `json:"startTimeUnixNano"`
	End          json.RawMessage `json:"endTimeUnixNano"`
	Attributes   []jsonKV        `json:"attributes"`
	Status       struct {
		Code    json.RawMessage `json:"code"`
		Message string          `json:"message"`
	} `json:"status"`
}

type jsonKV struct {
	Key   string    `json:"key"`
	Value jsonValue `json:"value"`
}

type jsonValue struct {
	StringValue *string         `json:"stringValue"`
	IntValue    json.RawMessage `json:"intValue"`
	DoubleValue *float64        `json:"doubleValue"`
	BoolValue   *bool           `json:"boolValue"`
	ArrayValue  *struct {
		Values []jsonValue `json:"values"`
	} `json:"arrayValue"`
}

func (v jsonValue) value() any {
	switch {
	case v.StringValue != nil:
		return *v.StringValue
	case v.IntValue != nil:
		n, _ := jsonInt(v.IntValue)
		return n
	case v.DoubleValue != nil:
		return *v.DoubleValue
	case v.BoolValue != nil:
		return *v.BoolValue
	case v.ArrayValue != nil:
		out := []any{}
		for _, e := range v.ArrayValue.Values {
			out = append(out, e.value())
		}
		return out
	}
	return nil
}

// jsonInt reads a 64-bit integer written as a JSON string or number.
func jsonInt(raw json.RawMessage) (int64, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return 0, nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return strconv.ParseInt(s, 10, 64)
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err != nil {
		return 0, err
	}
	return n.Int64()
}

func jsonAttrs(kvs []jsonKV) map[string]any {
	m := map[string]any{}
	for _, kv := range kvs {
		m[kv.Key] = kv.Value.value()
	}
	return m
}

// readJSON reads OTLP/JSON requests, one after another (JSON lines, or
// one document).
func (c *Spans) readJSON(r io.Reader) error {
	dec := json.NewDecoder(r)
	for n := 1; ; n++ {
		var req jsonRequest
		if err := dec.Decode(&req); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("reading OTLP/JSON request %d: %w", n, err)
		}
		for _, rs := range req.ResourceSpans {
			res := jsonAttrs(rs.Resource.Attributes)
			for _, ss := range rs.ScopeSpans {
				for _, s := range ss.Spans {
					start, err1 := jsonInt(s.Start)
					end, err2 := jsonInt(s.End)
					if err := errors.Join(err1, err2); err != nil {
						return fmt.Errorf("reading OTLP/JSON request %d: span %s: %w", n, s.Name, err)
					}
					code := string(s.Status.Code)
					c.spans = append(c.spans, span{
						trace: s.TraceID, id: s.SpanID, parent: s.ParentSpanID, name: s.Name,
						start: fromNano(uint64(start)), end: fromNano(uint64(end)), attrs: jsonAttrs(s.Attributes),
						failed: code == "2" || code == `"STATUS_CODE_ERROR"`, status: s.Status.Message, resource: res, order: len(c.spans),
					})
				}
			}
		}
	}
}
