package model

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Tool is a tool as offered to a model: the MCP name, the description the
// model reads and the JSON Schema of its input.
type Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"input_schema,omitempty"`
}

// Role says who wrote a Message.
type Role string

// The two roles of a conversation. Tool results travel in user messages, as
// both the Anthropic and the MCP conventions have it.
const (
	User      Role = "user"
	Assistant Role = "assistant"
)

// BlockKind names what a Block holds.
type BlockKind string

// The kinds of content block.
const (
	Text       BlockKind = "text"
	ToolUse    BlockKind = "tool_use"
	ToolResult BlockKind = "tool_result"
	Thinking   BlockKind = "thinking"
)

// Block is one piece of a message.
type Block struct {
	Kind BlockKind `json:"kind"`
	// Text is the text of a Text or Thinking block.
	Text string `json:"text,omitempty"`
	// Call is set on a ToolUse block.
	Call *Call `json:"call,omitempty"`
	// Result is set on a ToolResult block.
	Result *Result `json:"result,omitempty"`
	// Opaque is provider content that must be sent back verbatim on the next
	// turn (for example a thinking block with its signature). Providers that
	// have none leave it empty.
	Opaque json.RawMessage `json:"opaque,omitempty"`
}

// Call is a tool call a model made.
type Call struct {
	// ID is the provider's id of the call, echoed in its result.
	ID string `json:"id"`
	// Name is the MCP tool name the call resolves to.
	Name string `json:"name"`
	// WireName is the name the provider used, when a provider's naming rules
	// forced a different one; empty when it is Name.
	WireName string `json:"wire_name,omitempty"`
	// Args is the call's arguments exactly as the model wrote them. It may be
	// invalid JSON: a model's malformed call is recorded, never repaired.
	Args json.RawMessage `json:"args"`
}

// Result is what a tool returned for a Call, as the model is shown it.
type Result struct {
	CallID  string `json:"call_id"`
	Name    string `json:"name"`
	Content string `json:"content"`
	IsError bool   `json:"is_error,omitempty"`
	// Structured is the result's structured content as the server
	// returned it (as an output overlay rewrote it, when one did), nil
	// when it returned none. A provider shows the model
	// Content only (which carries it under tool_results: text+structured);
	// the fakes read a result through it as the grader does.
	Structured json.RawMessage `json:"structured,omitempty"`
}

// Message is one message of a conversation.
type Message struct {
	Role   Role    `json:"role"`
	Blocks []Block `json:"blocks"`
}

// TextOf returns the concatenated text blocks of m.
func (m Message) TextOf() string {
	var s string
	for _, b := range m.Blocks {
		if b.Kind == Text {
			if s != "" && b.Text != "" {
				s += "\n"
			}
			s += b.Text
		}
	}
	return s
}

// Calls returns the tool calls of m, in order.
func (m Message) Calls() []Call {
	var cs []Call
	for _, b := range m.Blocks {
		if b.Kind == ToolUse && b.Call != nil {
			cs = append(cs, *b.Call)
		}
	}
	return cs
}

// Request is one model turn to generate.
type Request struct {
	// CaseID names the corpus case the conversation belongs to. Real providers
	// ignore it; scripted and fake models use it to find their answer.
	CaseID string
	// System is the fixed system prompt.
	System string
	// Tools are the tools the model is shown, in a stable order.
	Tools []Tool
	// Messages is the conversation so far, starting with the user's prompt.
	Messages []Message
	// CacheKey names the prefix every request of a run shares (the suite
	// and its tools), for providers that route requests carrying the same
	// key to the same prompt cache (OpenAI's prompt_cache_key); empty means
	// none. It holds no secret and no case's text.
	CacheKey string
	// ToolChoice says whether the model may, must or must not call a tool
	// on this turn; nil leaves it to the provider's default (auto).
	// Providers without the setting (fake and scripted models) ignore it.
	ToolChoice *ToolChoice
	// Sampling marks a request a server made (sampling/createMessage)
	// while a tool call of case CaseID was under way, not a step of the
	// case's conversation: it carries no tools.
	Sampling bool
}

// ToolChoice is what a request asks of the model's use of tools.
type ToolChoice struct {
	// Mode is ChoiceAuto, ChoiceAny, ChoiceNone or ChoiceTool.
	Mode string `json:"mode"`
	// Tool is the MCP name of the tool a ChoiceTool request must call.
	Tool string `json:"tool,omitempty"`
}

// The modes of a ToolChoice.
const (
	// ChoiceAuto lets the model call tools or answer in text.
	ChoiceAuto = "auto"
	// ChoiceAny makes the model call some tool.
	ChoiceAny = "any"
	// ChoiceNone forbids tool calls: the model answers in text.
	ChoiceNone = "none"
	// ChoiceTool makes the model call the tool ToolChoice.Tool names.
	ChoiceTool = "tool"
)

// String returns the choice as a suite writes it: "auto", "any", "none"
// or "tool:NAME".
func (c *ToolChoice) String() string {
	if c == nil {
		return ""
	}
	if c.Mode == ChoiceTool {
		return "tool:" + c.Tool
	}
	return c.Mode
}

// Usage counts a turn's tokens as the provider billed them.
type Usage struct {
	Input      int64 `json:"input"`
	Output     int64 `json:"output"`
	CacheWrite int64 `json:"cache_write,omitempty"`
	CacheRead  int64 `json:"cache_read,omitempty"`
}

// Add returns u + v.
func (u Usage) Add(v Usage) Usage {
	return Usage{u.Input + v.Input, u.Output + v.Output, u.CacheWrite + v.CacheWrite, u.CacheRead + v.CacheRead}
}

// Billed returns every token the provider charges for.
func (u Usage) Billed() int64 { return u.Input + u.Output + u.CacheWrite + u.CacheRead }

// CachedShare returns the share of the input tokens that were read from the
// prompt cache, from 0 to 1: cache reads over all input (uncached, written
// to the cache and read from it). It is 0 when there was no input.
func (u Usage) CachedShare() float64 {
	in := u.Input + u.CacheWrite + u.CacheRead
	if in <= 0 {
		return 0
	}
	return float64(u.CacheRead) / float64(in)
}

// RateLimit is what a provider's response headers said of the account's
// rate limits when it answered: how many requests and tokens the current
// window allows, how many are left, and when the window is full again. A
// limit of 0 means the provider did not say.
type RateLimit struct {
	// Requests and RequestsLeft are the requests the window allows and those
	// left after this one; RequestsReset is when the window is full again.
	Requests, RequestsLeft int64
	RequestsReset          time.Time
	// Tokens and TokensLeft are the tokens the window allows and those left
	// (for a provider that counts input and output apart, the one nearer
	// its limit); TokensReset is when the window is full again.
	Tokens, TokensLeft int64
	TokensReset        time.Time
}

// Try records one request the provider refused before a later try (or none)
// succeeded.
type Try struct {
	// Status is the HTTP status, or 0 for a transport failure.
	Status int `json:"status,omitempty"`
	// Error says what the provider answered, with no secret in it.
	Error string `json:"error"`
	// WaitMS is how long the harness waited before the next try.
	WaitMS int64 `json:"wait_ms,omitempty"`
}

// Response is a model's answer to a Request.
type Response struct {
	// Message is the assistant message, with tool names already mapped back
	// to their MCP names.
	Message Message
	// StopReason is the provider's stop reason, as it said it.
	StopReason string
	Usage      Usage
	// Latency is the time of the successful try.
	Latency time.Duration
	// Tries are the refused tries that came before the successful one.
	Tries []Try
	// RateLimit is what the successful try's response headers said of the
	// account's rate limits; nil when they said nothing.
	RateLimit *RateLimit
}

// Model generates turns of a conversation.
//
// Generate returns an error only when no answer could be had from the
// provider (after any retries the provider allows); such an error makes the
// attempt an error, not a fail. Implementations must be safe for concurrent
// use and must honour ctx.
type Model interface {
	Generate(ctx context.Context, req *Request) (*Response, error)
}

// Info describes a model for records and reports.
type Info struct {
	// Spec is the model spec as given, e.g. "anthropic:claude-sonnet-4-5;effort=medium".
	Spec string `json:"spec"`
	// Provider is the part before the colon: "anthropic", "openai", "fake", "script".
	Provider string `json:"provider"`
	// Name is the model's name at the provider.
	Name string `json:"name"`
	// Options are the request options set in the spec.
	Options map[string]string `json:"options,omitempty"`
	// Fake is true for models that answer from the corpus's own key or a
	// script: their figures prove the pipe, not a model.
	Fake bool `json:"fake,omitempty"`
}

// ProviderError is returned by Generate when the provider would not answer.
// The attempt it ends is an error, excluded from the pass rate.
type ProviderError struct {
	// Tries lists every refused try, the last one included.
	Tries []Try
	Err   error
}

func (e *ProviderError) Error() string {
	return fmt.Sprintf("provider refused after %d tries: %v", len(e.Tries), e.Err)
}

func (e *ProviderError) Unwrap() error { return e.Err }

// IsProviderError reports whether err is a provider failure.
func IsProviderError(err error) bool {
	var pe *ProviderError
	return errors.As(err, &pe)
}
