package otlp

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/grade/actions"
	"github.com/mcpeval/mcpeval/internal/redact"
	"github.com/mcpeval/mcpeval/record"
)

// Attempt is one recorded attempt to export, with what grading made of it.
type Attempt struct {
	Header  *record.Header
	Attempt *record.Attempt
	// Grade is the attempt's verdict; nil when it was not graded.
	Grade *grade.AttemptGrade
	// Actions is the attempt's action score; nil when the case is not an
	// action case.
	Actions *actions.Result
	// Group and Dataset are the case's group and dataset, when known.
	Group, Dataset string
}

// Attribute keys of the GenAI and MCP semantic conventions, and mcpeval's
// own (under "mcpeval.").
const (
	keyOperation       = "gen_ai.operation.name"
	keyProvider        = "gen_ai.provider.name"
	keyRequestModel    = "gen_ai.request.model"
	keyAgentName       = "gen_ai.agent.name"
	keyConversation    = "gen_ai.conversation.id"
	keyInputTokens     = "gen_ai.usage.input_tokens"
	keyOutputTokens    = "gen_ai.usage.output_tokens"
	keyCacheRead       = "gen_ai.usage.cache_read.input_tokens"
	keyCacheCreation   = "gen_ai.usage.cache_creation.input_tokens"
	keyFinishReasons   = "gen_ai.response.finish_reasons"
	keyToolName        = "gen_ai.tool.name"
	keyToolCallID      = "gen_ai.tool.call.id"
	keyToolType        = "gen_ai.tool.type"
	keyToolArguments   = "gen_ai.tool.call.arguments"
	keyToolResult      = "gen_ai.tool.call.result"
	keyInputMessages   = "gen_ai.input.messages"
	keyOutputMessages  = "gen_ai.output.messages"
	keySystem          = "gen_ai.system_instructions"
	keyMCPMethod       = "mcp.method.name"
	keyServerAddress   = "server.address"
	keyServerPort      = "server.port"
	keyNetworkProtocol = "network.transport"
	keyErrorType       = "error.type"
)

// SpanAttempt, SpanChat and SpanTool start the names of the three kinds of
// span: "attempt CASE #N", "chat MODEL", "execute_tool TOOL". A server's
// sampling request is a "chat MODEL" span under its tool call's, an
// elicitation an "elicitation" span there, and what the user said after
// an answer a "user" span under the attempt's.
const (
	SpanAttempt = "attempt"
	SpanChat    = "chat"
	SpanTool    = "execute_tool"
	// SpanUser is a message of the user after the model's answer: a
	// case's scripted turn, or a simulated user's (then a chat with the
	// user's model).
	SpanUser = "user"
	// SpanElicitation is a server's elicitation request during a tool
	// call and the answer the suite gave.
	SpanElicitation = "elicitation"
)

// TraceID returns the trace id of attempt n of case c in run runID: the
// first 16 bytes of a SHA-256 over them, so that exporting a run again
// sends the same traces.
func TraceID(runID, c string, n int) trace.TraceID {
	var t trace.TraceID
	sum := sha256.Sum256([]byte("mcpeval-trace\x00" + runID + "\x00" + c + "\x00" + strconv.Itoa(n)))
	copy(t[:], sum[:16])
	return t
}

// spanID derives span number i of trace t (0 is the attempt's own span).
func spanID(t trace.TraceID, i int) trace.SpanID {
	var s trace.SpanID
	b := make([]byte, 0, 24)
	b = append(b, t[:]...)
	b = binary.BigEndian.AppendUint64(b, uint64(i))
	sum := sha256.Sum256(b)
	copy(s[:], sum[:8])
	if !s.IsValid() { // all zero: vanishingly unlikely, but never invalid
		s[7] = 1
	}
	return s
}

// ids is an sdktrace.IDGenerator that takes the ids from the context a
// span is started with (see withIDs).
type ids struct{}

type idKey struct{}

type idPair struct {
	t trace.TraceID
	s trace.SpanID
}

func withIDs(ctx context.Context, t trace.TraceID, s trace.SpanID) context.Context {
	return context.WithValue(ctx, idKey{}, idPair{t, s})
}

func (ids) NewIDs(ctx context.Context) (trace.TraceID, trace.SpanID) {
	p, _ := ctx.Value(idKey{}).(idPair)
	return p.t, p.s
}

func (ids) NewSpanID(ctx context.Context, _ trace.TraceID) trace.SpanID {
	p, _ := ctx.Value(idKey{}).(idPair)
	return p.s
}

// collect is a span processor that keeps every ended span.
type collect struct {
	mu    sync.Mutex
	spans []sdktrace.ReadOnlySpan
}

func (c *collect) OnStart(context.Context, sdktrace.ReadWriteSpan) {}
func (c *collect) OnEnd(s sdktrace.ReadOnlySpan) {
	c.mu.Lock()
	c.spans = append(c.spans, s)
	c.mu.Unlock()
}
func (c *collect) Shutdown(context.Context) error   { return nil }
func (c *collect) ForceFlush(context.Context) error { return nil }

// scope names the instrumentation that made the spans.
const scope = "github.com/mcpeval/mcpeval"

// builder turns attempts into spans.
type builder struct {
	content bool
	red     *redact.Redactor
}

func newBuilder(opts *Options) (*builder, error) {
	b := &builder{content: opts.Content, red: opts.Redactor}
	if b.content && b.red == nil {
		r, err := redact.New(nil, nil)
		if err != nil {
			return nil, err
		}
		b.red = r
	}
	return b, nil
}

// text returns s as it may be sent: redacted.
func (b *builder) text(s string) string { return b.red.String(s) }

// spans returns the spans of attempt it, the attempt's own span first
// among them in no particular order.
func (b *builder) spans(it Attempt) []sdktrace.ReadOnlySpan {
	h, a := it.Header, it.Attempt
	if h == nil {
		h = &record.Header{}
	}
	col := &collect{}
	tp := sdktrace.NewTracerProvider(
		sdktrace.WithSpanProcessor(col),
		sdktrace.WithIDGenerator(ids{}),
		sdktrace.WithSampler(sdktrace.AlwaysSample()),
		sdktrace.WithResource(runResource(h)),
	)
	tr := tp.Tracer(scope, trace.WithInstrumentationVersion(h.Tool.Version))
	tid := TraceID(h.RunID, a.Case, a.N)
	next := 0
	start := func(ctx context.Context, name string, at time.Time, kind trace.SpanKind, attrs ...attribute.KeyValue) (context.Context, trace.Span) {
		ctx = withIDs(ctx, tid, spanID(tid, next))
		next++
		return tr.Start(ctx, name, trace.WithTimestamp(at), trace.WithSpanKind(kind), trace.WithAttributes(attrs...))
	}

	begin := a.Start
	end := begin.Add(time.Duration(a.DurationMS) * time.Millisecond)
	ctx, root := start(context.Background(), fmt.Sprintf("%s %s #%d", SpanAttempt, a.Case, a.N), begin, trace.SpanKindInternal, b.attemptAttrs(it)...)

	provider, modelName := h.Model.Provider, h.Model.Name
	at := begin
	for i, t := range a.Turns {
		latency := time.Duration(t.LatencyMS) * time.Millisecond
		_, chat := start(ctx, SpanChat+" "+modelName, at, trace.SpanKindClient, b.turnAttrs(provider, modelName, i, t)...)
		at = at.Add(latency)
		chat.End(trace.WithTimestamp(at))
		for _, c := range t.Calls {
			d := callDuration(c)
			tctx, tool := start(ctx, SpanTool+" "+c.Name, at, trace.SpanKindClient, b.callAttrs(h, c)...)
			if msg := callError(c); msg != "" {
				tool.SetStatus(codes.Error, msg)
			}
			// What the server asked during the call, children of its span,
			// one after the other from its start.
			in := at
			for _, sm := range c.Sampling {
				p, n := provider, modelName
				if sm.Model != nil {
					p, n = sm.Model.Provider, sm.Model.Name
				}
				_, sp := start(tctx, SpanChat+" "+n, in, trace.SpanKindClient, b.samplingAttrs(p, n, sm)...)
				if sm.Error != "" {
					sp.SetStatus(codes.Error, b.safe(sm.Error))
				}
				in = in.Add(time.Duration(sm.Turn.LatencyMS) * time.Millisecond)
				sp.End(trace.WithTimestamp(in))
			}
			for _, e := range c.Elicitations {
				_, ep := start(tctx, SpanElicitation, in, trace.SpanKindInternal, b.elicitationAttrs(e)...)
				ep.End(trace.WithTimestamp(in))
			}
			at = at.Add(d)
			tool.End(trace.WithTimestamp(at))
		}
		if u := t.User; u != nil {
			var lat time.Duration
			if u.Turn != nil {
				lat = time.Duration(u.Turn.LatencyMS) * time.Millisecond
			}
			_, us := start(ctx, SpanUser, at, trace.SpanKindInternal, b.userAttrs(i, u)...)
			if u.Error != "" {
				us.SetStatus(codes.Error, b.safe(u.Error))
			}
			at = at.Add(lat)
			us.End(trace.WithTimestamp(at))
		}
	}
	if at.After(end) { // durations rounded to milliseconds may overrun
		end = at
	}
	if a.End == record.EndError {
		msg := "the attempt ended in an error"
		if a.Error != nil {
			msg = string(a.Error.Kind) + ": " + a.Error.Message
		}
		root.SetStatus(codes.Error, b.safe(msg))
	}
	root.End(trace.WithTimestamp(end))
	tp.Shutdown(context.Background())
	return col.spans
}

// callDuration is how long call c took as its record says: to the
// microsecond when the record kept it, in whole milliseconds in records
// written before it did.
func callDuration(c record.Call) time.Duration {
	if c.DurationUS > 0 {
		return time.Duration(c.DurationUS) * time.Microsecond
	}
	return time.Duration(c.DurationMS) * time.Millisecond
}

// safe returns an error message for a span: the first pass of the
// redactor (credential shapes) always, the whole of it with content.
func (b *builder) safe(s string) string {
	if b.red != nil {
		return b.red.String(s)
	}
	return redact.Secrets(s)
}

// runResource describes the run as the process that made the spans:
// service.name "mcpeval", unless OTEL_SERVICE_NAME or
// OTEL_RESOURCE_ATTRIBUTES say otherwise (they win, as everywhere else).
func runResource(h *record.Header) *resource.Resource {
	kv := []attribute.KeyValue{attribute.String("service.name", "mcpeval")}
	for k, v := range map[string]string{"service.version": h.Tool.Version, "mcpeval.run.id": h.RunID, "mcpeval.suite.name": h.Suite.Name} {
		if v != "" {
			kv = append(kv, attribute.String(k, v))
		}
	}
	ours := resource.NewSchemaless(kv...)
	env, err := resource.New(context.Background(), resource.WithFromEnv())
	if err != nil {
		return ours
	}
	if r, err := resource.Merge(ours, env); err == nil {
		return r
	}
	return ours
}

func (b *builder) attemptAttrs(it Attempt) []attribute.KeyValue {
	h, a := it.Header, it.Attempt
	u := a.Usage()
	kv := []attribute.KeyValue{
		attribute.String(keyOperation, "invoke_agent"),
		attribute.String(keyAgentName, "mcpeval"),
		attribute.String(keyConversation, h.RunID+"/"+a.Case+"/"+strconv.Itoa(a.N)),
		attribute.String(keyProvider, h.Model.Provider),
		attribute.String(keyRequestModel, h.Model.Name),
		attribute.Int64(keyInputTokens, u.Input),
		attribute.Int64(keyOutputTokens, u.Output),
		attribute.Int64(keyCacheRead, u.CacheRead),
		attribute.Int64(keyCacheCreation, u.CacheWrite),
		attribute.String("mcpeval.run.id", h.RunID),
		attribute.String("mcpeval.model.spec", h.Model.Spec),
		attribute.String("mcpeval.suite.name", h.Suite.Name),
		attribute.String("mcpeval.suite.hash", h.Suite.Hash),
		attribute.String("mcpeval.case.id", a.Case),
		attribute.Int("mcpeval.attempt.n", a.N),
		attribute.String("mcpeval.attempt.end", a.End),
		attribute.Int("mcpeval.attempt.turns", len(a.Turns)),
		attribute.Int("mcpeval.attempt.calls", len(a.Calls())),
	}
	if h.Model.Fake {
		kv = append(kv, attribute.Bool("mcpeval.model.fake", true))
	}
	if it.Group != "" {
		kv = append(kv, attribute.String("mcpeval.case.group", it.Group))
	}
	if it.Dataset != "" {
		kv = append(kv, attribute.String("mcpeval.case.dataset", it.Dataset))
	}
	if a.Error != nil {
		kv = append(kv, attribute.String(keyErrorType, string(a.Error.Kind)))
	}
	if g := it.Grade; g != nil {
		kv = append(kv, attribute.String("mcpeval.verdict", string(g.Outcome)))
		reasons, checks := make([]string, 0, len(g.Reasons)), make([]string, 0, len(g.Reasons))
		for _, r := range g.Reasons {
			reasons = append(reasons, b.safe(r.String()))
			checks = append(checks, r.Check)
		}
		kv = append(kv, attribute.StringSlice("mcpeval.reasons", reasons), attribute.StringSlice("mcpeval.checks.failed", checks))
		if g.ErrorKind != "" {
			kv = append(kv, attribute.String("mcpeval.error.kind", g.ErrorKind))
		}
	}
	if r := it.Actions; r != nil {
		kv = append(kv, attribute.String("mcpeval.action.kind", r.Kind), attribute.Bool("mcpeval.action.pass", r.Pass))
		if r.Excluded != "" {
			kv = append(kv, attribute.String("mcpeval.action.excluded", r.Excluded))
		}
		for i, col := range r.Columns.List() {
			name := ColumnKey(actions.ColumnNames[i])
			kv = append(kv, attribute.Int("mcpeval.action."+name+".num", col.Num), attribute.Int("mcpeval.action."+name+".den", col.Den))
		}
	}
	if b.content {
		kv = append(kv,
			attribute.String(keySystem, b.text(messages(part{Type: "text", Content: h.SystemPrompt}))),
			attribute.String(keyInputMessages, b.text(messagesOf("user", "", part{Type: "text", Content: a.Prompt}))),
			attribute.String(keyOutputMessages, b.text(messagesOf("assistant", a.End, part{Type: "text", Content: a.Answer}))),
		)
	}
	return kv
}

// ColumnKey is the attribute (and score) name of an action column:
// "First time" is "first_time".
func ColumnKey(column string) string {
	return strings.ReplaceAll(strings.ToLower(column), " ", "_")
}

func (b *builder) turnAttrs(provider, modelName string, i int, t record.Turn) []attribute.KeyValue {
	kv := []attribute.KeyValue{
		attribute.String(keyOperation, "chat"),
		attribute.String(keyProvider, provider),
		attribute.String(keyRequestModel, modelName),
		attribute.Int64(keyInputTokens, t.Usage.Input),
		attribute.Int64(keyOutputTokens, t.Usage.Output),
		attribute.Int64(keyCacheRead, t.Usage.CacheRead),
		attribute.Int64(keyCacheCreation, t.Usage.CacheWrite),
		attribute.Int("mcpeval.turn", i+1),
		attribute.Int64("mcpeval.turn.latency_ms", t.LatencyMS),
	}
	if t.StopReason != "" {
		kv = append(kv, attribute.StringSlice(keyFinishReasons, []string{t.StopReason}))
	}
	if len(t.Tries) > 0 {
		kv = append(kv, attribute.Int("mcpeval.turn.refused_tries", len(t.Tries)))
	}
	if b.content {
		parts := []part{}
		if t.Text != "" {
			parts = append(parts, part{Type: "text", Content: t.Text})
		}
		for _, c := range t.Calls {
			args := c.Args
			if !json.Valid(args) { // as the model wrote them, which may not be JSON
				args, _ = json.Marshal(string(c.Args))
			}
			parts = append(parts, part{Type: "tool_call", ID: c.ID, Name: c.Name, Arguments: args})
		}
		kv = append(kv, attribute.String(keyOutputMessages, b.text(messagesOf("assistant", t.StopReason, parts...))))
	}
	return kv
}

// samplingAttrs are the attributes of a server's sampling request during a
// tool call, answered by the model provider/modelName: a chat of its own,
// marked as sampling; its messages and answer go only with the content.
func (b *builder) samplingAttrs(provider, modelName string, sm record.Sampling) []attribute.KeyValue {
	kv := []attribute.KeyValue{
		attribute.String(keyOperation, "chat"),
		attribute.String(keyProvider, provider),
		attribute.String(keyRequestModel, modelName),
		attribute.Int64(keyInputTokens, sm.Turn.Usage.Input),
		attribute.Int64(keyOutputTokens, sm.Turn.Usage.Output),
		attribute.String(keyMCPMethod, "sampling/createMessage"),
		attribute.Bool("mcpeval.sampling", true),
	}
	if sm.MaxTokens > 0 {
		kv = append(kv, attribute.Int64("gen_ai.request.max_tokens", sm.MaxTokens))
	}
	if sm.Turn.StopReason != "" {
		kv = append(kv, attribute.StringSlice(keyFinishReasons, []string{sm.Turn.StopReason}))
	}
	if b.content {
		in := make([]message, 0, len(sm.Messages))
		for _, m := range sm.Messages {
			in = append(in, message{Role: m.Role, Parts: []part{{Type: "text", Content: m.Text}}})
		}
		js, _ := json.Marshal(in)
		kv = append(kv,
			attribute.String(keyInputMessages, b.text(string(js))),
			attribute.String(keyOutputMessages, b.text(messagesOf("assistant", sm.Turn.StopReason, part{Type: "text", Content: sm.Turn.Text}))))
		if sm.System != "" {
			kv = append(kv, attribute.String(keySystem, b.text(messages(part{Type: "text", Content: sm.System}))))
		}
	}
	return kv
}

// elicitationAttrs are the attributes of a server's elicitation request
// and the suite's answer: the action always, the message and content only
// with the content.
func (b *builder) elicitationAttrs(e record.Elicitation) []attribute.KeyValue {
	kv := []attribute.KeyValue{
		attribute.String(keyMCPMethod, "elicitation/create"),
		attribute.String("mcpeval.elicitation.action", e.Action),
	}
	if b.content {
		kv = append(kv, attribute.String("mcpeval.elicitation.message", b.text(e.Message)))
		if len(e.Content) > 0 {
			kv = append(kv, attribute.String("mcpeval.elicitation.content", b.text(string(e.Content))))
		}
		if e.Note != "" {
			kv = append(kv, attribute.String("mcpeval.elicitation.note", b.text(e.Note)))
		}
	}
	return kv
}

// userAttrs are the attributes of what the user said after turn i's
// answer: the case's entry, or the simulated user's model and tokens; the
// message only with the content.
func (b *builder) userAttrs(i int, u *record.UserTurn) []attribute.KeyValue {
	kv := []attribute.KeyValue{attribute.Int("mcpeval.turn", i+1)}
	if u.Entry > 0 {
		kv = append(kv, attribute.Int("mcpeval.user.entry", u.Entry))
	}
	if u.Approves {
		kv = append(kv, attribute.Bool("mcpeval.user.approves", true))
	}
	if u.Stop {
		kv = append(kv, attribute.Bool("mcpeval.user.stop", true))
	}
	if u.Model != nil {
		kv = append(kv, attribute.String(keyOperation, "chat"), attribute.String(keyProvider, u.Model.Provider), attribute.String(keyRequestModel, u.Model.Name))
		if u.Turn != nil {
			kv = append(kv, attribute.Int64(keyInputTokens, u.Turn.Usage.Input), attribute.Int64(keyOutputTokens, u.Turn.Usage.Output))
		}
	}
	if b.content {
		kv = append(kv, attribute.String("mcpeval.user.message", b.text(u.Text)))
	}
	return kv
}

func (b *builder) callAttrs(h *record.Header, c record.Call) []attribute.KeyValue {
	kv := []attribute.KeyValue{
		attribute.String(keyOperation, "execute_tool"),
		attribute.String(keyToolName, c.Name),
		attribute.String(keyToolCallID, c.ID),
		attribute.String(keyToolType, "function"),
		attribute.String(keyMCPMethod, "tools/call"),
		attribute.Int64("mcpeval.call.duration_ms", c.DurationMS),
		attribute.String("mcpeval.target.server.name", h.Target.Server.Name),
		attribute.String("mcpeval.target.server.version", h.Target.Server.Version),
	}
	if c.WireName != "" && c.WireName != c.Name {
		kv = append(kv, attribute.String("mcpeval.call.wire_name", c.WireName))
	}
	if !c.Shown {
		kv = append(kv, attribute.Bool("mcpeval.call.shown", false))
	}
	if c.NotSent {
		kv = append(kv, attribute.Bool("mcpeval.call.not_sent", true))
	}
	if t := callError(c); t != "" {
		kv = append(kv, attribute.String(keyErrorType, t))
	}
	spec := h.Target.Spec
	switch {
	case strings.HasPrefix(spec, "http://") || strings.HasPrefix(spec, "https://"):
		kv = append(kv, attribute.String(keyNetworkProtocol, "tcp"))
		// The server's address may name a deployment: it goes with the
		// content, through the redactor.
		if u, err := url.Parse(spec); err == nil && b.content {
			kv = append(kv, attribute.String(keyServerAddress, b.text(u.Hostname())))
			if p, err := strconv.Atoi(u.Port()); err == nil {
				kv = append(kv, attribute.Int(keyServerPort, p))
			}
		}
	case strings.HasPrefix(spec, "stdio:") || strings.HasPrefix(spec, "builtin:"):
		kv = append(kv, attribute.String(keyNetworkProtocol, "pipe"))
	}
	if b.content {
		kv = append(kv, attribute.String(keyToolArguments, b.text(string(c.Args))), attribute.String(keyToolResult, b.text(c.Result)))
	}
	return kv
}

// callError says how a call failed, as an error.type; "" when it did not.
func callError(c record.Call) string {
	switch {
	case !c.Shown:
		return "tool_not_shown"
	case c.Rejected != "":
		return "rejected"
	case c.IsError:
		return "tool_error"
	}
	return ""
}

// part is one part of a GenAI message (the conventions' JSON shape of
// gen_ai.input.messages and gen_ai.output.messages).
type part struct {
	Type      string          `json:"type"`
	Content   string          `json:"content,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
}

type message struct {
	Role         string `json:"role"`
	Parts        []part `json:"parts"`
	FinishReason string `json:"finish_reason,omitempty"`
}

func messagesOf(role, finish string, parts ...part) string {
	if parts == nil {
		parts = []part{}
	}
	b, _ := json.Marshal([]message{{Role: role, Parts: parts, FinishReason: finish}})
	return string(b)
}

func messages(parts ...part) string {
	b, _ := json.Marshal(parts)
	return string(b)
}
