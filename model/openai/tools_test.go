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
	"github.com/mcpeval/mcpeval/internal/testkit/providertest"
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
	return marshal(t, p)
}

func body(t testing.TB, m *Model, req *model.Request) []byte {
	t.Helper()
	p, err := m.params(req, toolname.Map(send.Names(req)))
	if err != nil {
		t.Fatal(err)
	}
	return marshal(t, p)
}

func marshal(t testing.TB, p sdk.ChatCompletionNewParams) []byte {
	t.Helper()
	b, err := p.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func standalone(t testing.TB) *Model {
	t.Helper()
	m, err := New(model.Info{Spec: "openai:gpt-5-mini", Provider: "openai", Name: "gpt-5-mini"}, Config{APIKey: key})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestCachedToolsEncodeAsEver checks that the tools taken from the cache
// go out byte for byte as before (names mapped, schemas as written, a tool
// without a description), and that a tool changed in any part is built
// again (providertest.CachedTools); and that a schema that is not an
// object is refused every time, not kept.
func TestCachedToolsEncodeAsEver(t *testing.T) {
	m := standalone(t)
	providertest.CachedTools(t, tools,
		func(t *testing.T, req *model.Request) []byte { return body(t, m, req) },
		func(t *testing.T, req *model.Request) []byte { return bodyAsEver(t, m, req) })
	bad := &model.Request{Tools: []model.Tool{{Name: "bad", InputSchema: json.RawMessage(`["type"]`)}}}
	for range 2 {
		if _, err := m.params(bad, toolname.Map(send.Names(bad))); err == nil || !strings.Contains(err.Error(), "not a JSON object") {
			t.Errorf("a schema that is not an object: %v", err)
		}
	}
}

// BenchmarkRequestBody encodes the body of a second turn as the SDK sends
// it, over n tools with schemas of about 900 bytes each
// (providertest.ManyTools).
func BenchmarkRequestBody(b *testing.B) {
	for _, n := range []int{8, 40} {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			m, req := standalone(b), providertest.ManyTools(n)
			b.ReportAllocs()
			for b.Loop() {
				body(b, m, req)
			}
		})
	}
}
