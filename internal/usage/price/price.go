package price

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"sync"

	"github.com/mcpeval/mcpeval/internal/lazyregexp"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
)

//go:embed prices/*.json
var pricesFS embed.FS

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
	// Provider is the table's provider; an entry may leave it out.
	Provider string `json:"provider,omitempty"`
	Model    string `json:"model"`
	Rates
	// Long, when set, replaces Rates for turns with a long prompt.
	Long *Tier `json:"long,omitempty"`
	// Read is the date the price was read from the provider.
	Read string `json:"-"`
}

// Table is one provider's prices as its file holds them.
type Table struct {
	Provider string `json:"provider"`
	// Read is the date the prices were read; Source the page they were
	// read from.
	Read   string  `json:"read"`
	Source string  `json:"source"`
	Note   string  `json:"note,omitempty"`
	Models []Price `json:"models"`
	// SHA256 is the hash of the file that held the table; File is its
	// path, empty for a built-in table.
	SHA256 string `json:"-"`
	File   string `json:"-"`
}

// Parse reads a price file: one table or a JSON array of tables. It checks
// each: a provider, a date, no model twice, no negative rate. name is the
// file's path, for errors and for Stamp; empty for a built-in table.
func Parse(name string, data []byte) ([]*Table, error) {
	where := "price table"
	if name != "" {
		where = "price file " + name
	}
	sum := sha256.Sum256(data)
	var tables []*Table
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var err error
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '[' {
		err = dec.Decode(&tables)
	} else {
		var t Table
		err = dec.Decode(&t)
		tables = []*Table{&t}
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", where, err)
	}
	if len(tables) == 0 {
		return nil, fmt.Errorf("reading %s: no table", where)
	}
	providers := map[string]bool{}
	for ti, t := range tables {
		if t == nil || t.Provider == "" || t.Read == "" {
			return nil, fmt.Errorf("reading %s: table %d has no provider or no read date", where, ti)
		}
		if providers[t.Provider] {
			return nil, fmt.Errorf("reading %s: provider %s has two tables", where, t.Provider)
		}
		providers[t.Provider] = true
		t.SHA256 = hex.EncodeToString(sum[:])
		t.File = name
		seen := map[string]bool{}
		for i := range t.Models {
			p := &t.Models[i]
			if p.Provider == "" {
				p.Provider = t.Provider
			}
			p.Read = t.Read
			k := p.Provider + ":" + p.Model
			if p.Provider != t.Provider {
				return nil, fmt.Errorf("reading %s: %s is in the %s table", where, k, t.Provider)
			}
			if p.Model == "" {
				return nil, fmt.Errorf("reading %s: %s entry %d names no model", where, t.Provider, i)
			}
			if seen[k] {
				return nil, fmt.Errorf("reading %s: %s listed twice", where, k)
			}
			seen[k] = true
			rs := []Rates{p.Rates}
			if p.Long != nil {
				rs = append(rs, p.Long.Rates)
			}
			for _, r := range rs {
				if r.Input < 0 || r.Output < 0 || r.CacheWrite < 0 || r.CacheRead < 0 {
					return nil, fmt.Errorf("reading %s: %s has a negative rate", where, k)
				}
			}
		}
	}
	return tables, nil
}

// Set is the price tables in use, one per provider.
type Set struct {
	tables map[string]*Table
}

// NewSet returns the tables as a set; a later table of a provider replaces
// an earlier one.
func NewSet(tables ...*Table) *Set {
	s := &Set{tables: map[string]*Table{}}
	for _, t := range tables {
		s.tables[t.Provider] = t
	}
	return s
}

var builtin = sync.OnceValues(func() (*Set, error) {
	var all []*Table
	err := fs.WalkDir(pricesFS, "prices", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := pricesFS.ReadFile(path)
		if err != nil {
			return err
		}
		ts, err := Parse("", data)
		all = append(all, ts...)
		return err
	})
	return NewSet(all...), err
})

// Builtin returns the embedded price tables.
func Builtin() *Set {
	s, err := builtin()
	if err != nil {
		panic(err) // the embedded files are checked by the package's tests
	}
	return s
}

// Load returns the built-in tables with those of the price file at path
// in place of the built-in tables of the providers it names. An empty path
// returns the built-in tables.
func Load(path string) (*Set, error) {
	if path == "" {
		return Builtin(), nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading price file: %w", err)
	}
	ts, err := Parse(path, data)
	if err != nil {
		return nil, err
	}
	return NewSet(append(Builtin().Tables(), ts...)...), nil
}

// Tables returns the set's tables, by provider.
func (s *Set) Tables() []*Table {
	var ts []*Table
	for _, t := range s.tables {
		ts = append(ts, t)
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i].Provider < ts[j].Provider })
	return ts
}

// Table returns the provider's table, or nil when it has none.
func (s *Set) Table(provider string) *Table {
	return s.tables[provider]
}

// dated matches a snapshot suffix: -20260922 or -2026-09-22.
var dated = lazyregexp.New(`-(\d{8}|\d{4}-\d{2}-\d{2})$`)

// Lookup returns the price of a provider's model from the embedded tables.
// A dated snapshot name ("claude-sonnet-5-5-20260922",
// "gpt-6-sol-2026-09-22") takes its model's price. It reports false for an
// unpriced model.
func Lookup(provider, name string) (Price, bool) {
	return Builtin().Lookup(provider, name)
}

// Lookup is the package Lookup over the set's tables.
func (s *Set) Lookup(provider, name string) (Price, bool) {
	t := s.tables[provider]
	if t == nil {
		return Price{}, false
	}
	for _, n := range []string{name, dated.ReplaceAllString(name, "")} {
		for _, p := range t.Models {
			if p.Model == n {
				return p, true
			}
		}
	}
	return Price{}, false
}

// Stamp names the table that prices a provider's model, as a run records
// it; nil when the provider has no table.
func (s *Set) Stamp(provider, name string) *record.PriceTable {
	t := s.tables[provider]
	if t == nil {
		return nil
	}
	_, ok := s.Lookup(provider, name)
	return &record.PriceTable{Provider: t.Provider, Read: t.Read, Source: t.Source, SHA256: t.SHA256, File: t.File, Unpriced: !ok}
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
