package otlp

import (
	"context"
	"fmt"
	"iter"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/redact"
	"github.com/mcpeval/mcpeval/record"
)

// Options say where spans go and what they hold. The zero value sends to
// the endpoint the standard OTEL_EXPORTER_OTLP_* variables name
// (http://localhost:4318/v1/traces when none is set), with their headers,
// and sends no content.
type Options struct {
	// Endpoint is the collector's URL, overriding
	// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT and OTEL_EXPORTER_OTLP_ENDPOINT. A
	// URL without a path gets /v1/traces.
	Endpoint string
	// Headers are sent with every request, in place of those of
	// OTEL_EXPORTER_OTLP_HEADERS (nil: those).
	Headers map[string]string
	// Content sends prompts, answers, tool arguments and results, through
	// Redactor.
	Content bool
	// Redactor redacts content and reasons (nil: credential shapes only).
	Redactor *redact.Redactor
	// Timeout bounds how long Send keeps trying, retries included, and how
	// long an Exporter tries each attempt (0: 30s for Send, 10s for an
	// Exporter).
	Timeout time.Duration
	// Queue is how many attempts an Exporter holds while it sends (0: 256).
	// An attempt that finds the queue full is dropped and counted.
	Queue int
	// Metrics makes an Exporter send metrics too: attempts by verdict,
	// tokens, model and tool latency (see MetricAttempts), every
	// MetricsInterval (0: 10s) and when it closes.
	Metrics         bool
	MetricsInterval time.Duration
	// Warn, when set, is told once that an Exporter dropped or failed to
	// send spans. It is called from the exporter's own goroutine or from
	// Attempt, and must not block.
	Warn func(string)
}

// ParseEndpoint checks a collector URL given by a person and returns it as
// it is sent to: http or https, with /v1/traces when it has no path.
func ParseEndpoint(s string) (string, error) {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("OTLP endpoint %q: want an http:// or https:// URL such as http://localhost:4318", redact.Secrets(s))
	}
	if u.Path == "" || u.Path == "/" {
		u.Path = "/v1/traces"
	}
	return u.String(), nil
}

func newSpanExporter(opts *Options, timeout time.Duration) (*client, error) {
	c, err := newClient(opts, traces, timeout, os.Getenv)
	if err != nil {
		return nil, fmt.Errorf("setting up the OTLP exporter: %w", err)
	}
	return c, nil
}

// exportSpans sends spans in one request.
func exportSpans(ctx context.Context, c *client, spans []sdktrace.ReadOnlySpan) error {
	body, err := encodeRequest(resourceSpans(spans))
	if err != nil {
		return err
	}
	return c.post(ctx, body)
}

// Stats count what an export sent.
type Stats struct {
	// Spans is how many spans were made.
	Spans int
	// Sent is how many the collector accepted.
	Sent int
	// Dropped is how many an Exporter dropped because its queue was full.
	Dropped int
	// Failed is how many were tried and not accepted (a dead or slow
	// collector, a refusal).
	Failed int
}

// NotSent is how many spans did not reach the collector.
func (s Stats) NotSent() int { return s.Spans - s.Sent }

// batchSize is the most spans sent in one request.
const batchSize = 512

// Send sends the attempts' spans and waits for the collector, retrying for
// at most Options.Timeout. The error says how many spans were not sent.
func Send(ctx context.Context, items []Attempt, opts Options) (Stats, error) {
	return SendSeq(ctx, Items(items), opts)
}

// Items hands the attempts of items one at a time, as SendSeq takes them.
func Items(items []Attempt) iter.Seq2[Attempt, error] {
	return func(yield func(Attempt, error) bool) {
		for _, it := range items {
			if !yield(it, nil) {
				return
			}
		}
	}
}

// SendSeq is Send for attempts handed one at a time (a record read as a
// stream): it holds the spans of one batch at most, never the attempts,
// and sends the batches Send sends. An error items hands stops it.
func SendSeq(ctx context.Context, items iter.Seq2[Attempt, error], opts Options) (Stats, error) {
	var st Stats
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	b, err := newBuilder(&opts)
	if err != nil {
		return st, err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	exp, err := newSpanExporter(&opts, timeout)
	if err != nil {
		return st, err
	}
	var last error
	var spans []sdktrace.ReadOnlySpan
	send := func(batch []sdktrace.ReadOnlySpan) {
		if ctx.Err() != nil { // out of time: the rest are only counted
			return
		}
		if last = sendBatch(ctx, exp, batch); last == nil {
			st.Sent += len(batch)
		}
	}
	for it, err := range items {
		if err != nil {
			return st, err
		}
		ss := b.spans(it)
		st.Spans += len(ss)
		spans = append(spans, ss...)
		for len(spans) >= batchSize {
			send(spans[:batchSize])
			spans = append(spans[:0], spans[batchSize:]...)
		}
	}
	if len(spans) > 0 {
		send(spans)
	}
	st.Failed = st.Spans - st.Sent
	if st.Failed > 0 {
		if last == nil {
			last = ctx.Err()
		}
		return st, fmt.Errorf("sending traces: %d of %d spans not sent within %s: %s", st.Failed, st.Spans, timeout, redact.Secrets(last.Error()))
	}
	return st, nil
}

// sendBatch sends spans, trying again after failures the client does not
// retry itself (a refused connection) until ctx is done.
func sendBatch(ctx context.Context, exp *client, spans []sdktrace.ReadOnlySpan) error {
	wait := 250 * time.Millisecond
	for {
		err := exportSpans(ctx, exp, spans)
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
		wait = min(2*wait, 2*time.Second)
	}
}

// Exporter sends attempts as a run records them, without ever making the
// run wait: Attempt builds the spans and queues them, and one goroutine
// sends them. It is safe for concurrent use.
type Exporter struct {
	b       *builder
	exp     *client
	meters  *meters // nil without Options.Metrics
	timeout time.Duration
	warn    func(string)

	mu     sync.Mutex // guards queue against a send after Close
	closed bool
	queue  chan []sdktrace.ReadOnlySpan
	done   chan struct{}
	ctx    context.Context // canceled when Close gives up waiting
	cancel context.CancelFunc

	spans, sent, dropped, failed atomic.Int64
	warnedDrop, warnedFail       atomic.Bool
	warnedMetrics                atomic.Bool
}

// NewExporter returns an Exporter sending where opts say. Nothing is sent
// until the first attempt.
func NewExporter(opts Options) (*Exporter, error) {
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	q := opts.Queue
	if q <= 0 {
		q = 256
	}
	b, err := newBuilder(&opts)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	exp, err := newSpanExporter(&opts, timeout)
	if err != nil {
		cancel()
		return nil, err
	}
	var ms *meters
	if opts.Metrics {
		if ms, err = newMeters(&opts, timeout); err != nil {
			cancel()
			return nil, fmt.Errorf("setting up the OTLP metrics exporter: %w", err)
		}
	}
	e := &Exporter{b: b, exp: exp, meters: ms, timeout: timeout, warn: opts.Warn, queue: make(chan []sdktrace.ReadOnlySpan, q), done: make(chan struct{}), ctx: ctx, cancel: cancel}
	go e.loop()
	return e, nil
}

// Attempt queues attempt a of the run with header h, graded g (nil: not
// graded), and returns at once. When the queue is full the attempt's spans
// are dropped and counted. h, a and g are read before Attempt returns and
// not kept. After Close, Attempt drops everything.
func (e *Exporter) Attempt(h *record.Header, a *record.Attempt, g *grade.AttemptGrade) {
	spans := e.b.spans(Attempt{Header: h, Attempt: a, Grade: g})
	if e.meters != nil {
		e.meters.record(h, a, g)
	}
	n := int64(len(spans))
	e.spans.Add(n)
	e.mu.Lock()
	queued := false
	if !e.closed {
		select {
		case e.queue <- spans:
			queued = true
		default:
		}
	}
	e.mu.Unlock()
	if !queued {
		e.dropped.Add(n)
		e.tell(&e.warnedDrop, "the OTLP exporter is behind: dropping spans (send them later with mcpeval export --otlp)")
	}
}

func (e *Exporter) tell(once *atomic.Bool, msg string) {
	if e.warn != nil && once.CompareAndSwap(false, true) {
		e.warn(msg)
	}
}

func (e *Exporter) loop() {
	defer close(e.done)
	for spans := range e.queue {
		ctx, cancel := context.WithTimeout(e.ctx, e.timeout)
		err := exportSpans(ctx, e.exp, spans)
		cancel()
		if err != nil {
			e.failed.Add(int64(len(spans)))
			e.tell(&e.warnedFail, "the OTLP collector did not take spans: "+redact.Secrets(err.Error()))
			continue
		}
		e.sent.Add(int64(len(spans)))
	}
}

// Close sends what is queued, waiting until ctx is done at the latest, and
// returns what was sent and what was not. Spans still queued when ctx is
// done are counted as failed.
func (e *Exporter) Close(ctx context.Context) Stats {
	e.mu.Lock()
	if !e.closed {
		e.closed = true
		close(e.queue)
	}
	e.mu.Unlock()
	select {
	case <-e.done:
	case <-ctx.Done():
		e.cancel() // every send still to come fails at once
		<-e.done
	}
	if e.meters != nil {
		// The last metrics are sent as it shuts down, within ctx.
		mctx, mcancel := context.WithTimeout(ctx, e.timeout)
		if ctx.Err() != nil {
			mctx, mcancel = context.WithTimeout(context.Background(), 100*time.Millisecond)
		}
		if err := e.meters.mp.Shutdown(mctx); err != nil {
			e.tell(&e.warnedMetrics, "the OTLP collector did not take metrics: "+redact.Secrets(err.Error()))
		}
		mcancel()
	}
	e.cancel()
	return e.Stats()
}

// Stats returns the counts so far.
func (e *Exporter) Stats() Stats {
	return Stats{Spans: int(e.spans.Load()), Sent: int(e.sent.Load()), Dropped: int(e.dropped.Load()), Failed: int(e.failed.Load())}
}

// String says what the stats mean, for a warning.
func (s Stats) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d of %d spans sent", s.Sent, s.Spans)
	if s.Dropped > 0 {
		fmt.Fprintf(&b, ", %d dropped (queue full)", s.Dropped)
	}
	if s.Failed > 0 {
		fmt.Fprintf(&b, ", %d not taken by the collector", s.Failed)
	}
	return b.String()
}
