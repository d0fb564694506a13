package price

import (
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/model"
)

// TestEveryProviderHasADatedTable: each real provider has a built-in
// table saying when and from which page it was read; a provider whose
// prices could not be cited lists no model, so its models are unpriced.
func TestEveryProviderHasADatedTable(t *testing.T) {
	for _, p := range []string{"anthropic", "openai", "gemini", "bedrock", "azure-openai", "anthropic-bedrock", "anthropic-vertex"} {
		tb := Builtin().Table(p)
		if tb == nil {
			t.Errorf("no built-in %s table", p)
			continue
		}
		if len(tb.Read) != len("2006-01-02") || !strings.HasPrefix(tb.Source, "https://") || !strings.Contains(tb.Note, "unpriced") {
			t.Errorf("%s table must say when and where it was read, and that an unlisted model is unpriced: read %q source %q", p, tb.Read, tb.Source)
		}
		for _, m := range tb.Models {
			if m.Input <= 0 || m.Output <= 0 || m.CacheRead <= 0 || m.Provider != p {
				t.Errorf("%s:%s lacks a rate", m.Provider, m.Model)
			}
		}
	}
	for _, spec := range [][2]string{{"bedrock", "amazon.nova-pro-v1:0"}, {"azure-openai", "my-gpt-deployment"}, {"anthropic-bedrock", "anthropic.claude-sonnet-4-5-20250929-v1:0"}, {"anthropic-vertex", "claude-sonnet-4-5@20250929"}, {"gemini", "gemini-2.5-flash"}} {
		if _, ok := Lookup(spec[0], spec[1]); ok {
			t.Errorf("%s:%s is priced; its table lists no citable price for it", spec[0], spec[1])
		}
		if st := Builtin().Stamp(spec[0], spec[1]); st == nil || !st.Unpriced || st.Read == "" {
			t.Errorf("%s:%s stamp %+v: want its table, marked unpriced", spec[0], spec[1], st)
		}
	}
}

// TestGeminiPrice: gemini-2.5-pro is priced, its long-prompt tier applying
// above 200,000 prompt tokens, cached tokens at the cache read rate.
func TestGeminiPrice(t *testing.T) {
	p, ok := Lookup("gemini", "gemini-2.5-pro")
	if !ok {
		t.Fatal("gemini-2.5-pro is not priced")
	}
	for _, c := range []struct {
		u    model.Usage
		want float64
	}{
		{model.Usage{Input: 100_000, Output: 10_000, CacheRead: 100_000}, 0.125 + 0.1 + 0.0125},
		{model.Usage{Input: 300_000, Output: 10_000}, 0.75 + 0.15},
	} {
		if got := Cost(p, c.u); got < c.want-1e-9 || got > c.want+1e-9 {
			t.Errorf("cost of %+v = %v, want %v", c.u, got, c.want)
		}
	}
}
