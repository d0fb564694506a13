package usage

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/internal/usage/price"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
)

// sampledPrices prices anthropic:m1 at $3/$15 and openai:s1 at $1/$2 per
// million input/output tokens.
func sampledPrices(t *testing.T) *price.Set {
	t.Helper()
	var all []*price.Table
	for _, js := range []string{
		`{"provider":"anthropic","read":"2026-11-29","models":[{"model":"m1","input":3,"output":15}]}`,
		`{"provider":"openai","read":"2026-11-29","models":[{"model":"s1","input":1,"output":2}]}`,
	} {
		ts, err := price.Parse("", []byte(js))
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, ts...)
	}
	return price.NewSet(all...)
}

// sampledRun is a run of model under test main whose one attempt's call
// had the server sample sampler (nil: the model under test): the turn
// used 1M input tokens, the sampling turn 1M input and 1M output.
func sampledRun(main model.Info, sampler *model.Info) *record.Run {
	return &record.Run{Header: record.Header{Model: main},
		Attempts: []record.Attempt{{Case: "a/x", N: 1, Turns: []record.Turn{{Usage: model.Usage{Input: 1_000_000},
			Calls: []record.Call{{Name: "ask", Sampling: []record.Sampling{{Model: sampler,
				Turn: record.Turn{Usage: model.Usage{Input: 1_000_000, Output: 1_000_000}, LatencyMS: 40}}}}}}}}}}
}

var (
	m1 = model.Info{Spec: "anthropic:m1", Provider: "anthropic", Name: "m1"}
	s1 = model.Info{Spec: "openai:s1", Provider: "openai", Name: "s1"}
)

// TestSampledTokensCount checks that a sampling turn's tokens and time
// count in the attempt's and the run's usage, and its dollars at the
// answering model's price: the model under test's, or the suite's
// sampling model's.
func TestSampledTokensCount(t *testing.T) {
	for _, tc := range []struct {
		name    string
		main    model.Info
		sampler *model.Info
		usd     float64
	}{
		{"the model under test answers", m1, nil, 3 + 3 + 15},
		{"another model answers", m1, &s1, 3 + 1 + 2},
		{"a fake model under test, a paid sampler", model.Info{Spec: "fake:perfect", Provider: "fake", Name: "perfect", Fake: true}, &s1, 1 + 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := sampledRun(tc.main, tc.sampler)
			s := Summarize(r, sampledPrices(t))
			for name, l := range map[string]Line{"case": s.Cases["a/x"], "total": s.Total} {
				if l.Tokens.Input != 2_000_000 || l.Tokens.Output != 1_000_000 || l.ModelMS != 40 {
					t.Errorf("%s: tokens %+v, model time %d ms: want 2M in, 1M out, 40 ms", name, l.Tokens, l.ModelMS)
				}
				if l.CostUSD == nil || *l.CostUSD != tc.usd {
					t.Errorf("%s: cost %v, want $%v", name, l.CostUSD, tc.usd)
				}
			}
			c := NewCost(r, 1, sampledPrices(t))
			if c.RunUSD == nil || *c.RunUSD != tc.usd {
				t.Errorf("run cost %s (%v), want $%v", c.Run(), c.RunUSD, tc.usd)
			}
		})
	}
}

// TestUnpricedSamplerLeavesTheCostUnknown checks that a sampling turn
// answered by a model of no known price makes the line's dollars unknown
// rather than counting it as free.
func TestUnpricedSamplerLeavesTheCostUnknown(t *testing.T) {
	s := Summarize(sampledRun(m1, &model.Info{Spec: "openai:nobody", Provider: "openai", Name: "nobody"}), sampledPrices(t))
	if s.Total.CostUSD != nil {
		t.Errorf("total cost $%v, want unpriced", *s.Total.CostUSD)
	}
	if s.Total.Tokens.Output != 1_000_000 {
		t.Errorf("tokens %+v: the unpriced sampling turn's tokens were not counted", s.Total.Tokens)
	}
}

// TestBudgetCountsSampling checks that a run's budget counts sampling
// turns' tokens, and their dollars at the answering model's price.
func TestBudgetCountsSampling(t *testing.T) {
	p, _ := sampledPrices(t).Lookup("anthropic", "m1")
	b := &Budget{Tokens: 2_500_000, Prices: sampledPrices(t), Price: &p}
	b.Spend(&sampledRun(m1, &s1).Attempts[0])
	if tok, usd := b.Spent(); tok != 3_000_000 || usd != 3+1+2 {
		t.Errorf("spent %d tokens, $%v: want 3,000,000 and $6", tok, usd)
	}
	if b.Exceeded() == "" {
		t.Error("a budget of 2.5M tokens is not spent by 3M, sampling's included")
	}
}

// TestSampledFlagsSurviveUsageJSON: a summary written to usage.json and
// read back keeps whether a paid model sampled and whether the cost is
// unknown, so its text says what the summary as made says; a summary
// with neither writes neither field, as before.
func TestSampledFlagsSurviveUsageJSON(t *testing.T) {
	fake := model.Info{Spec: "fake:perfect", Provider: "fake", Name: "perfect", Fake: true}
	for _, tc := range []struct {
		name    string
		s       *Summary
		fields  []string // the fields usage.json holds
		unknown bool
	}{
		{"a fake model, a paid sampler", Summarize(sampledRun(fake, &s1), sampledPrices(t)), []string{`"sampled_paid":true`}, false},
		{"an unpriced sampler", Summarize(sampledRun(m1, &model.Info{Spec: "openai:nobody", Provider: "openai", Name: "nobody"}), sampledPrices(t)),
			[]string{`"cost_unknown":true`, `"sampled_paid":true`}, true},
		{"no sampling", Summarize(sampledRun(m1, nil), sampledPrices(t)), nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := json.Marshal(tc.s)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range []string{`"cost_unknown"`, `"sampled_paid"`} {
				want := slices.ContainsFunc(tc.fields, func(w string) bool { return strings.HasPrefix(w, f) })
				if strings.Contains(string(b), f) != want {
					t.Errorf("usage.json %s holds %s: %v, want %v", b, f, !want, want)
				}
			}
			for _, f := range tc.fields {
				if !strings.Contains(string(b), f) {
					t.Errorf("usage.json %s lacks %s", b, f)
				}
			}
			var back Summary
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			if back.Total.CostUnknown != tc.unknown || back.Total.SampledPaid != tc.s.Total.SampledPaid {
				t.Errorf("read back %+v, want %+v", back.Total, tc.s.Total)
			}
			var made, read strings.Builder
			if err := Text(&made, tc.s); err != nil {
				t.Fatal(err)
			}
			if err := Text(&read, &back); err != nil {
				t.Fatal(err)
			}
			if made.String() != read.String() {
				t.Errorf("the summary read back says\n%s\nwhere as made it says\n%s", read.String(), made.String())
			}
		})
	}
}
