package anthropic

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"

	"github.com/mcpeval/mcpeval/internal/provider/send"
	"github.com/mcpeval/mcpeval/internal/testkit/providertest"
	"github.com/mcpeval/mcpeval/internal/toolname"
	"github.com/mcpeval/mcpeval/model"
)

// encodedAsEver builds a request's body as params did before its tools
// were cached: every tool encoded by the SDK afresh.
func encodedAsEver(t *testing.T, m *Model, req *model.Request) []byte {
	t.Helper()
	mp := toolname.Map(send.Names(req))
	p, err := m.params(req, mp)
	if err != nil {
		t.Fatal(err)
	}
	p.Tools = nil
	for i, tool := range req.Tools {
		tp := sdk.ToolParam{
			Name:        mp.Wire(tool.Name),
			InputSchema: param.Override[sdk.ToolInputSchemaParam](json.RawMessage(bytes.TrimSpace(tool.InputSchema))),
		}
		if tool.Description != "" {
			tp.Description = param.NewOpt(tool.Description)
		}
		if i == len(req.Tools)-1 {
			tp.CacheControl = sdk.NewCacheControlEphemeralParam()
		}
		p.Tools = append(p.Tools, sdk.ToolUnionParam{OfTool: &tp})
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

func marshal(t testing.TB, p sdk.MessageNewParams) []byte {
	t.Helper()
	b, err := p.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func standalone(t testing.TB) *Model {
	t.Helper()
	m, err := New(model.Info{Spec: "anthropic:claude-haiku-4-5", Provider: "anthropic", Name: "claude-haiku-4-5"}, Config{APIKey: key})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestCachedToolsEncodeAsEver checks that a request's tools, taken from
// the cache, go out byte for byte as the SDK encodes them (a name mapped,
// a description left out, the last tool's cache breakpoint, which a tool
// no longer last does not keep), and that a tool changed in any part is
// encoded again (providertest.CachedTools); and that a schema that is not
// JSON is refused, every time.
func TestCachedToolsEncodeAsEver(t *testing.T) {
	m := standalone(t)
	providertest.CachedTools(t, tools,
		func(t *testing.T, req *model.Request) []byte { return body(t, m, req) },
		func(t *testing.T, req *model.Request) []byte { return encodedAsEver(t, m, req) })
	bad := &model.Request{Tools: []model.Tool{{Name: "bad", InputSchema: json.RawMessage(`{"type":`)}}}
	for range 2 {
		if _, err := m.params(bad, toolname.Map(send.Names(bad))); err == nil || !strings.Contains(err.Error(), "not JSON") {
			t.Errorf("a schema that is not JSON: %v", err)
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
