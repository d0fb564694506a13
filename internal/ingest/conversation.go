package ingest

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
)

// Conversation is one conversation read from traffic: an attempt whose
// case is not known yet, with what may name its case.
type Conversation struct {
	// Attempt is what happened, in the record's shape; its Case and N are
	// set when it is matched.
	Attempt record.Attempt
	// Attrs are the conversation's attributes as text: those of its
	// trace's agent span and resource, or the case a JSONL line names
	// (mcpeval.case.id).
	Attrs map[string]string
	// From says where it was read, for people: "trace 4bf9...", "FILE:LINE".
	From string
	// Model is the model that answered (gen_ai.request.model), with its
	// provider, when the traffic says.
	Model model.Info
}

// Attribute keys of the GenAI semantic conventions that ingest reads.
const (
	keyOperation      = "gen_ai.operation.name"
	keyProvider       = "gen_ai.provider.name"
	keySystem         = "gen_ai.system" // the conventions' older name of the provider
	keyRequestModel   = "gen_ai.request.model"
	keyInputTokens    = "gen_ai.usage.input_tokens"
	keyOutputTokens   = "gen_ai.usage.output_tokens"
	keyCacheRead      = "gen_ai.usage.cache_read.input_tokens"
	keyCacheCreation  = "gen_ai.usage.cache_creation.input_tokens"
	keyFinishReasons  = "gen_ai.response.finish_reasons"
	keyToolName       = "gen_ai.tool.name"
	keyToolCallID     = "gen_ai.tool.call.id"
	keyToolArguments  = "gen_ai.tool.call.arguments"
	keyToolResult     = "gen_ai.tool.call.result"
	keyInputMessages  = "gen_ai.input.messages"
	keyOutputMessages = "gen_ai.output.messages"
	keyErrorType      = "error.type"
)

// CaseAttribute is the attribute mcpeval export writes the case id in, the
// default of matching by attribute.
const CaseAttribute = "mcpeval.case.id"

func operation(s *span) string {
	if op := s.str(keyOperation); op != "" {
		return op
	}
	name, _, _ := strings.Cut(s.name, " ")
	return name
}

// Conversations returns the conversations the spans hold, one per trace
// that holds a GenAI agent, chat or tool span, in the order they started.
// Skipped counts the traces that held none.
func (c *Spans) Conversations() (convs []Conversation, skipped int) {
	byTrace := map[string][]*span{}
	var order []string
	for i := range c.spans {
		s := &c.spans[i]
		if _, ok := byTrace[s.trace]; !ok {
			order = append(order, s.trace)
		}
		byTrace[s.trace] = append(byTrace[s.trace], s)
	}
	for _, t := range order {
		conv, ok := conversation(t, byTrace[t])
		if !ok {
			skipped++
			continue
		}
		convs = append(convs, conv)
	}
	sort.SliceStable(convs, func(i, j int) bool { return convs[i].Attempt.Start.Before(convs[j].Attempt.Start) })
	return convs, skipped
}

// conversation makes the attempt of one trace's spans.
func conversation(trace string, spans []*span) (Conversation, bool) {
	sort.SliceStable(spans, func(i, j int) bool {
		if !spans[i].start.Equal(spans[j].start) {
			return spans[i].start.Before(spans[j].start)
		}
		return spans[i].order < spans[j].order
	})
	var root *span
	var chats, tools []*span
	for _, s := range spans {
		switch operation(s) {
		case "invoke_agent":
			if root == nil {
				root = s
			}
		case "chat":
			chats = append(chats, s)
		case "execute_tool":
			tools = append(tools, s)
		}
	}
	if root == nil && len(chats) == 0 && len(tools) == 0 {
		return Conversation{}, false
	}
	conv := Conversation{From: "trace " + trace, Attrs: map[string]string{}}
	top := root
	if top == nil {
		for _, s := range spans {
			if s.parent == "" {
				top = s
				break
			}
		}
		if top == nil {
			top = spans[0]
		}
	}
	for k := range top.resource {
		conv.Attrs[k] = (&span{attrs: top.resource}).str(k)
	}
	for k := range top.attrs {
		conv.Attrs[k] = top.str(k)
	}
	a := &conv.Attempt
	a.Start = spans[0].start
	end := spans[0].end
	for _, s := range spans {
		if s.end.After(end) {
			end = s.end
		}
	}
	if root != nil {
		a.Start, end = root.start, root.end
	}
	a.DurationMS = end.Sub(a.Start).Milliseconds()

	for _, s := range append([]*span{root}, chats...) {
		if s == nil {
			continue
		}
		if conv.Model.Name == "" {
			conv.Model.Name = s.str(keyRequestModel)
		}
		if conv.Model.Provider == "" {
			conv.Model.Provider = s.str(keyProvider)
			if conv.Model.Provider == "" {
				conv.Model.Provider = s.str(keySystem)
			}
		}
	}

	for _, ch := range chats {
		t := record.Turn{
			Text:      messageText(ch.str(keyOutputMessages), "assistant"),
			LatencyMS: ch.end.Sub(ch.start).Milliseconds(),
			Usage: model.Usage{Input: ch.int(keyInputTokens), Output: ch.int(keyOutputTokens),
				CacheRead: ch.int(keyCacheRead), CacheWrite: ch.int(keyCacheCreation)},
		}
		if fr, ok := ch.attrs[keyFinishReasons].([]any); ok && len(fr) > 0 {
			t.StopReason, _ = fr[0].(string)
		}
		a.Turns = append(a.Turns, t)
	}
	// Each tool call belongs to the model turn whose message names its
	// call id, else to the last model turn that started before it; a
	// turn with no tool spans keeps the calls its message names.
	hasSpans := make([]bool, len(a.Turns))
	named, pos := map[string]int{}, map[string]int{}
	for j, ch := range chats {
		for k, c := range messageCalls(ch.str(keyOutputMessages)) {
			if _, ok := named[c.ID]; !ok && c.ID != "" {
				named[c.ID], pos[c.ID] = j, k
			}
		}
	}
	// Calls that started together (traffic kept to the millisecond) are
	// in the order their messages give.
	at := func(ts *span) (int, int) {
		if j, ok := named[ts.str(keyToolCallID)]; ok {
			return j, pos[ts.str(keyToolCallID)]
		}
		return len(chats), 0
	}
	sort.SliceStable(tools, func(x, y int) bool {
		if !tools[x].start.Equal(tools[y].start) {
			return tools[x].start.Before(tools[y].start)
		}
		jx, px := at(tools[x])
		jy, py := at(tools[y])
		if jx != jy {
			return jx < jy
		}
		return px < py
	})
	for _, ts := range tools {
		i := 0
		for j, ch := range chats {
			if !ch.start.After(ts.start) {
				i = j
			}
		}
		if j, ok := named[ts.str(keyToolCallID)]; ok {
			i = j
		}
		if len(a.Turns) == 0 {
			a.Turns = append(a.Turns, record.Turn{})
			hasSpans = append(hasSpans, false)
		}
		a.Turns[i].Calls = append(a.Turns[i].Calls, toolCall(ts))
		hasSpans[i] = true
	}
	for i, ch := range chats {
		if !hasSpans[i] {
			a.Turns[i].Calls = messageCalls(ch.str(keyOutputMessages))
		}
	}

	a.Prompt = promptOf(root, chats)
	a.Answer = answerOf(root, a.Turns)
	a.End = record.EndAnswered
	if root != nil {
		if e := root.str("mcpeval.attempt.end"); e != "" {
			a.End = e
		}
		if root.failed || a.End == record.EndError {
			a.End = record.EndError
			kind := root.str(keyErrorType)
			if kind == "" {
				kind = "provider"
			}
			a.Error = &record.Error{Kind: record.ErrorKind(kind), Message: root.status}
		}
	}
	return conv, true
}

// toolCall reads an execute_tool span.
func toolCall(s *span) record.Call {
	c := record.Call{
		ID: s.str(keyToolCallID), Name: s.str(keyToolName), Result: s.str(keyToolResult),
		Shown: true, WireName: s.str("mcpeval.call.wire_name"),
	}
	if c.Name == "" {
		_, c.Name, _ = strings.Cut(s.name, " ")
	}
	c.Args = rawArgs(s.str(keyToolArguments))
	if d := s.end.Sub(s.start); d > 0 {
		c.DurationUS, c.DurationMS = d.Microseconds(), d.Milliseconds()
	}
	if v, ok := s.attrs["mcpeval.call.not_sent"].(bool); ok && v {
		c.NotSent = true
	}
	switch s.str(keyErrorType) {
	case "tool_not_shown":
		c.Shown = false
	case "rejected":
		c.Rejected = s.status
		if c.Rejected == "" {
			c.Rejected = "rejected"
		}
	case "":
		c.IsError = s.failed
	default:
		c.IsError = true
	}
	if v, ok := s.attrs["mcpeval.call.shown"].(bool); ok && !v {
		c.Shown = false
	}
	return c
}

// rawArgs keeps arguments as JSON: as they are when they are JSON, as a
// JSON string when not, {} when absent.
func rawArgs(s string) json.RawMessage {
	if strings.TrimSpace(s) == "" {
		return json.RawMessage("{}")
	}
	if json.Valid([]byte(s)) {
		return json.RawMessage(s)
	}
	b, _ := json.Marshal(s)
	return b
}

// part and message are the GenAI conventions' JSON shape of
// gen_ai.input.messages and gen_ai.output.messages.
type part struct {
	Type      string          `json:"type"`
	Content   json.RawMessage `json:"content"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

type message struct {
	Role  string `json:"role"`
	Parts []part `json:"parts"`
}

func parseMessages(s string) []message {
	var ms []message
	if json.Unmarshal([]byte(s), &ms) != nil {
		return nil
	}
	return ms
}

func (p part) text() string {
	if p.Type != "text" {
		return ""
	}
	var s string
	if json.Unmarshal(p.Content, &s) == nil {
		return s
	}
	return ""
}

// messageText is the text of the messages of role in s, joined.
func messageText(s, role string) string {
	var out []string
	for _, m := range parseMessages(s) {
		if m.Role != role {
			continue
		}
		for _, p := range m.Parts {
			if t := p.text(); t != "" {
				out = append(out, t)
			}
		}
	}
	return strings.Join(out, "\n")
}

// messageCalls are the tool calls an output message names.
func messageCalls(s string) []record.Call {
	var cs []record.Call
	for _, m := range parseMessages(s) {
		for _, p := range m.Parts {
			if p.Type != "tool_call" {
				continue
			}
			args := json.RawMessage("{}")
			if len(p.Arguments) > 0 {
				args = p.Arguments
				var str string
				if json.Unmarshal(p.Arguments, &str) == nil { // arguments sent as a JSON string
					args = rawArgs(str)
				}
			}
			cs = append(cs, record.Call{ID: p.ID, Name: p.Name, Args: args, Shown: true})
		}
	}
	return cs
}

// promptOf is the user's first message: the agent span's input, else the
// first model turn's.
func promptOf(root *span, chats []*span) string {
	if root != nil {
		if p := firstUser(root.str(keyInputMessages)); p != "" {
			return p
		}
	}
	for _, ch := range chats {
		if p := firstUser(ch.str(keyInputMessages)); p != "" {
			return p
		}
	}
	return ""
}

func firstUser(s string) string {
	for _, m := range parseMessages(s) {
		if m.Role != "user" {
			continue
		}
		var out []string
		for _, p := range m.Parts {
			if t := p.text(); t != "" {
				out = append(out, t)
			}
		}
		if len(out) > 0 {
			return strings.Join(out, "\n")
		}
	}
	return ""
}

// answerOf is the agent's final answer: the agent span's output, else the
// last model turn's text.
func answerOf(root *span, turns []record.Turn) string {
	if root != nil {
		if t := messageText(root.str(keyOutputMessages), "assistant"); t != "" {
			return t
		}
	}
	for i := len(turns) - 1; i >= 0; i-- {
		if turns[i].Text != "" && len(turns[i].Calls) == 0 {
			return turns[i].Text
		}
	}
	return ""
}
