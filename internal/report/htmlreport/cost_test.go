package htmlreport

import (
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/internal/testkit/reporttest"
	"github.com/mcpeval/mcpeval/internal/usage/price"
	"github.com/mcpeval/mcpeval/model"
)

// TestCost: the run page says what the run cost: dollars for a priced
// model, "unpriced" (never $0) for a model no table lists, free for a
// fake.
func TestCost(t *testing.T) {
	ts, err := price.Parse("", []byte(`{"provider":"anthropic","read":"2026-01-01","source":"https://example.com/p","models":[{"model":"m1","input":1,"output":0}]}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		info      model.Info
		want, not []string
	}{
		{"priced", model.Info{Spec: "anthropic:m1", Provider: "anthropic", Name: "m1"},
			[]string{`data-check="cost-success">$`, `data-check="cost-run">$`, "anthropic prices read 2026-01-01 (sha256 "}, []string{"unpriced", "example.com"}},
		{"unpriced", model.Info{Spec: "anthropic:m2", Provider: "anthropic", Name: "m2"},
			[]string{`<p data-check="cost-state">unpriced: the price table does not list this model`}, []string{`data-check="cost-run"`}},
		{"fake", model.Info{Spec: "fake:perfect", Provider: "fake", Name: "perfect", Fake: true},
			[]string{`<p data-check="cost-state">$0 (fake): a fake model costs nothing.</p>`}, []string{"unpriced", `data-check="cost-run"`}},
	} {
		p := fixture(t)
		p.Prices = price.NewSet(ts...)
		p.Run.Header.Model = c.info
		for i := range p.Run.Attempts {
			for j := range p.Run.Attempts[i].Turns {
				p.Run.Attempts[i].Turns[j].Usage = model.Usage{Input: 1_000_000}
			}
		}
		page := render(t, p)
		cost := reporttest.Section(t, page, "Cost")
		reporttest.Contains(t, c.name+": cost section", cost, c.want...)
		for _, n := range c.not {
			if strings.Contains(cost, n) {
				t.Errorf("%s: cost section holds %q:\n%s", c.name, n, cost)
			}
		}
	}
}
