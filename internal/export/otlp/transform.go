package otlp

import (
	"fmt"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	metricpb "go.opentelemetry.io/proto/otlp/metrics/v1"
	resourcepb "go.opentelemetry.io/proto/otlp/resource/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// The OTLP request messages are the collector's service messages, whose
// Go packages bring gRPC and grpc-gateway with them. Each is one repeated
// field of messages that the plain message packages do have, so it is
// written here with protowire:
//
//	message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
//	message ExportMetricsServiceRequest { repeated ResourceMetrics resource_metrics = 1; }
//
// Both requests put their messages in field 1.
const requestField = 1

// encodeRequest returns the request message holding msgs in field 1.
func encodeRequest[M proto.Message](msgs []M) ([]byte, error) {
	var b []byte
	for _, m := range msgs {
		one, err := proto.Marshal(m)
		if err != nil {
			return nil, fmt.Errorf("encoding an OTLP request: %w", err)
		}
		b = protowire.AppendTag(b, requestField, protowire.BytesType)
		b = protowire.AppendBytes(b, one)
	}
	return b, nil
}

// resourceSpans groups spans by resource, then by instrumentation scope,
// in the order they first appear.
func resourceSpans(spans []sdktrace.ReadOnlySpan) []*tracepb.ResourceSpans {
	var out []*tracepb.ResourceSpans
	byRes := map[attribute.Distinct]*tracepb.ResourceSpans{}
	type scopeKey struct {
		res   attribute.Distinct
		scope instrumentation.Scope
	}
	byScope := map[scopeKey]*tracepb.ScopeSpans{}
	for _, s := range spans {
		res := s.Resource()
		rk := res.Equivalent()
		rs, ok := byRes[rk]
		if !ok {
			rs = &tracepb.ResourceSpans{Resource: resourceProto(res), SchemaUrl: res.SchemaURL()}
			byRes[rk] = rs
			out = append(out, rs)
		}
		sc := s.InstrumentationScope()
		sk := scopeKey{rk, sc}
		ss, ok := byScope[sk]
		if !ok {
			ss = &tracepb.ScopeSpans{Scope: scopeProto(sc), SchemaUrl: sc.SchemaURL}
			byScope[sk] = ss
			rs.ScopeSpans = append(rs.ScopeSpans, ss)
		}
		ss.Spans = append(ss.Spans, spanProto(s))
	}
	return out
}

func resourceProto(r *resource.Resource) *resourcepb.Resource {
	if r == nil {
		return &resourcepb.Resource{}
	}
	return &resourcepb.Resource{Attributes: keyValues(r.Attributes())}
}

func scopeProto(s instrumentation.Scope) *commonpb.InstrumentationScope {
	return &commonpb.InstrumentationScope{Name: s.Name, Version: s.Version, Attributes: keyValues(s.Attributes.ToSlice())}
}

func spanProto(s sdktrace.ReadOnlySpan) *tracepb.Span {
	sc := s.SpanContext()
	tid, sid := sc.TraceID(), sc.SpanID()
	p := &tracepb.Span{
		TraceId:                tid[:],
		SpanId:                 sid[:],
		TraceState:             sc.TraceState().String(),
		Name:                   s.Name(),
		Kind:                   tracepb.Span_SpanKind(s.SpanKind()), // the same numbers, Unspecified to Consumer
		StartTimeUnixNano:      unixNano(s.StartTime()),
		EndTimeUnixNano:        unixNano(s.EndTime()),
		Attributes:             keyValues(s.Attributes()),
		DroppedAttributesCount: uint32(s.DroppedAttributes()),
		DroppedEventsCount:     uint32(s.DroppedEvents()),
		DroppedLinksCount:      uint32(s.DroppedLinks()),
		Flags:                  spanFlags(sc.TraceFlags(), s.Parent()),
		Status:                 statusProto(s.Status()),
	}
	if parent := s.Parent(); parent.SpanID().IsValid() {
		ps := parent.SpanID()
		p.ParentSpanId = ps[:]
	}
	for _, e := range s.Events() {
		p.Events = append(p.Events, &tracepb.Span_Event{Name: e.Name, TimeUnixNano: unixNano(e.Time), Attributes: keyValues(e.Attributes), DroppedAttributesCount: uint32(e.DroppedAttributeCount)})
	}
	for _, l := range s.Links() {
		lt, ls := l.SpanContext.TraceID(), l.SpanContext.SpanID()
		p.Links = append(p.Links, &tracepb.Span_Link{TraceId: lt[:], SpanId: ls[:], TraceState: l.SpanContext.TraceState().String(),
			Attributes: keyValues(l.Attributes), DroppedAttributesCount: uint32(l.DroppedAttributeCount), Flags: spanFlags(l.SpanContext.TraceFlags(), l.SpanContext)})
	}
	return p
}

// spanFlags are the W3C trace flags and whether the parent is remote.
func spanFlags(tf trace.TraceFlags, parent trace.SpanContext) uint32 {
	f := uint32(tf) | uint32(tracepb.SpanFlags_SPAN_FLAGS_CONTEXT_HAS_IS_REMOTE_MASK)
	if parent.IsRemote() {
		f |= uint32(tracepb.SpanFlags_SPAN_FLAGS_CONTEXT_IS_REMOTE_MASK)
	}
	return f
}

func statusProto(s sdktrace.Status) *tracepb.Status {
	switch s.Code {
	case codes.Error:
		return &tracepb.Status{Code: tracepb.Status_STATUS_CODE_ERROR, Message: s.Description}
	case codes.Ok:
		return &tracepb.Status{Code: tracepb.Status_STATUS_CODE_OK}
	}
	return &tracepb.Status{Code: tracepb.Status_STATUS_CODE_UNSET}
}

func unixNano(t time.Time) uint64 {
	if t.IsZero() || t.UnixNano() < 0 {
		return 0
	}
	return uint64(t.UnixNano())
}

func keyValues(kvs []attribute.KeyValue) []*commonpb.KeyValue {
	if len(kvs) == 0 {
		return nil
	}
	out := make([]*commonpb.KeyValue, 0, len(kvs))
	for _, kv := range kvs {
		out = append(out, &commonpb.KeyValue{Key: string(kv.Key), Value: anyValue(kv.Value)})
	}
	return out
}

func anyValue(v attribute.Value) *commonpb.AnyValue {
	switch v.Type() {
	case attribute.BOOL:
		return &commonpb.AnyValue{Value: &commonpb.AnyValue_BoolValue{BoolValue: v.AsBool()}}
	case attribute.INT64:
		return &commonpb.AnyValue{Value: &commonpb.AnyValue_IntValue{IntValue: v.AsInt64()}}
	case attribute.FLOAT64:
		return &commonpb.AnyValue{Value: &commonpb.AnyValue_DoubleValue{DoubleValue: v.AsFloat64()}}
	case attribute.STRING:
		return &commonpb.AnyValue{Value: &commonpb.AnyValue_StringValue{StringValue: v.AsString()}}
	case attribute.BYTESLICE:
		return &commonpb.AnyValue{Value: &commonpb.AnyValue_BytesValue{BytesValue: v.AsByteSlice()}}
	case attribute.BOOLSLICE:
		return arrayOf(v.AsBoolSlice(), attribute.BoolValue)
	case attribute.INT64SLICE:
		return arrayOf(v.AsInt64Slice(), attribute.Int64Value)
	case attribute.FLOAT64SLICE:
		return arrayOf(v.AsFloat64Slice(), attribute.Float64Value)
	case attribute.STRINGSLICE:
		return arrayOf(v.AsStringSlice(), attribute.StringValue)
	case attribute.SLICE:
		return arrayOf(v.AsSlice(), func(v attribute.Value) attribute.Value { return v })
	case attribute.MAP:
		return &commonpb.AnyValue{Value: &commonpb.AnyValue_KvlistValue{KvlistValue: &commonpb.KeyValueList{Values: keyValues(v.AsMap())}}}
	}
	return &commonpb.AnyValue{}
}

func arrayOf[T any](vs []T, value func(T) attribute.Value) *commonpb.AnyValue {
	arr := &commonpb.ArrayValue{Values: make([]*commonpb.AnyValue, 0, len(vs))}
	for _, v := range vs {
		arr.Values = append(arr.Values, anyValue(value(v)))
	}
	return &commonpb.AnyValue{Value: &commonpb.AnyValue_ArrayValue{ArrayValue: arr}}
}

// resourceMetrics converts what a metric reader collected. Gauges, sums
// and explicit-bucket histograms are converted (the only aggregations the
// instruments of meters use); exemplars are left out, as no span is ever
// current when a metric is recorded.
func resourceMetrics(rm *metricdata.ResourceMetrics) (*metricpb.ResourceMetrics, error) {
	out := &metricpb.ResourceMetrics{Resource: resourceProto(rm.Resource)}
	if rm.Resource != nil {
		out.SchemaUrl = rm.Resource.SchemaURL()
	}
	for _, sm := range rm.ScopeMetrics {
		s := &metricpb.ScopeMetrics{Scope: scopeProto(sm.Scope), SchemaUrl: sm.Scope.SchemaURL}
		for _, m := range sm.Metrics {
			p := &metricpb.Metric{Name: m.Name, Description: m.Description, Unit: m.Unit}
			switch d := m.Data.(type) {
			case metricdata.Gauge[int64]:
				p.Data = &metricpb.Metric_Gauge{Gauge: &metricpb.Gauge{DataPoints: numberPoints(d.DataPoints)}}
			case metricdata.Gauge[float64]:
				p.Data = &metricpb.Metric_Gauge{Gauge: &metricpb.Gauge{DataPoints: numberPoints(d.DataPoints)}}
			case metricdata.Sum[int64]:
				p.Data = &metricpb.Metric_Sum{Sum: &metricpb.Sum{DataPoints: numberPoints(d.DataPoints), AggregationTemporality: temporality(d.Temporality), IsMonotonic: d.IsMonotonic}}
			case metricdata.Sum[float64]:
				p.Data = &metricpb.Metric_Sum{Sum: &metricpb.Sum{DataPoints: numberPoints(d.DataPoints), AggregationTemporality: temporality(d.Temporality), IsMonotonic: d.IsMonotonic}}
			case metricdata.Histogram[int64]:
				p.Data = &metricpb.Metric_Histogram{Histogram: &metricpb.Histogram{DataPoints: histogramPoints(d.DataPoints), AggregationTemporality: temporality(d.Temporality)}}
			case metricdata.Histogram[float64]:
				p.Data = &metricpb.Metric_Histogram{Histogram: &metricpb.Histogram{DataPoints: histogramPoints(d.DataPoints), AggregationTemporality: temporality(d.Temporality)}}
			default:
				return nil, fmt.Errorf("converting metric %s: aggregation %T not supported", m.Name, m.Data)
			}
			s.Metrics = append(s.Metrics, p)
		}
		out.ScopeMetrics = append(out.ScopeMetrics, s)
	}
	return out, nil
}

func temporality(t metricdata.Temporality) metricpb.AggregationTemporality {
	switch t {
	case metricdata.DeltaTemporality:
		return metricpb.AggregationTemporality_AGGREGATION_TEMPORALITY_DELTA
	case metricdata.CumulativeTemporality:
		return metricpb.AggregationTemporality_AGGREGATION_TEMPORALITY_CUMULATIVE
	}
	return metricpb.AggregationTemporality_AGGREGATION_TEMPORALITY_UNSPECIFIED
}

func numberPoints[N int64 | float64](dps []metricdata.DataPoint[N]) []*metricpb.NumberDataPoint {
	out := make([]*metricpb.NumberDataPoint, 0, len(dps))
	for _, dp := range dps {
		p := &metricpb.NumberDataPoint{Attributes: keyValues(dp.Attributes.ToSlice()), StartTimeUnixNano: unixNano(dp.StartTime), TimeUnixNano: unixNano(dp.Time)}
		switch v := any(dp.Value).(type) {
		case int64:
			p.Value = &metricpb.NumberDataPoint_AsInt{AsInt: v}
		case float64:
			p.Value = &metricpb.NumberDataPoint_AsDouble{AsDouble: v}
		}
		out = append(out, p)
	}
	return out
}

func histogramPoints[N int64 | float64](dps []metricdata.HistogramDataPoint[N]) []*metricpb.HistogramDataPoint {
	out := make([]*metricpb.HistogramDataPoint, 0, len(dps))
	for _, dp := range dps {
		sum := float64(dp.Sum)
		p := &metricpb.HistogramDataPoint{
			Attributes:        keyValues(dp.Attributes.ToSlice()),
			StartTimeUnixNano: unixNano(dp.StartTime),
			TimeUnixNano:      unixNano(dp.Time),
			Count:             dp.Count,
			Sum:               &sum,
			BucketCounts:      dp.BucketCounts,
			ExplicitBounds:    dp.Bounds,
		}
		if v, ok := dp.Min.Value(); ok {
			m := float64(v)
			p.Min = &m
		}
		if v, ok := dp.Max.Value(); ok {
			m := float64(v)
			p.Max = &m
		}
		out = append(out, p)
	}
	return out
}
