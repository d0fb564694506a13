package suite

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/mcpeval/mcpeval/internal/lazyregexp"
)

var placeholderRE = lazyregexp.New(`\{\{\s*([^{}\s]+)\s*\}\}`)

// Vars are the values a template may name: {{token}}, {{fact.NAME}} and
// {{item.PATH}}.
type Vars struct {
	Token string
	Facts map[string]string
	Item  any
}

func (v Vars) value(name string) (any, bool) {
	switch {
	case name == "token":
		return v.Token, v.Token != ""
	case strings.HasPrefix(name, "fact."):
		f, ok := v.Facts[strings.TrimPrefix(name, "fact.")]
		return f, ok
	case strings.HasPrefix(name, "item.") && v.Item != nil:
		got := Lookup(v.Item, strings.TrimPrefix(name, "item."))
		if len(got) == 0 {
			return nil, false
		}
		return got[0], true
	}
	return nil, false
}

// Placeholders returns the names of the placeholders in s, in order.
func Placeholders(s string) []string {
	var names []string
	for _, m := range placeholderRE.FindAllStringSubmatch(s, -1) {
		names = append(names, m[1])
	}
	return names
}

// Render replaces every placeholder in s with its value; a placeholder with
// no value is an error.
func Render(s string, v Vars) (string, error) {
	var missing []string
	out := placeholderRE.ReplaceAllStringFunc(s, func(m string) string {
		name := placeholderRE.FindStringSubmatch(m)[1]
		x, ok := v.value(name)
		if !ok {
			missing = append(missing, "{{"+name+"}}")
			return m
		}
		return scalarText(x)
	})
	if len(missing) > 0 {
		return out, fmt.Errorf("no value for %s", strings.Join(missing, ", "))
	}
	return out, nil
}

// RenderValue renders every string in x (through maps and lists). A string
// that is exactly one placeholder takes the value's own type.
func RenderValue(x any, v Vars) (any, error) {
	switch x := x.(type) {
	case string:
		if m := placeholderRE.FindStringSubmatch(x); m != nil && m[0] == x {
			val, ok := v.value(m[1])
			if !ok {
				return x, fmt.Errorf("no value for {{%s}}", m[1])
			}
			return val, nil
		}
		return Render(x, v)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			r, err := RenderValue(e, v)
			if err != nil {
				return nil, err
			}
			out[k] = r
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			r, err := RenderValue(e, v)
			if err != nil {
				return nil, err
			}
			out[i] = r
		}
		return out, nil
	}
	return x, nil
}

func scalarText(x any) string {
	switch x := x.(type) {
	case string:
		return x
	case nil:
		return ""
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	if f, ok := number(x); ok {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	b, err := json.Marshal(x)
	if err != nil {
		return fmt.Sprint(x)
	}
	return string(b)
}

// Paths into values.

// factName returns the fact a placeholder "fact.NAME" or "fact.NAME@PATH"
// (another spelling of it) names.
func factName(placeholder string) string {
	name, _, _ := strings.Cut(strings.TrimPrefix(placeholder, "fact."), SpellingSep)
	return name
}

// literalTexts returns the texts of a literal that must appear in the
// prompt: its strings and numbers (booleans cannot be quoted), with
// placeholders kept as written.
func literalTexts(x any) []string {
	switch x := x.(type) {
	case string:
		return []string{x}
	case bool, nil:
		return nil
	case []any:
		var out []string
		for _, e := range x {
			out = append(out, literalTexts(e)...)
		}
		return out
	case map[string]any:
		var out []string
		for _, e := range x {
			out = append(out, literalTexts(e)...)
		}
		return out
	}
	return []string{scalarText(x)}
}

// SpellingSep separates a fact's name from the path of another spelling of
// it in a fixture record's facts: "container" holds the spelling the prompt
// shows, "container@id" and "container@short_id" the others.
const SpellingSep = "@"

// FactSpellings returns every recorded spelling of fact name, the one the
// prompt shows first.
func FactSpellings(facts map[string]string, name string) []string {
	var out []string
	if v, ok := facts[name]; ok {
		out = append(out, v)
	}
	var keys []string
	for k := range facts {
		if strings.HasPrefix(k, name+SpellingSep) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		out = append(out, facts[k])
	}
	return out
}

// MatchTemplate returns the values the placeholders of template tmpl take
// in s, a rendering of it ("token" and "fact.NAME" as keys), and whether s
// is a rendering of tmpl at all. A placeholder named twice keeps its first
// value.
func MatchTemplate(tmpl, s string) (map[string]string, bool) {
	locs := placeholderRE.FindAllStringSubmatchIndex(tmpl, -1)
	var re strings.Builder
	re.WriteString(`(?s)^`)
	var names []string
	last := 0
	for _, l := range locs {
		re.WriteString(regexp.QuoteMeta(tmpl[last:l[0]]))
		re.WriteString(`(.+?)`)
		names = append(names, tmpl[l[2]:l[3]])
		last = l[1]
	}
	re.WriteString(regexp.QuoteMeta(tmpl[last:]))
	re.WriteString(`$`)
	m := regexp.MustCompile(re.String()).FindStringSubmatch(s)
	if m == nil {
		return nil, false
	}
	vals := map[string]string{}
	for i, n := range names {
		if _, seen := vals[n]; !seen {
			vals[n] = m[i+1]
		}
	}
	return vals, true
}
