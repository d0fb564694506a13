package probe

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/mcpeval/mcpeval/model"
)

// Tool is the one tiny tool every probe offers.
var Tool = model.Tool{
	Name:        "probe_echo",
	Description: "Echoes a word back. Call it once with the word the user gives.",
	InputSchema: json.RawMessage(`{"type":"object","properties":{"word":{"type":"string","description":"The word to echo."}},"required":["word"],"additionalProperties":false}`),
}

// Prompt is what the probe asks.
const Prompt = `Call the probe_echo tool once with the word "ping", then stop.`

// Result is what a probe found.
type Result struct {
	// Accepted is true when the provider answered the request.
	Accepted bool `json:"accepted"`
	// Called is true when the model called probe_echo: a sign that tool use
	// works end to end, though a model that declines is still accepted.
	Called bool `json:"called"`
	// StopReason is the provider's stop reason.
	StopReason string `json:"stop_reason,omitempty"`
	// Latency is the time of the answered try.
	Latency time.Duration `json:"latency"`
	// Usage is what the request cost in tokens.
	Usage model.Usage `json:"usage"`
	// Tries are the refused tries before the answer, or all of them when
	// none was answered.
	Tries []model.Try `json:"tries,omitempty"`
	// Error is the provider's refusal when the request was not accepted.
	Error string `json:"error,omitempty"`
}

// Request returns the request a probe sends: Prompt, Tool, and the given
// tools after it (so their schemas are checked by the provider too).
func Request(tools ...model.Tool) *model.Request {
	return &model.Request{
		CaseID:   "probe",
		System:   "You are checking that tool use works. Do exactly what the user asks.",
		Tools:    append([]model.Tool{Tool}, tools...),
		Messages: []model.Message{{Role: model.User, Blocks: []model.Block{{Kind: model.Text, Text: Prompt}}}},
	}
}

// Probe sends Request(tools...) to m once and reports what happened. The
// answer's length is bounded by the model's own max_tokens; the prompt keeps
// it short.
func Probe(ctx context.Context, m model.Model, tools ...model.Tool) Result {
	resp, err := m.Generate(ctx, Request(tools...))
	if err != nil {
		r := Result{Error: err.Error()}
		var pe *model.ProviderError
		if errors.As(err, &pe) {
			r.Tries = pe.Tries
		}
		return r
	}
	r := Result{Accepted: true, StopReason: resp.StopReason, Latency: resp.Latency, Usage: resp.Usage, Tries: resp.Tries}
	for _, c := range resp.Message.Calls() {
		if c.Name == Tool.Name {
			r.Called = true
		}
	}
	return r
}
