package actions

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"
)

// ValidateArgs checks arguments (JSON) against a tool's input schema
// (JSON): whether the server would accept them. It returns nil when they
// are valid, or when there is no schema; the error says where they fail.
//
// It checks the keywords tool input schemas use: type, properties,
// required, additionalProperties, items, enum, const, the numeric, string
// and list bounds, pattern, allOf, anyOf, oneOf, not and local $ref. A
// keyword it does not know is not checked (formats, for one, are
// annotations). It is written here rather than taken from a JSON Schema
// library so that scoring stays within the standard library.
func ValidateArgs(schema, args json.RawMessage) error {
	if len(bytes.TrimSpace(schema)) == 0 || string(schema) == "null" {
		return nil
	}
	var root any
	if err := json.Unmarshal(schema, &root); err != nil {
		return nil // no schema to hold the arguments to
	}
	if len(bytes.TrimSpace(args)) == 0 || string(args) == "null" {
		args = json.RawMessage("{}")
	}
	var inst any
	d := json.NewDecoder(bytes.NewReader(args))
	d.UseNumber()
	if err := d.Decode(&inst); err != nil {
		return fmt.Errorf("arguments are not valid JSON: %v", err)
	}
	v := validator{root: root}
	v.check(root, inst, "")
	if len(v.errs) == 0 {
		return nil
	}
	return fmt.Errorf("%s", strings.Join(v.errs, "; "))
}

type validator struct {
	root  any
	errs  []string
	depth int
}

func (v *validator) fail(at, format string, args ...any) {
	if at == "" {
		at = "/"
	}
	v.errs = append(v.errs, "at "+at+": "+fmt.Sprintf(format, args...))
}

// valid reports whether inst holds to schema, without recording errors.
func (v *validator) valid(schema, inst any, at string) bool {
	sub := validator{root: v.root, depth: v.depth}
	sub.check(schema, inst, at)
	return len(sub.errs) == 0
}

func (v *validator) check(schema, inst any, at string) {
	switch s := schema.(type) {
	case bool:
		if !s {
			v.fail(at, "no value is allowed here")
		}
		return
	case map[string]any:
		v.object(s, inst, at)
	}
}

func (v *validator) object(s map[string]any, inst any, at string) {
	if ref, ok := s["$ref"].(string); ok {
		if target := v.resolve(ref); target != nil && v.depth < 32 {
			v.depth++
			v.check(target, inst, at)
			v.depth--
		}
	}
	if t, ok := s["type"]; ok && !typeMatches(t, inst) {
		v.fail(at, "want %s, got %s", typeNames(t), kindOf(inst))
		return
	}
	if e, ok := s["enum"].([]any); ok {
		found := false
		for _, x := range e {
			found = found || equal(x, inst)
		}
		if !found {
			v.fail(at, "%s is not one of %s", show(plain(inst)), show(e))
		}
	}
	if c, ok := s["const"]; ok && !equal(c, inst) {
		v.fail(at, "want %s", show(c))
	}
	switch x := inst.(type) {
	case json.Number:
		f, _ := x.Float64()
		bound := func(key string, bad func(b float64) bool, what string) {
			if b, ok := s[key].(float64); ok && bad(b) {
				v.fail(at, "%s is %s %v", x, what, b)
			}
		}
		bound("minimum", func(b float64) bool { return f < b }, "below the minimum")
		bound("maximum", func(b float64) bool { return f > b }, "above the maximum")
		bound("exclusiveMinimum", func(b float64) bool { return f <= b }, "not above")
		bound("exclusiveMaximum", func(b float64) bool { return f >= b }, "not below")
		if m, ok := s["multipleOf"].(float64); ok && m > 0 {
			if q := f / m; math.Abs(q-math.Round(q)) > 1e-9 {
				v.fail(at, "%s is not a multiple of %v", x, m)
			}
		}
	case string:
		n := float64(utf8.RuneCountInString(x))
		if b, ok := s["minLength"].(float64); ok && n < b {
			v.fail(at, "shorter than %v characters", b)
		}
		if b, ok := s["maxLength"].(float64); ok && n > b {
			v.fail(at, "longer than %v characters", b)
		}
		if p, ok := s["pattern"].(string); ok {
			if re, err := regexp.Compile(p); err == nil && !re.MatchString(x) {
				v.fail(at, "%q does not match %s", x, p)
			}
		}
	case []any:
		n := float64(len(x))
		if b, ok := s["minItems"].(float64); ok && n < b {
			v.fail(at, "fewer than %v items", b)
		}
		if b, ok := s["maxItems"].(float64); ok && n > b {
			v.fail(at, "more than %v items", b)
		}
		if items, ok := s["items"]; ok {
			for i, e := range x {
				v.check(items, e, fmt.Sprintf("%s/%d", at, i))
			}
		}
	case map[string]any:
		props, _ := s["properties"].(map[string]any)
		if req, ok := s["required"].([]any); ok {
			for _, r := range req {
				if name, ok := r.(string); ok {
					if _, has := x[name]; !has {
						v.fail(at, "missing required argument %s", name)
					}
				}
			}
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if p, ok := props[k]; ok {
				v.check(p, x[k], at+"/"+k)
				continue
			}
			if ap, ok := s["additionalProperties"]; ok {
				if b, isBool := ap.(bool); isBool && !b {
					v.fail(at, "unknown argument %s", k)
				} else {
					v.check(ap, x[k], at+"/"+k)
				}
			}
		}
	}
	if all, ok := s["allOf"].([]any); ok {
		for _, sub := range all {
			v.check(sub, inst, at)
		}
	}
	if anyOf, ok := s["anyOf"].([]any); ok {
		n := 0
		for _, sub := range anyOf {
			if v.valid(sub, inst, at) {
				n++
			}
		}
		if n == 0 {
			v.fail(at, "matches none of anyOf")
		}
	}
	if oneOf, ok := s["oneOf"].([]any); ok {
		n := 0
		for _, sub := range oneOf {
			if v.valid(sub, inst, at) {
				n++
			}
		}
		if n != 1 {
			v.fail(at, "matches %d of oneOf, want exactly 1", n)
		}
	}
	if not, ok := s["not"]; ok && v.valid(not, inst, at) {
		v.fail(at, "matches a schema it must not")
	}
}

// resolve follows a local reference ("#/$defs/Name", "#/definitions/Name",
// "#").
func (v *validator) resolve(ref string) any {
	path, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil
	}
	cur := v.root
	for _, seg := range strings.Split(strings.TrimPrefix(path, "/"), "/") {
		if seg == "" {
			continue
		}
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[seg]
	}
	return cur
}

func typeMatches(t, inst any) bool {
	switch t := t.(type) {
	case string:
		return isType(t, inst)
	case []any:
		for _, x := range t {
			if s, ok := x.(string); ok && isType(s, inst) {
				return true
			}
		}
		return false
	}
	return true
}

func isType(t string, inst any) bool {
	switch x := inst.(type) {
	case nil:
		return t == "null"
	case bool:
		return t == "boolean"
	case string:
		return t == "string"
	case json.Number:
		if t == "number" {
			return true
		}
		if t == "integer" {
			f, err := x.Float64()
			return err == nil && f == math.Trunc(f)
		}
	case []any:
		return t == "array"
	case map[string]any:
		return t == "object"
	}
	return false
}

func typeNames(t any) string {
	if l, ok := t.([]any); ok {
		var names []string
		for _, x := range l {
			names = append(names, fmt.Sprint(x))
		}
		return strings.Join(names, " or ")
	}
	return fmt.Sprint(t)
}

func kindOf(inst any) string {
	switch x := inst.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		if f, err := x.Float64(); err == nil && f == math.Trunc(f) {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	}
	return "object"
}

// equal compares a schema value (decoded as float64) with an instance
// value (decoded with json.Number).
func equal(a, b any) bool {
	ja, _ := json.Marshal(plain(a))
	jb, _ := json.Marshal(plain(b))
	return bytes.Equal(ja, jb)
}

// plain turns json.Numbers into float64, so that values compare and print
// alike.
func plain(x any) any {
	switch v := x.(type) {
	case json.Number:
		f, _ := v.Float64()
		return f
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = plain(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = plain(e)
		}
		return out
	}
	return x
}
