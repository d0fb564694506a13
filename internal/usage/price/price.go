package price

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"regexp"
	"sync"

	"github.com/mcpeval/mcpeval/model"
)

//go:embed prices.json
var pricesJSON []byte

// Rates are USD per million tokens of each kind.
type Rates struct {
	Input      float64 `json:"input"`
	Output     float64 `json:"output"`
	CacheWrite float64 `json:"cache_write"`
	CacheRead  float64 `json:"cache_read"`
}

// Tier is the rates that apply to every token of a turn whose prompt
// (input, cache writes and cache reads) is longer than Above tokens.
type Tier struct {
	Above int64 `json:"above"`
	Rates
}

// Price is one model's price.
type Price struct {
	Provider string `json:"provider"`
	Model    string `json:"model"`
	Rates
	// Long, when set, replaces Rates for turns with a long prompt.
	Long *Tier `json:"long,omitempty"`
	// Read is the date the price was read from the provider.
	Read string `json:"-"`
}

// Table is a price table as the data file holds it.
type Table struct {
	Read   string  `json:"read"`
	Note   string  `json:"note"`
	Models []Price `json:"models"`
}

// Parse reads a price table and checks it: a date, no model twice, no
// negative rate.
func Parse(data []byte) (*Table, error) {
	var t Table
	if err := json.Unmarshal(data, &t); err != nil {
		return nil, fmt.Errorf("reading price table: %w", err)
	}
	if t.Read == "" {
		return nil, fmt.Errorf("reading price table: no read date")
	}
	seen := map[string]bool{}
	for i := range t.Models {
		p := &t.Models[i]
		p.Read = t.Read
		k := p.Provider + ":" + p.Model
		if p.Provider == "" || p.Model == "" {
			return nil, fmt.Errorf("reading price table: entry %d has no provider or model", i)
		}
		if seen[k] {
			return nil, fmt.Errorf("reading price table: %s listed twice", k)
		}
		seen[k] = true
		rs := []Rates{p.Rates}
		if p.Long != nil {
			rs = append(rs, p.Long.Rates)
		}
		for _, r := range rs {
			if r.Input < 0 || r.Output < 0 || r.CacheWrite < 0 || r.CacheRead < 0 {
				return nil, fmt.Errorf("reading price table: %s has a negative rate", k)
			}
		}
	}
	return &t, nil
}

var builtin = sync.OnceValues(func() (*Table, error) { return Parse(pricesJSON) })

// Builtin returns the embedded price table.
func Builtin() *Table {
	t, err := builtin()
	if err != nil {
		panic(err) // the embedded file is checked by the package's tests
	}
	return t
}

// dated matches a snapshot suffix: -20260922 or -2026-09-22.
var dated = regexp.MustCompile(`-(\d{8}|\d{4}-\d{2}-\d{2})$`)

// Lookup returns the price of a provider's model from the embedded table. A
// dated snapshot name ("claude-sonnet-5-5-20260922", "gpt-6-sol-2026-09-22")
// takes its model's price. It reports false for an unpriced model.
func Lookup(provider, name string) (Price, bool) {
	return Builtin().Lookup(provider, name)
}

// Lookup is the package Lookup over table t.
func (t *Table) Lookup(provider, name string) (Price, bool) {
	for _, n := range []string{name, dated.ReplaceAllString(name, "")} {
		for _, p := range t.Models {
			if p.Provider == provider && p.Model == n {
				return p, true
			}
		}
	}
	return Price{}, false
}

// Cost returns what u cost at price p, in USD. Give it one turn's usage:
// with a long-prompt tier, whether the tier applies depends on the turn's
// prompt, so summing turns first can under-price them.
func Cost(p Price, u model.Usage) float64 {
	r := p.Rates
	if p.Long != nil && u.Input+u.CacheWrite+u.CacheRead > p.Long.Above {
		r = p.Long.Rates
	}
	return (float64(u.Input)*r.Input + float64(u.Output)*r.Output +
		float64(u.CacheWrite)*r.CacheWrite + float64(u.CacheRead)*r.CacheRead) / 1e6
}
