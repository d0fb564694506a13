package record

import (
	"encoding/json"

	"github.com/mcpeval/mcpeval/model"
)

// Sampling is a server's sampling request (sampling/createMessage) made
// while a tool call was under way, with the model's answer. It is a turn
// of its own inside the call: its tokens count in the attempt's usage and
// the run's budget, and grading never reads it.
type Sampling struct {
	// System is the system prompt the server asked for.
	System string `json:"system,omitempty"`
	// Messages are the messages the server sent, as text.
	Messages []SampledMessage `json:"messages"`
	// MaxTokens is the most tokens the server asked for.
	MaxTokens int64 `json:"max_tokens,omitempty"`
	// Model is the model that answered when it is not the model under
	// test (the suite's sampling.model); nil: the model under test.
	Model *model.Info `json:"model,omitempty"`
	// Turn is the model's answer: its text, stop reason, usage, latency
	// and tries. It carries no calls.
	Turn Turn `json:"turn"`
	// Error says why the request got an error instead of an answer (the
	// model failed, the budget was spent).
	Error string `json:"error,omitempty"`
}

// SampledMessage is one message of a sampling request.
type SampledMessage struct {
	Role string `json:"role"`
	// Text is the message's text; content of another kind (an image,
	// audio) is kept as its JSON.
	Text string `json:"text"`
}

// Elicitation is a server's elicitation request (elicitation/create) made
// while a tool call was under way, and the answer the suite gave.
type Elicitation struct {
	// Message is what the server asked the user.
	Message string `json:"message"`
	// Schema is the form the server requested (requestedSchema).
	Schema json.RawMessage `json:"schema,omitempty"`
	// Action is the answer: "accept", "decline" or "cancel".
	Action string `json:"action"`
	// Content is what an accepted answer submitted.
	Content json.RawMessage `json:"content,omitempty"`
	// Note says why the answer is what it is when the suite did not choose
	// it: no elicitation setting, or content that did not fit the schema.
	Note string `json:"note,omitempty"`
}

// SampledUsage returns the tokens of the sampling turns made during the
// turn's calls.
func (t *Turn) SampledUsage() []model.Usage {
	var us []model.Usage
	for _, s := range t.Sampled() {
		us = append(us, s.Turn.Usage)
	}
	return us
}

// Sampled returns the sampling requests made during the turn's calls.
func (t *Turn) Sampled() []Sampling {
	var ss []Sampling
	for _, c := range t.Calls {
		ss = append(ss, c.Sampling...)
	}
	return ss
}
