package grade

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// TestToolCallWriteTool checks that in a tool-call case a write tool is
// just the expected first call: nothing executes, so calling it is no
// write attempt. A tool the run did not show still fails.
func TestToolCallWriteTool(t *testing.T) {
	h := &record.Header{Tools: []record.Tool{
		{Name: "write_file", Destructive: true, InputSchema: json.RawMessage(`{"properties":{"path":{"type":"string"},"content":{"type":"string"}}}`)},
		{Name: "create_directory", InputSchema: json.RawMessage(`{"properties":{"path":{"type":"string"}}}`)},
		{Name: "read_file", ReadOnly: true},
	}}
	c := &suite.Case{ID: "tc/write", Mode: suite.ModeToolCall, ExpectTools: []string{"write_file"}, ExpectArgs: map[string]any{"path": "notes.txt"}}
	try := func(calls ...record.Call) AttemptGrade {
		a := &record.Attempt{Case: c.ID, N: 1, End: record.EndToolCall, Turns: []record.Turn{{Calls: calls}}}
		return Attempt(nil, c, h, a)
	}
	call := func(name, args string) record.Call {
		return record.Call{Name: name, Args: json.RawMessage(args), Shown: true, NotSent: true}
	}
	for _, calls := range [][]record.Call{
		{call("write_file", `{"path":"notes.txt","content":"hi"}`)},
		{call("write_file", `{"path":"notes.txt","content":"hi"}`), call("create_directory", `{"path":"x"}`)},
	} {
		if g := try(calls...); g.Outcome != Pass {
			t.Errorf("right first call of a write tool: %s%s", g.Outcome, reasonsText(g.Reasons))
		}
	}
	// Must fail: the wrong write tool, a wrong argument, a tool not shown.
	if g := try(call("create_directory", `{"path":"notes.txt"}`)); g.Outcome != Fail || len(g.Reasons) != 1 || !strings.Contains(g.Reasons[0].Message, "the first call was create_directory") {
		t.Errorf("wrong write tool: %s%s", g.Outcome, reasonsText(g.Reasons))
	}
	if g := try(call("write_file", `{"path":"other.txt","content":"hi"}`)); g.Outcome != Fail || len(g.Reasons) != 1 || !strings.Contains(g.Reasons[0].Message, `path: want "notes.txt"`) {
		t.Errorf("wrong path: %s%s", g.Outcome, reasonsText(g.Reasons))
	}
	unshown := call("write_file", `{"path":"notes.txt"}`)
	unshown.Shown = false
	if g := try(unshown); g.Outcome != Fail || !strings.Contains(reasonsText(g.Reasons), "a tool the run did not show the model") {
		t.Errorf("a tool not shown: %s%s", g.Outcome, reasonsText(g.Reasons))
	}
}
