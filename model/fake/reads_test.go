package fake

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/model"
)

const readsSuite = `name: money
target: builtin:none
cases:
  - id: money/worth
    prompt: What are we worth?
    figures:
      - {value: 2394755, kind: money, currency: SGD, label: net worth}
    key:
      calls:
        - tool: get_net_worth
      answer: You are worth SGD 2,394,755.
`

// TestReads: fake:reads makes the key's call, then states the figure only
// when a result it was shown holds it, never the key's answer.
func TestReads(t *testing.T) {
	m := openFake(t, "reads", readsSuite)
	prompt := model.Message{Role: model.User, Blocks: []model.Block{{Kind: model.Text, Text: "What are we worth?"}}}
	gen := func(msgs ...model.Message) model.Message {
		resp, err := m.Generate(context.Background(), &model.Request{CaseID: "money/worth", Messages: msgs})
		if err != nil {
			t.Fatal(err)
		}
		return resp.Message
	}
	first := gen(prompt)
	if calls := first.Calls(); len(calls) != 1 || calls[0].Name != "get_net_worth" {
		t.Fatalf("first turn calls %+v, want get_net_worth", calls)
	}
	result := func(content string) model.Message {
		return model.Message{Role: model.User, Blocks: []model.Block{{Kind: model.ToolResult, Result: &model.Result{CallID: "call_1_1", Name: "get_net_worth", Content: content}}}}
	}
	if got := gen(prompt, first, result(`{"total":"2394755 SGD","as_of":"2026-09-30"}`)).TextOf(); !strings.Contains(got, "SGD 2,394,755") {
		t.Errorf("with the figure in the result it says %q, want it stated", got)
	}
	got := gen(prompt, first, result(`{"as_of":"2026-09-30","account_count":5}`)).TextOf()
	if strings.Contains(got, "2,394,755") || !strings.Contains(got, "did not return the net worth") {
		t.Errorf("without the figure in the result it says %q, want it not found", got)
	}
}
