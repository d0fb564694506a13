package fake

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mcpeval/mcpeval/model"
)

const serversSuite = `name: several
targets: {a: builtin:a, b: builtin:b}
allow_writes: true
cases:
  - id: q/echo
    prompt: Echo on b.
    tools: {required: [b/echo]}
    key: {calls: [{tool: b/echo, args: {text: hi}}], answer: done}
  - id: q/only
    prompt: The other one.
    tools: {required: [b/only_b]}
    key: {calls: [{tool: b/only_b}], answer: done}
  - id: w/remove
    prompt: Remove it.
    action:
      kind: destructive
      steps:
        - tool: b/remove
          args: {id: {literal: it}}
`

// TestPerfectCallsServerTools replays keys and action steps written
// SERVER/TOOL under the names the request shows: SERVER__TOOL where two
// servers list the tool, the bare name elsewhere, with the approval a
// destructive step's tool schema asks for.
func TestPerfectCallsServerTools(t *testing.T) {
	m := openFake(t, "perfect", serversSuite)
	tools := []model.Tool{{Name: "a__echo"}, {Name: "b__echo"}, {Name: "only_b"},
		{Name: "remove", InputSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"},"confirm":{"type":"boolean"}}}`)}}
	ask := func(id string) []model.Call {
		resp, err := m.Generate(context.Background(), &model.Request{CaseID: id, Tools: tools,
			Messages: []model.Message{{Role: model.User, Blocks: []model.Block{{Kind: model.Text, Text: "Remove it."}}}}})
		if err != nil {
			t.Fatal(err)
		}
		return resp.Message.Calls()
	}
	if calls := ask("q/echo"); len(calls) != 1 || calls[0].Name != "b__echo" {
		t.Errorf("key calls %+v, want b__echo", calls)
	}
	if calls := ask("q/only"); len(calls) != 1 || calls[0].Name != "only_b" {
		t.Errorf("key calls %+v, want only_b", calls)
	}
	calls := ask("w/remove")
	if len(calls) != 1 || calls[0].Name != "remove" || string(calls[0].Args) != `{"confirm":true,"id":"it"}` {
		t.Errorf("action call %+v, want remove with the approval", calls)
	}
}
