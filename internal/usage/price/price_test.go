package price

import (
	"math"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/model"
)

func TestBuiltinParses(t *testing.T) {
	tb, err := Parse(pricesJSON)
	if err != nil {
		t.Fatal(err)
	}
	if tb.Read != "2026-11-29" || !strings.Contains(tb.Note, "check") {
		t.Errorf("table must say when it was read and that it must be checked: read %q", tb.Read)
	}
	for _, p := range tb.Models {
		if p.Input <= 0 || p.Output <= 0 {
			t.Errorf("%s:%s has no input or output rate", p.Provider, p.Model)
		}
	}
}

func TestLookup(t *testing.T) {
	for _, c := range []struct {
		provider, model string
		ok              bool
		input           float64
	}{
		{"anthropic", "claude-sonnet-5-5", true, 2},
		{"anthropic", "claude-sonnet-5-5-20260922", true, 2},
		{"openai", "gpt-6-sol-2026-09-22", true, 2},
		{"openai", "claude-sonnet-5-5", false, 0},
		{"openai", "llama3.2", false, 0},
		{"anthropic", "claude-sonnet-5-5x", false, 0},
	} {
		p, ok := Lookup(c.provider, c.model)
		if ok != c.ok || p.Input != c.input {
			t.Errorf("Lookup(%s, %s) = %v, %v; want input %v, %v", c.provider, c.model, p.Input, ok, c.input, c.ok)
		}
		if ok && p.Read == "" {
			t.Errorf("Lookup(%s, %s) has no read date", c.provider, c.model)
		}
	}
}

func TestCost(t *testing.T) {
	p := Price{Rates: Rates{Input: 2, Output: 10, CacheWrite: 2.5, CacheRead: 0.1}}
	u := model.Usage{Input: 1_000_000, Output: 100_000, CacheWrite: 400_000, CacheRead: 2_000_000}
	want := 2 + 1 + 1 + 0.2
	if got := Cost(p, u); math.Abs(got-want) > 1e-9 {
		t.Errorf("Cost = %v, want %v", got, want)
	}

	haiku, ok := Lookup("anthropic", "claude-haiku-5-5")
	if !ok {
		t.Fatal("claude-haiku-5-5 unpriced")
	}
	short := model.Usage{Input: 50_000, CacheRead: 50_000, Output: 1_000}
	if got, want := Cost(haiku, short), (50_000*0.1+50_000*0.01+1_000*0.5)/1e6; math.Abs(got-want) > 1e-12 {
		t.Errorf("short prompt Cost = %v, want %v", got, want)
	}
	long := model.Usage{Input: 50_000, CacheRead: 50_001, Output: 1_000}
	if got, want := Cost(haiku, long), (50_000*0.5+50_001*0.05+1_000*2.5)/1e6; math.Abs(got-want) > 1e-12 {
		t.Errorf("long prompt Cost = %v, want %v", got, want)
	}
}

func TestParseRefuses(t *testing.T) {
	for _, bad := range []string{
		`{"models":[]}`,
		`{"read":"2026-11-29","models":[{"provider":"a","model":"m","input":1},{"provider":"a","model":"m","input":1}]}`,
		`{"read":"2026-11-29","models":[{"provider":"a","model":"m","input":-1}]}`,
		`{"read":"2026-11-29","models":[{"model":"m"}]}`,
		`not json`,
	} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Errorf("Parse(%s) succeeded, want an error", bad)
		}
	}
}
