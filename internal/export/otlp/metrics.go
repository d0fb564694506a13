package otlp

import (
	"context"
	"net/url"
	"os"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	metricpb "go.opentelemetry.io/proto/otlp/metrics/v1"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/record"
)

// The metrics an Exporter sends with Options.Metrics, after the GenAI and
// MCP semantic conventions where they have one.
const (
	// MetricAttempts counts finished attempts by verdict
	// (mcpeval.verdict: pass, fail, error, or ungraded).
	MetricAttempts = "mcpeval.attempts"
	// MetricTokens is the tokens of each model turn, by gen_ai.token.type
	// (input, output).
	MetricTokens = "gen_ai.client.token.usage"
	// MetricModelDuration is each model turn's latency, in seconds.
	MetricModelDuration = "gen_ai.client.operation.duration"
	// MetricToolDuration is each tool call's duration, in seconds.
	MetricToolDuration = "mcp.client.operation.duration"
)

// meters records an Exporter's metrics and sends them periodically.
type meters struct {
	mp        *sdkmetric.MeterProvider
	attempts  metric.Int64Counter
	tokens    metric.Int64Histogram
	modelTime metric.Float64Histogram
	toolTime  metric.Float64Histogram
}

// metricsURL is the metrics endpoint beside a traces endpoint.
func metricsURL(traces string) string {
	u, err := url.Parse(traces)
	if err != nil {
		return traces
	}
	if p, ok := strings.CutSuffix(u.Path, "/v1/traces"); ok {
		u.Path = p + "/v1/metrics"
	}
	return u.String()
}

func newMeters(opts *Options, timeout time.Duration) (*meters, error) {
	c, err := newClient(opts, metrics, timeout, os.Getenv)
	if err != nil {
		return nil, err
	}
	exp := &metricExporter{c: c, temporality: temporalitySelector(os.Getenv("OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE"))}
	every := opts.MetricsInterval
	if every <= 0 {
		every = 10 * time.Second
	}
	mp := sdkmetric.NewMeterProvider(
		sdkmetric.WithReader(sdkmetric.NewPeriodicReader(exp, sdkmetric.WithInterval(every), sdkmetric.WithTimeout(timeout))),
		sdkmetric.WithResource(runResource(&record.Header{})),
	)
	m := mp.Meter(scope)
	ms := &meters{mp: mp}
	if ms.attempts, err = m.Int64Counter(MetricAttempts, metric.WithUnit("{attempt}"), metric.WithDescription("Finished attempts, by verdict")); err != nil {
		return nil, err
	}
	if ms.tokens, err = m.Int64Histogram(MetricTokens, metric.WithUnit("{token}"), metric.WithDescription("Tokens of each model turn")); err != nil {
		return nil, err
	}
	if ms.modelTime, err = m.Float64Histogram(MetricModelDuration, metric.WithUnit("s"), metric.WithDescription("Latency of each model turn")); err != nil {
		return nil, err
	}
	if ms.toolTime, err = m.Float64Histogram(MetricToolDuration, metric.WithUnit("s"), metric.WithDescription("Duration of each tool call")); err != nil {
		return nil, err
	}
	return ms, nil
}

// record adds attempt a, graded g, to the metrics. It only updates
// memory: the periodic reader sends, on its own goroutine.
func (ms *meters) record(h *record.Header, a *record.Attempt, g *grade.AttemptGrade) {
	ctx := context.Background()
	verdict := "ungraded"
	if g != nil {
		verdict = string(g.Outcome)
	}
	model := []attribute.KeyValue{attribute.String(keyProvider, h.Model.Provider), attribute.String(keyRequestModel, h.Model.Name)}
	ms.attempts.Add(ctx, 1, metric.WithAttributes(append(model, attribute.String("mcpeval.verdict", verdict), attribute.String("mcpeval.suite.name", h.Suite.Name))...))
	chat := metric.WithAttributes(append(model, attribute.String(keyOperation, "chat"))...)
	in := metric.WithAttributes(append(model, attribute.String(keyOperation, "chat"), attribute.String("gen_ai.token.type", "input"))...)
	out := metric.WithAttributes(append(model, attribute.String(keyOperation, "chat"), attribute.String("gen_ai.token.type", "output"))...)
	for _, t := range a.Turns {
		ms.tokens.Record(ctx, t.Usage.Input, in)
		ms.tokens.Record(ctx, t.Usage.Output, out)
		ms.modelTime.Record(ctx, float64(t.LatencyMS)/1000, chat)
		for _, c := range t.Calls {
			kv := []attribute.KeyValue{attribute.String(keyMCPMethod, "tools/call"), attribute.String(keyToolName, c.Name)}
			if e := callError(c); e != "" {
				kv = append(kv, attribute.String(keyErrorType, e))
			}
			ms.toolTime.Record(ctx, callDuration(c).Seconds(), metric.WithAttributes(kv...))
		}
	}
}

// metricExporter sends what the periodic reader collects with a client.
type metricExporter struct {
	c           *client
	temporality sdkmetric.TemporalitySelector
}

func (x *metricExporter) Temporality(k sdkmetric.InstrumentKind) metricdata.Temporality {
	return x.temporality(k)
}

func (x *metricExporter) Aggregation(k sdkmetric.InstrumentKind) sdkmetric.Aggregation {
	return sdkmetric.DefaultAggregationSelector(k)
}

// Export sends rm in one request, retrying as the client does until ctx
// (the reader's timeout) is done.
func (x *metricExporter) Export(ctx context.Context, rm *metricdata.ResourceMetrics) error {
	m, err := resourceMetrics(rm)
	if err != nil {
		return err
	}
	body, err := encodeRequest([]*metricpb.ResourceMetrics{m})
	if err != nil {
		return err
	}
	return x.c.post(ctx, body)
}

func (x *metricExporter) ForceFlush(ctx context.Context) error { return ctx.Err() }
func (x *metricExporter) Shutdown(ctx context.Context) error   { return ctx.Err() }

// temporalitySelector reads OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE
// as the SDK does: cumulative (the default), delta or lowmemory.
func temporalitySelector(pref string) sdkmetric.TemporalitySelector {
	switch strings.ToLower(strings.TrimSpace(pref)) {
	case "delta":
		return func(k sdkmetric.InstrumentKind) metricdata.Temporality {
			switch k {
			case sdkmetric.InstrumentKindCounter, sdkmetric.InstrumentKindObservableCounter, sdkmetric.InstrumentKindHistogram:
				return metricdata.DeltaTemporality
			}
			return metricdata.CumulativeTemporality
		}
	case "lowmemory":
		return func(k sdkmetric.InstrumentKind) metricdata.Temporality {
			switch k {
			case sdkmetric.InstrumentKindCounter, sdkmetric.InstrumentKindHistogram:
				return metricdata.DeltaTemporality
			}
			return metricdata.CumulativeTemporality
		}
	}
	return sdkmetric.DefaultTemporalitySelector
}
