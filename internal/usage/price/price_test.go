package price

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/model"
)

func TestBuiltinParses(t *testing.T) {
	for _, p := range []string{"anthropic", "openai"} {
		tb := Builtin().Table(p)
		if tb == nil {
			t.Fatalf("no built-in %s table", p)
		}
		if tb.Read != "2026-11-29" || !strings.Contains(tb.Note, "check") || !strings.HasPrefix(tb.Source, "https://") {
			t.Errorf("%s table must say when and where it was read and that it must be checked: read %q source %q", p, tb.Read, tb.Source)
		}
		if len(tb.SHA256) != 64 || tb.File != "" {
			t.Errorf("%s table hash %q file %q", p, tb.SHA256, tb.File)
		}
		for _, m := range tb.Models {
			if m.Input <= 0 || m.Output <= 0 || m.Provider != p {
				t.Errorf("%s:%s has no input or output rate", m.Provider, m.Model)
			}
		}
	}
}

// TestLoadOverrides: a --prices file replaces the tables of the providers
// it names, keeps the others, and is what the run's stamp names.
func TestLoadOverrides(t *testing.T) {
	path := filepath.Join(t.TempDir(), "prices.json")
	data := []byte(`{"provider":"openai","read":"2027-01-02","source":"https://example.com/p","models":[{"model":"llama3.2","input":1,"output":2}]}`)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := s.Lookup("openai", "llama3.2"); !ok || p.Input != 1 || p.Read != "2027-01-02" {
		t.Errorf("llama3.2 from the file: %+v %v", p, ok)
	}
	if _, ok := s.Lookup("openai", "gpt-6-sol"); ok {
		t.Error("the file's openai table does not replace the built-in one")
	}
	if _, ok := s.Lookup("anthropic", "claude-sonnet-5-5"); !ok {
		t.Error("the file drops the anthropic table it does not name")
	}
	sum := sha256.Sum256(data)
	st := s.Stamp("openai", "llama3.2")
	if st == nil || st.SHA256 != hex.EncodeToString(sum[:]) || st.Read != "2027-01-02" || st.File != path || st.Unpriced {
		t.Errorf("stamp %+v", st)
	}
	if st := s.Stamp("openai", "gpt-6-sol"); st == nil || !st.Unpriced {
		t.Errorf("stamp of an unpriced model %+v", st)
	}
	if st := s.Stamp("nobody", "x"); st != nil {
		t.Errorf("stamp of a provider with no table %+v", st)
	}
	if _, err := Load(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Error("a missing price file loads")
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
		{"gemini", "claude-sonnet-5-5", false, 0},
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
		`{"provider":"a","models":[]}`,
		`{"read":"2026-11-29","models":[{"model":"m","input":1}]}`,
		`{"provider":"a","read":"2026-11-29","models":[{"model":"m","input":1},{"model":"m","input":1}]}`,
		`{"provider":"a","read":"2026-11-29","models":[{"model":"m","input":-1}]}`,
		`{"provider":"a","read":"2026-11-29","models":[{"provider":"b","model":"m"}]}`,
		`{"provider":"a","read":"2026-11-29","models":[{"input":1}]}`,
		`{"provider":"a","read":"2026-11-29","modles":[]}`,
		`[{"provider":"a","read":"2026-11-29"},{"provider":"a","read":"2026-11-30"}]`,
		`[]`,
		`not json`,
	} {
		if _, err := Parse("f.json", []byte(bad)); err == nil {
			t.Errorf("Parse(%s) succeeded, want an error", bad)
		} else if !strings.Contains(err.Error(), "f.json") {
			t.Errorf("Parse(%s): %v does not name the file", bad, err)
		}
	}
	ts, err := Parse("", []byte(`[{"provider":"a","read":"2026-11-29"},{"provider":"b","read":"2026-11-30","models":[{"model":"m","input":1}]}]`))
	if err != nil || len(ts) != 2 || ts[1].Models[0].Provider != "b" {
		t.Errorf("two tables: %v %v", ts, err)
	}
}
