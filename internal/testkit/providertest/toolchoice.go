package providertest

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/internal/probe"
	"github.com/mcpeval/mcpeval/internal/testkit/wiremodel"
	"github.com/mcpeval/mcpeval/model"
)

// ChoiceWire is a tool choice and the tool_choice a provider must send for
// it, as JSON ("" for none sent).
type ChoiceWire struct {
	Choice *model.ToolChoice
	Want   string
}

// ToolChoiceOnTheWire checks that m, opened against the stand-in h, sends
// each choice of wants as its tool_choice, in a probe request that also
// offers a tool named files.read (so a named tool must go under its wire
// name), and that a choice naming a tool the request does not offer is
// refused before anything is sent.
func ToolChoiceOnTheWire(t *testing.T, h *wiremodel.Handler, m model.Model, wants []ChoiceWire) {
	t.Helper()
	dotted := model.Tool{Name: "files.read", InputSchema: json.RawMessage(`{"type":"object"}`)}
	for _, tc := range wants {
		req := probe.Request(dotted)
		req.ToolChoice = tc.Choice
		n := h.Count()
		if _, err := m.Generate(context.Background(), req); err != nil {
			t.Fatalf("%s: %v", tc.Choice, err)
		}
		reqs := h.Requests()
		if len(reqs) != n+1 {
			t.Fatalf("%s: %d requests sent", tc.Choice, len(reqs)-n)
		}
		var body struct {
			ToolChoice json.RawMessage `json:"tool_choice"`
		}
		if err := json.Unmarshal(reqs[n].Body, &body); err != nil {
			t.Fatal(err)
		}
		if got := string(body.ToolChoice); got != tc.Want {
			t.Errorf("%s: tool_choice %s, want %s", tc.Choice, got, tc.Want)
		}
	}
	n := h.Count()
	req := probe.Request()
	req.ToolChoice = &model.ToolChoice{Mode: model.ChoiceTool, Tool: "absent"}
	if _, err := m.Generate(context.Background(), req); err == nil || !strings.Contains(err.Error(), "tool_choice names absent, which the request does not offer") {
		t.Errorf("an absent tool: %v", err)
	}
	if h.Count() != n {
		t.Errorf("%d refused requests were sent", h.Count()-n)
	}
}
