package usage

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/internal/usage/price"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
)

func run(spec, provider, name string) *record.Run {
	turn := func(in, out int64) record.Turn {
		return record.Turn{Usage: model.Usage{Input: in, Output: out, CacheRead: 1000}, LatencyMS: 100}
	}
	return &record.Run{
		Header: record.Header{Model: model.Info{Spec: spec, Provider: provider, Name: name}},
		Attempts: []record.Attempt{
			{Case: "a/x", N: 1, Turns: []record.Turn{turn(1_000_000, 0), turn(0, 1_000_000)}, DurationMS: 300},
			{Case: "b/y", N: 1, Turns: []record.Turn{{Usage: model.Usage{Input: 10}, Tries: []model.Try{{Status: 429}}}}},
		},
	}
}

func testPrices(t *testing.T) *price.Set {
	t.Helper()
	ts, err := price.Parse("", []byte(`{"provider":"anthropic","read":"2026-11-29","models":[{"model":"m1","input":3,"output":15,"cache_write":3.75,"cache_read":0.3}]}`))
	if err != nil {
		t.Fatal(err)
	}
	return price.NewSet(ts...)
}

func TestSummarize(t *testing.T) {
	table := testPrices(t)
	s := Summarize(run("anthropic:m1", "anthropic", "m1"), table)
	a := s.Cases["a/x"]
	if a.Tokens.Input != 1_000_000 || a.Tokens.Output != 1_000_000 || a.Tokens.CacheRead != 2000 || a.ModelMS != 200 {
		t.Errorf("case a/x %+v", a)
	}
	// 1M input at $3 + 1M output at $15 + 2000 cache reads at $0.3/M.
	if want := 3 + 15 + 0.0006; a.CostUSD == nil || *a.CostUSD < want-1e-9 || *a.CostUSD > want+1e-9 {
		t.Errorf("cost %v, want %v", a.CostUSD, want)
	}
	if s.Total.Attempts != 2 || s.Total.Retries != 1 || s.PriceRead != "2026-11-29" {
		t.Errorf("total %+v read %q", s.Total, s.PriceRead)
	}
	var b bytes.Buffer
	Text(&b, s)
	if !strings.Contains(b.String(), "$18.0006") || !strings.Contains(b.String(), "prices as read on 2026-11-29") {
		t.Errorf("text:\n%s", b.String())
	}
	// An unpriced model has an unknown cost, not zero.
	unpriced(t, Summarize(run("openai:nobody", "openai", "nobody"), table), "openai:nobody")
}

// unpriced checks that s's total cost is unknown, not zero, and that its
// text says who is not in a price table.
func unpriced(t *testing.T, s *Summary, who string) {
	t.Helper()
	if s.Total.CostUSD != nil {
		t.Errorf("total cost %v with %s unpriced: want unknown", *s.Total.CostUSD, who)
	}
	var b bytes.Buffer
	Text(&b, s)
	if want := "unpriced: " + who + " is not in a price table"; !strings.Contains(b.String(), want) {
		t.Errorf("text lacks %q:\n%s", want, b.String())
	}
}

func TestBudget(t *testing.T) {
	b := &Budget{Tokens: 2_000_000}
	r := run("x:y", "x", "y")
	if b.Exceeded() != "" {
		t.Fatal("a fresh budget is exceeded")
	}
	b.Spend(&r.Attempts[1])
	if b.Exceeded() != "" {
		t.Error("10 tokens exceed 2M")
	}
	b.Spend(&r.Attempts[0])
	if b.Exceeded() != string(record.KindBudget) {
		tok, _ := b.Spent()
		t.Errorf("%d tokens do not exceed 2M", tok)
	}
	p := price.Price{Rates: price.Rates{Input: 3, Output: 15}}
	d := &Budget{USD: 5, Price: &p}
	d.Spend(&r.Attempts[0])
	if d.Exceeded() != string(record.KindBudget) {
		_, usd := d.Spent()
		t.Errorf("$%v does not exceed $5", usd)
	}
}
