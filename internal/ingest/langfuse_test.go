package ingest

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/internal/export/langfuse"
)

// TestLangfuseConversationTies reads a trace Langfuse kept to the
// millisecond, whose two generations and tool call all started in the
// same millisecond and whose tool observation came first: the call goes
// to the turn whose message names it, not to the last turn that started
// with it. The native fields (no span attributes in the metadata) give
// the prompt, answer, model, usage and the call's arguments and result.
func TestLangfuseConversationTies(t *testing.T) {
	at := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	later := at.Add(time.Millisecond)
	tr := langfuse.Trace{ID: "t1", Name: "agent", SessionID: "s-1", Tags: []string{"prod"}, Metadata: json.RawMessage(`{"case":"single-tool/net-worth-now"}`),
		Observations: []langfuse.Observation{
			{ID: "o3", Type: "TOOL", Name: "get_net_worth", StartTime: at, EndTime: &at, Input: json.RawMessage(`{}`), Output: json.RawMessage(`"SGD 2,394,755"`),
				Metadata: json.RawMessage(`{"attributes":{"gen_ai.tool.call.id":"call_1","gen_ai.tool.name":"get_net_worth"}}`)},
			{ID: "o4", Type: "GENERATION", Name: "chat m", StartTime: at, EndTime: &later, Model: "m", UsageDetails: map[string]int{"input": 20, "output": 5},
				Output: json.RawMessage(`"It is SGD 2,394,755."`)},
			{ID: "o2", Type: "GENERATION", Name: "chat m", StartTime: at, EndTime: &at, Model: "m", UsageDetails: map[string]int{"input": 10, "output": 2},
				Input:  json.RawMessage(`[{"role":"user","content":"What's our net worth?"}]`),
				Output: json.RawMessage(`[{"role":"assistant","parts":[{"type":"tool_call","id":"call_1","name":"get_net_worth","arguments":{}}]}]`)},
		}}
	conv, ok := LangfuseConversation(tr)
	if !ok {
		t.Fatal("no conversation")
	}
	a := conv.Attempt
	if len(a.Turns) != 2 || len(a.Turns[0].Calls) != 1 || len(a.Turns[1].Calls) != 0 {
		t.Fatalf("turns %+v, want the call on the first of two turns", a.Turns)
	}
	c := a.Turns[0].Calls[0]
	if c.Name != "get_net_worth" || c.ID != "call_1" || c.Result != "SGD 2,394,755" || string(c.Args) != "{}" {
		t.Errorf("call %+v", c)
	}
	if a.Prompt != "What's our net worth?" || a.Answer != "It is SGD 2,394,755." {
		t.Errorf("prompt %q, answer %q", a.Prompt, a.Answer)
	}
	if conv.Model.Name != "m" || a.Turns[0].Usage.Input != 10 || a.Turns[1].Usage.Output != 5 {
		t.Errorf("model %+v, usage %+v %+v", conv.Model, a.Turns[0].Usage, a.Turns[1].Usage)
	}
	if conv.Attrs["case"] != "single-tool/net-worth-now" || conv.Attrs["session.id"] != "s-1" || conv.Attrs["langfuse.trace.tags"] != "prod" {
		t.Errorf("attributes %v, want the trace's metadata, session and tags", conv.Attrs)
	}
	if _, ok := LangfuseConversation(langfuse.Trace{ID: "empty"}); ok {
		t.Error("a trace with nothing in it read as a conversation")
	}
}
