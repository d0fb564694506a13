package providertest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/model"
)

// CachedTools checks a provider that keeps each tool's wire form once a
// run (send.ToolCache): body is the request body the provider sends for a
// request, asEver the body built for it without the cache. They must be
// byte for byte the same on a first request and the next (tools given,
// one more without a description and with spaces around its schema),
// after a change to a tool's description, schema or name (the changed
// tool built again, not taken from the cache), and with fewer tools (the
// tool that was last is no longer last).
func CachedTools(t *testing.T, tools []model.Tool, body, asEver func(*testing.T, *model.Request) []byte) {
	t.Helper()
	req := &model.Request{System: "Be brief.", Tools: append([]model.Tool{{Name: "no_description", InputSchema: json.RawMessage(` {"type":"object"} `)}}, tools...),
		Messages: []model.Message{{Role: model.User, Blocks: []model.Block{{Kind: model.Text, Text: "hello"}}}}}
	want := asEver(t, req)
	for i := range 2 {
		if got := body(t, req); !bytes.Equal(got, want) {
			t.Fatalf("request %d:\n got %s\nwant %s", i+1, got, want)
		}
	}
	for _, change := range []func(*model.Tool){
		func(tl *model.Tool) { tl.Description = "Does it, and says so." },
		func(tl *model.Tool) {
			tl.InputSchema = json.RawMessage(`{"type":"object","properties":{"limit":{"type":"integer","maximum":1e2}}}`)
		},
		func(tl *model.Tool) { tl.Name = "renamed_tool" },
	} {
		changed := *req
		changed.Tools = append([]model.Tool(nil), req.Tools...)
		change(&changed.Tools[1])
		if got, want := body(t, &changed), asEver(t, &changed); !bytes.Equal(got, want) {
			t.Errorf("a changed tool was taken from the cache:\n got %s\nwant %s", got, want)
		}
	}
	fewer := *req
	fewer.Tools = req.Tools[:2]
	if got, want := body(t, &fewer), asEver(t, &fewer); !bytes.Equal(got, want) {
		t.Errorf("fewer tools:\n got %s\nwant %s", got, want)
	}
}

// ManyTools is the request a provider's BenchmarkRequestBody encodes: the
// second turn of an attempt (a question, a tool call, its result) over n
// tools whose schemas are about 900 bytes each.
func ManyTools(n int) *model.Request {
	req := &model.Request{System: "You answer questions about a household's finances from its dashboard's tools."}
	var props []string
	for j := range 8 {
		props = append(props, fmt.Sprintf(`"field_%d":{"type":"string","description":"the %d-th filter of the listing, as the dashboard names it"}`, j, j))
	}
	schema := json.RawMessage(`{"type":"object","properties":{` + strings.Join(props, ",") + `},"additionalProperties":false}`)
	for i := range n {
		req.Tools = append(req.Tools, model.Tool{Name: fmt.Sprintf("get_thing_%d", i), Description: "Lists the household's things of one kind, with their owners and balances as of the month's end.",
			InputSchema: schema})
	}
	req.Messages = []model.Message{
		{Role: model.User, Blocks: []model.Block{{Kind: model.Text, Text: "What is our net worth?"}}},
		{Role: model.Assistant, Blocks: []model.Block{{Kind: model.ToolUse, Call: &model.Call{ID: "call_01", Name: "get_thing_0", Args: json.RawMessage(`{}`)}}}},
		{Role: model.User, Blocks: []model.Block{{Kind: model.ToolResult, Result: &model.Result{CallID: "call_01", Name: "get_thing_0", Content: "Net worth as of 2026-09-30: SGD 2,394,755, across 5 accounts."}}}},
	}
	return req
}
