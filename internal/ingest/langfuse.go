package ingest

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/mcpeval/mcpeval/internal/export/langfuse"
)

// Langfuse's observation types that make a conversation.
const (
	lfGeneration = "GENERATION"
	lfTool       = "TOOL"
	lfAgent      = "AGENT"
)

// LangfuseConversation reads the conversation of a Langfuse trace read
// with its observations: each observation becomes the span it stands for,
// read as an OTLP span is. A trace sent over OpenTelemetry keeps its
// spans' attributes in each observation's metadata, which are read first;
// what they do not say is taken from the observation's own fields (its
// type, model, usage, input, output, level). The trace's metadata, tags
// and session are attributes of the conversation, for matching. ok is
// false when the trace holds no generation, tool or agent.
func LangfuseConversation(t langfuse.Trace) (conv Conversation, ok bool) {
	obs := append([]langfuse.Observation(nil), t.Observations...)
	// Langfuse keeps times to the millisecond, so steps that followed
	// one another quickly start together: the one that ended first came
	// first.
	sort.SliceStable(obs, func(i, j int) bool {
		a, b := obs[i], obs[j]
		if !a.StartTime.Equal(b.StartTime) {
			return a.StartTime.Before(b.StartTime)
		}
		return endOf(a).Before(endOf(b))
	})
	spans := make([]*span, 0, len(obs)+1)
	for i, o := range obs {
		spans = append(spans, observationSpan(t.ID, o, i))
	}
	if len(spans) == 0 && (len(t.Input) > 0 || len(t.Output) > 0) {
		// A trace with its input and output but no observation: one agent.
		spans = append(spans, &span{trace: t.ID, name: "invoke_agent " + t.Name, start: t.Timestamp, end: t.Timestamp,
			attrs: map[string]any{keyOperation: "invoke_agent", keyInputMessages: messagesJSON("user", t.Input), keyOutputMessages: messagesJSON("assistant", t.Output)}})
	}
	if len(spans) == 0 {
		return Conversation{}, false
	}
	// The trace's own attributes go with every span's resource, below
	// the spans' own.
	traceAttrs := jsonObject(t.Metadata)
	if t.SessionID != "" {
		traceAttrs["session.id"] = t.SessionID
	}
	if t.UserID != "" {
		traceAttrs["user.id"] = t.UserID
	}
	if len(t.Tags) > 0 {
		traceAttrs["langfuse.trace.tags"] = strings.Join(t.Tags, ",")
	}
	if t.Name != "" {
		traceAttrs["langfuse.trace.name"] = t.Name
	}
	for _, s := range spans {
		for k, v := range traceAttrs {
			if _, ok := s.resource[k]; !ok {
				if s.resource == nil {
					s.resource = map[string]any{}
				}
				s.resource[k] = v
			}
		}
	}
	conv, ok = conversation(t.ID, spans)
	conv.From = "langfuse trace " + t.ID
	return conv, ok
}

func endOf(o langfuse.Observation) time.Time {
	if o.EndTime != nil {
		return *o.EndTime
	}
	return o.StartTime
}

// observationSpan is the span observation o of trace stands for.
func observationSpan(trace string, o langfuse.Observation, order int) *span {
	meta := jsonObject(o.Metadata)
	attrs, _ := meta["attributes"].(map[string]any)
	if attrs == nil {
		attrs = map[string]any{}
	}
	resource, _ := meta["resourceAttributes"].(map[string]any)
	s := &span{trace: trace, id: o.ID, parent: o.ParentObservationID, name: o.Name, start: o.StartTime, end: endOf(o),
		attrs: attrs, resource: resource, order: order, failed: o.Level == "ERROR", status: o.StatusMessage}
	setDefault := func(k string, v any) {
		if _, ok := attrs[k]; !ok && v != nil && v != "" {
			attrs[k] = v
		}
	}
	switch o.Type {
	case lfGeneration:
		setDefault(keyOperation, "chat")
	case lfTool:
		setDefault(keyOperation, "execute_tool")
	case lfAgent:
		setDefault(keyOperation, "invoke_agent")
	}
	switch operation(s) {
	case "chat", "invoke_agent":
		setDefault(keyRequestModel, o.Model)
		if n, ok := o.UsageDetails["input"]; ok {
			setDefault(keyInputTokens, int64(n))
		}
		if n, ok := o.UsageDetails["output"]; ok {
			setDefault(keyOutputTokens, int64(n))
		}
		if len(o.Input) > 0 {
			setDefault(keyInputMessages, messagesJSON("user", o.Input))
		}
		if len(o.Output) > 0 {
			setDefault(keyOutputMessages, messagesJSON("assistant", o.Output))
		}
	case "execute_tool":
		if len(o.Input) > 0 {
			setDefault(keyToolArguments, jsonText(o.Input))
		}
		if len(o.Output) > 0 {
			setDefault(keyToolResult, jsonText(o.Output))
		}
	}
	return s
}

// jsonObject is raw as a JSON object, empty when it is not one.
func jsonObject(raw json.RawMessage) map[string]any {
	m := map[string]any{}
	if json.Unmarshal(raw, &m) != nil || m == nil {
		return map[string]any{}
	}
	return m
}

// jsonText is a JSON value as text: a string as it is, anything else as
// its JSON.
func jsonText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	if string(raw) == "null" {
		return ""
	}
	return string(raw)
}

// messagesJSON is an observation's input or output as messages in the
// GenAI conventions' shape: as they are when they are in it; messages of
// the chat APIs' shape ({"role", "content"}) with their text as parts;
// anything else as one message of role with its text.
func messagesJSON(role string, raw json.RawMessage) string {
	text := jsonText(raw)
	if text == "" {
		return ""
	}
	var msgs []map[string]any
	if json.Unmarshal([]byte(text), &msgs) == nil && len(msgs) > 0 {
		if _, ok := msgs[0]["parts"]; ok {
			return text
		}
		var out []message
		for _, m := range msgs {
			r, _ := m["role"].(string)
			c, ok := m["content"].(string)
			if r == "" || !ok {
				continue
			}
			content, _ := json.Marshal(c)
			out = append(out, message{Role: r, Parts: []part{{Type: "text", Content: content}}})
		}
		if len(out) > 0 {
			b, _ := json.Marshal(out)
			return string(b)
		}
	}
	content, _ := json.Marshal(text)
	b, _ := json.Marshal([]message{{Role: role, Parts: []part{{Type: "text", Content: content}}}})
	return string(b)
}

// LangfuseFrom is what a Langfuse import reads, for the run's target spec:
// the host, with the filters that chose the traces.
func LangfuseFrom(host string, f langfuse.TraceFilter) string {
	s := "langfuse " + host
	var parts []string
	if f.Name != "" {
		parts = append(parts, "name="+f.Name)
	}
	for _, t := range f.Tags {
		parts = append(parts, "tag="+t)
	}
	if f.SessionID != "" {
		parts = append(parts, "session="+f.SessionID)
	}
	if !f.From.IsZero() {
		parts = append(parts, fmt.Sprintf("from=%s", f.From.UTC().Format("2006-01-02T15:04:05Z")))
	}
	if !f.To.IsZero() {
		parts = append(parts, fmt.Sprintf("to=%s", f.To.UTC().Format("2006-01-02T15:04:05Z")))
	}
	if len(parts) > 0 {
		s += " (" + strings.Join(parts, ", ") + ")"
	}
	return s
}

// ReadLangfuse reads the conversations of the traces f selects in the
// Langfuse project c opens: every page of the list, then each trace with
// its observations, in the order they started. Skipped are the ids of
// the traces that held no conversation (no generation, tool or agent, no
// input or output). An error names the page or the trace it came from.
func ReadLangfuse(ctx context.Context, c *langfuse.Client, f langfuse.TraceFilter) (convs []Conversation, skipped []string, err error) {
	list, err := c.Traces(ctx, f)
	if err != nil {
		return nil, nil, err
	}
	for _, t := range list {
		full, err := c.Trace(ctx, t.ID)
		if err != nil {
			return nil, nil, err
		}
		conv, ok := LangfuseConversation(full)
		if !ok {
			skipped = append(skipped, t.ID)
			continue
		}
		convs = append(convs, conv)
	}
	sort.SliceStable(convs, func(i, j int) bool { return convs[i].Attempt.Start.Before(convs[j].Attempt.Start) })
	return convs, skipped, nil
}
