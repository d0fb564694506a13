package usage

import (
	"testing"

	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
)

// TestGeminiRunHasACost: a run of a priced Gemini model costs dollars,
// from the built-in table; a Bedrock model no table lists is unpriced.
func TestGeminiRunHasACost(t *testing.T) {
	r := run("gemini:gemini-2.5-pro", "gemini", "gemini-2.5-pro")
	s := Summarize(r, nil)
	if s.Total.CostUSD == nil || *s.Total.CostUSD <= 0 || s.PriceRead == "" {
		t.Fatalf("gemini run: cost %v, prices read %q", s.Total.CostUSD, s.PriceRead)
	}
	c := NewCost(r, 1, nil)
	if c.State != Priced || c.PerSuccessUSD == nil || c.Prices == nil || c.Prices.Provider != "gemini" {
		t.Errorf("gemini cost %+v", c)
	}
	b := &record.Run{Header: record.Header{Model: model.Info{Spec: "bedrock:amazon.nova-pro-v1:0", Provider: "bedrock", Name: "amazon.nova-pro-v1:0"}}, Attempts: r.Attempts}
	if c := NewCost(b, 1, nil); c.State != Unpriced || c.RunUSD != nil || c.Run() != "unpriced" {
		t.Errorf("bedrock cost %+v: want unpriced", c)
	}
}
