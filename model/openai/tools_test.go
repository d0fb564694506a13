package openai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/shared"

	"github.com/mcpeval/mcpeval/internal/provider/send"
	"github.com/mcpeval/mcpeval/internal/toolname"
	"github.com/mcpeval/mcpeval/model"
)

// bodyAsEver builds a request's body as params did before its tools were
// cached: each function's raw JSON made afresh and the union encoded by
// the SDK.
func bodyAsEver(t *testing.T, m *Model, req *model.Request) []byte {
	t.Helper()
	mp := toolname.Map(send.Names(req))
	p, err := m.params(req, mp)
	if err != nil {
		t.Fatal(err)
	}
	p.Tools = nil
	for _, tool := range req.Tools {
		raw, err := json.Marshal(struct {
			Name        string          `json:"name"`
			Description string          `json:"description,omitempty"`
			Parameters  json.RawMessage `json:"parameters"`
		}{mp.Wire(tool.Name), tool.Description, bytes.TrimSpace(tool.InputSchema)})
		if err != nil {
			t.Fatal(err)
		}
		p.Tools = append(p.Tools, sdk.ChatCompletionFunctionTool(param.Override[shared.FunctionDefinitionParam](json.RawMessage(raw))))
	}
	b, err := p.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func body(t *testing.T, m *Model, req *model.Request) []byte {
	t.Helper()
	p, err := m.params(req, toolname.Map(send.Names(req)))
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestCachedToolsEncodeAsEver checks that the tools taken from the cache
// go out byte for byte as before (names mapped, schemas as written, a
// tool without a description), on a first request and the next, and that
// a tool changed in any part is built again.
func TestCachedToolsEncodeAsEver(t *testing.T) {
	m, err := New(model.Info{Spec: "openai:gpt-5-mini", Provider: "openai", Name: "gpt-5-mini"}, Config{APIKey: key})
	if err != nil {
		t.Fatal(err)
	}
	req := &model.Request{System: "Be brief.", Tools: append([]model.Tool{{Name: "no_description", InputSchema: json.RawMessage(` {"type":"object"} `)}}, tools...),
		Messages: []model.Message{{Role: model.User, Blocks: []model.Block{{Kind: model.Text, Text: "hello"}}}}}
	want := bodyAsEver(t, m, req)
	for i := range 2 {
		if got := body(t, m, req); !bytes.Equal(got, want) {
			t.Fatalf("request %d:\n got %s\nwant %s", i+1, got, want)
		}
	}
	for _, change := range []func(*model.Tool){
		func(tl *model.Tool) { tl.Description = "Lists every container." },
		func(tl *model.Tool) {
			tl.InputSchema = json.RawMessage(`{"type":"object","properties":{"limit":{"type":"integer","maximum":1e2}}}`)
		},
		func(tl *model.Tool) { tl.Name = "list_all_containers" },
	} {
		changed := *req
		changed.Tools = append([]model.Tool(nil), req.Tools...)
		change(&changed.Tools[1])
		if got, want := body(t, m, &changed), bodyAsEver(t, m, &changed); !bytes.Equal(got, want) {
			t.Errorf("a changed tool was taken from the cache:\n got %s\nwant %s", got, want)
		}
	}
	bad := *req
	bad.Tools = []model.Tool{{Name: "bad", InputSchema: json.RawMessage(`["type"]`)}}
	for range 2 { // a refusal is not kept as a tool
		if _, err := m.params(&bad, toolname.Map(send.Names(&bad))); err == nil || !strings.Contains(err.Error(), "not a JSON object") {
			t.Errorf("a schema that is not an object: %v", err)
		}
	}
}

// BenchmarkRequestBody encodes the body of a second turn as the SDK sends
// it, over n tools with schemas of about a kilobyte each.
func BenchmarkRequestBody(b *testing.B) {
	for _, n := range []int{8, 40} {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			m, err := New(model.Info{Spec: "openai:gpt-5-mini", Provider: "openai", Name: "gpt-5-mini"}, Config{APIKey: key})
			if err != nil {
				b.Fatal(err)
			}
			req := &model.Request{System: "You answer questions about a household's finances from its dashboard's tools."}
			for i := range n {
				var props []string
				for j := range 8 {
					props = append(props, fmt.Sprintf(`"field_%d":{"type":"string","description":"the %d-th filter of the listing, as the dashboard names it"}`, j, j))
				}
				req.Tools = append(req.Tools, model.Tool{Name: fmt.Sprintf("get_thing_%d", i), Description: "Lists the household's things of one kind, with their owners and balances as of the month's end.",
					InputSchema: json.RawMessage(`{"type":"object","properties":{` + strings.Join(props, ",") + `},"additionalProperties":false}`)})
			}
			req.Messages = []model.Message{
				{Role: model.User, Blocks: []model.Block{{Kind: model.Text, Text: "What is our net worth?"}}},
				{Role: model.Assistant, Blocks: []model.Block{{Kind: model.ToolUse, Call: &model.Call{ID: "call_01", Name: "get_thing_0", Args: json.RawMessage(`{}`)}}}},
				{Role: model.User, Blocks: []model.Block{{Kind: model.ToolResult, Result: &model.Result{CallID: "call_01", Name: "get_thing_0", Content: "Net worth as of 2026-09-30: SGD 2,394,755, across 5 accounts."}}}},
			}
			mp := toolname.Map(send.Names(req))
			b.ReportAllocs()
			for b.Loop() {
				p, err := m.params(req, mp)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := p.MarshalJSON(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
