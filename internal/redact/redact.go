package redact

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"net/url"
	"os"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v4"

	"github.com/mcpeval/mcpeval/internal/lazyregexp"
)

// FileName is the operator's redaction list, looked for beside the ledger.
const FileName = "redact.yaml"

// Config lists what must never be published. Every entry is matched
// case-insensitively, anywhere in text.
type Config struct {
	// Hostnames are the deployment's hosts ("agav.example.com"); a listed
	// name also covers its subdomains' spelling of it.
	Hostnames []string `yaml:"hostnames,omitempty"`
	// TenantIDs are tenant or account ids.
	TenantIDs []string `yaml:"tenant_ids,omitempty"`
	// Emails are addresses of people or accounts.
	Emails []string `yaml:"emails,omitempty"`
	// Identifiers are any other values to remove.
	Identifiers []string `yaml:"identifiers,omitempty"`
	// Patterns are regular expressions (RE2) of identifiers to remove.
	Patterns []string `yaml:"patterns,omitempty"`
	// Env names environment variables whose values are secrets: their
	// values, when set, are removed wherever they appear.
	Env []string `yaml:"env,omitempty"`
}

// LoadConfig reads a redaction list from a YAML file.
func LoadConfig(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading redaction list: %w", err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var c Config
	if err := dec.Decode(&c); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	for i, p := range c.Patterns {
		if _, err := regexp.Compile(p); err != nil {
			return nil, fmt.Errorf("%s: patterns[%d]: %v", path, i, err)
		}
	}
	return &c, nil
}

// Redactor applies both passes. The zero value is not usable; use New.
type Redactor struct {
	// literals are exact values, each with its label; patterns are the
	// operator's regular expressions.
	literals map[string]string
	patterns []*regexp.Regexp
	// re matches every literal, longest first; nil when there are none.
	re *regexp.Regexp
}

// Minimum length of a secret value taken from the environment: shorter
// values would redact ordinary words.
const minSecret = 6

// New returns a redactor for cfg (nil: the first pass only), reading the
// values of cfg.Env with getenv (nil: os.Getenv).
func New(cfg *Config, getenv func(string) string) (*Redactor, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	r := &Redactor{literals: map[string]string{}}
	if cfg == nil {
		cfg = &Config{}
	}
	for _, h := range cfg.Hostnames {
		r.add(h, "hostname")
	}
	for _, t := range cfg.TenantIDs {
		r.add(t, "tenant")
	}
	for _, e := range cfg.Emails {
		r.add(e, "email")
	}
	for _, id := range cfg.Identifiers {
		r.add(id, "id")
	}
	for _, name := range cfg.Env {
		r.AddSecret(getenv(name))
	}
	for i, p := range cfg.Patterns {
		re, err := regexp.Compile("(?i)" + p)
		if err != nil {
			return nil, fmt.Errorf("redaction pattern %d: %v", i+1, err)
		}
		r.patterns = append(r.patterns, re)
	}
	r.compile()
	return r, nil
}

func (r *Redactor) add(v, label string) {
	v = strings.TrimSpace(v)
	if v == "" {
		return
	}
	r.literals[strings.ToLower(v)] = label
	r.re = nil
}

// AddSecret adds an exact secret value (a token, a password) to remove
// wherever it appears. Values shorter than six characters are ignored:
// they would redact ordinary words.
func (r *Redactor) AddSecret(v string) {
	if len(strings.TrimSpace(v)) >= minSecret {
		r.add(v, "secret")
	}
}

// AddTarget adds what a target's configuration makes secret: an HTTP
// endpoint's host, its user info and query values, and the value of every
// environment variable its headers and environment name as ${VAR} (as
// getenv has them now). The literal text of a header or environment value
// is not secret: it is written in the suite, in the open.
func (r *Redactor) AddTarget(spec string, headers, env map[string]string, getenv func(string) string) {
	if getenv == nil {
		getenv = os.Getenv
	}
	if (strings.HasPrefix(spec, "http://") || strings.HasPrefix(spec, "https://")) && !strings.Contains(spec, "[endpoint]") {
		if u, err := url.Parse(spec); err == nil {
			r.add(u.Host, "endpoint")
			r.add(u.Hostname(), "endpoint")
			if u.User != nil {
				r.AddSecret(u.User.Username())
				if p, ok := u.User.Password(); ok {
					r.AddSecret(p)
				}
			}
			for _, vs := range u.Query() {
				for _, v := range vs {
					r.AddSecret(v)
				}
			}
		}
	}
	for _, m := range []map[string]string{headers, env} {
		for _, v := range m {
			os.Expand(v, func(name string) string {
				val := getenv(name)
				r.AddSecret(val)
				return val
			})
		}
	}
	r.compile()
}

func (r *Redactor) compile() {
	if len(r.literals) == 0 {
		r.re = nil
		return
	}
	vals := make([]string, 0, len(r.literals))
	for v := range r.literals {
		vals = append(vals, v)
	}
	sort.Slice(vals, func(i, j int) bool {
		if len(vals[i]) != len(vals[j]) {
			return len(vals[i]) > len(vals[j])
		}
		return vals[i] < vals[j]
	})
	for i, v := range vals {
		vals[i] = regexp.QuoteMeta(v)
	}
	r.re = regexp.MustCompile("(?i)" + strings.Join(vals, "|"))
}

// Label is what a removed value is replaced with: "[redacted:hostname]".
func Label(kind string) string { return "[redacted:" + kind + "]" }

// String returns s with both passes applied.
func (r *Redactor) String(s string) string { return r.Literals(Secrets(s)) }

// Value applies both passes to every string in v, in place: v is a
// pointer to anything that encodes to JSON and back (a record, grades,
// reviews, ledger rows). Object keys are redacted too.
func (r *Redactor) Value(v any) error { return Walk(v, r.String) }

// Literals applies the second pass alone, and the exact secret values:
// every listed identifier, pattern and value added with AddSecret or
// AddTarget, but not the credential shapes. It leaves text that merely
// looks like a credential alone, so it is safe on data a grader reads.
func (r *Redactor) Literals(s string) string {
	if r.re == nil && len(r.literals) > 0 {
		r.compile()
	}
	if r.re != nil {
		s = r.re.ReplaceAllStringFunc(s, func(m string) string { return Label(r.literals[strings.ToLower(m)]) })
	}
	for _, p := range r.patterns {
		s = p.ReplaceAllString(s, Label("id"))
	}
	return s
}

// Empty reports whether the redactor has no values or patterns of its
// own (it still has the first pass's shapes).
func (r *Redactor) Empty() bool { return len(r.literals) == 0 && len(r.patterns) == 0 }

// Walk applies f to every string in v, in place: v is a pointer to
// anything that encodes to JSON and back. Object keys are rewritten too.
// *v is rebuilt from scratch, so values that shared slices or maps with
// it (a shallow copy's original) are left as they were.
func Walk(v any, f func(string) string) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("redacting: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var tree any
	if err := dec.Decode(&tree); err != nil {
		return fmt.Errorf("redacting: %w", err)
	}
	tree = walk(tree, f)
	if b, err = json.Marshal(tree); err != nil {
		return fmt.Errorf("redacting: %w", err)
	}
	if p := reflect.ValueOf(v); p.Kind() == reflect.Pointer && !p.IsNil() {
		p.Elem().Set(reflect.Zero(p.Elem().Type()))
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("redacting: %w", err)
	}
	return nil
}

func walk(x any, f func(string) string) any {
	switch t := x.(type) {
	case string:
		return f(t)
	case []any:
		for i := range t {
			t[i] = walk(t[i], f)
		}
		return t
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, v := range t {
			out[f(k)] = walk(v, f)
		}
		return out
	}
	return x
}

// Finding is something a copy about to be published still holds. It
// never quotes the value itself.
type Finding struct {
	// Kind is what was found: "hostname", "tenant", "email", "id",
	// "secret", "endpoint", "pattern N" or the name of a credential shape.
	Kind string
	// Offset is where it starts in the text scanned.
	Offset int
}

func (f Finding) String() string { return fmt.Sprintf("%s at byte %d", f.Kind, f.Offset) }

// Find reports everything either pass would remove from data, which may
// be text, HTML or JSON: it is scanned as it is, with HTML character
// references decoded, and with JSON string escapes decoded.
func (r *Redactor) Find(data []byte) []Finding {
	if r.re == nil && len(r.literals) > 0 {
		r.compile()
	}
	var out []Finding
	seen := map[string]bool{}
	for _, text := range variants(string(data)) {
		add := func(kind string, at int) {
			k := kind + "@" + strconv.Itoa(at)
			if !seen[kind] || !seen[k] {
				seen[kind], seen[k] = true, true
				out = append(out, Finding{kind, at})
			}
		}
		if r.re != nil {
			for _, m := range r.re.FindAllStringIndex(text, -1) {
				add(r.literals[strings.ToLower(text[m[0]:m[1]])], m[0])
			}
		}
		for i, p := range r.patterns {
			for _, m := range p.FindAllStringIndex(text, -1) {
				add(fmt.Sprintf("pattern %d", i+1), m[0])
			}
		}
		for _, sh := range shapes {
			for _, m := range sh.re.FindAllStringSubmatchIndex(text, -1) {
				if sh.kept(text, m) {
					continue
				}
				add(sh.name, m[0])
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Offset < out[j].Offset })
	return out
}

// variants are the spellings of text a reader could decode a value from.
func variants(text string) []string {
	vs := []string{text}
	if u := html.UnescapeString(text); u != text {
		vs = append(vs, u)
	}
	if strings.Contains(text, `\`) {
		if u := jsonUnescape(text); u != text {
			vs = append(vs, u)
		}
	}
	return vs
}

var jsonEscape = lazyregexp.New(`\\(u[0-9a-fA-F]{4}|["\\/bfnrt])`)

func jsonUnescape(s string) string {
	return jsonEscape.ReplaceAllStringFunc(s, func(m string) string {
		if m[1] == 'u' {
			n, _ := strconv.ParseUint(m[2:], 16, 32)
			return string(rune(n))
		}
		switch m[1] {
		case 'b':
			return "\b"
		case 'f':
			return "\f"
		case 'n':
			return "\n"
		case 'r':
			return "\r"
		case 't':
			return "\t"
		}
		return m[1:]
	})
}
