package suite

import (
	"encoding/json"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// SplitPath splits a dotted path into its segments; dots inside a
// [field=value] filter do not split.
func SplitPath(path string) []string {
	var segs []string
	depth, start := 0, 0
	for i := 0; i < len(path); i++ {
		switch path[i] {
		case '[':
			depth++
		case ']':
			depth--
		case '.':
			if depth == 0 {
				segs = append(segs, path[start:i])
				start = i + 1
			}
		}
	}
	return append(segs, path[start:])
}

// Lookup returns every value path leads to in v (decoded JSON or YAML). A
// segment is a map key, a list index, "*" (every element), or any of these
// followed by [field=value], which keeps the list elements whose field
// (a dotted path) has that value or is a list holding it. The empty path
// is v itself.
func Lookup(v any, path string) []any {
	if path == "" {
		return []any{v}
	}
	cur := []any{v}
	for _, seg := range SplitPath(path) {
		key, filter := seg, ""
		if i := strings.IndexByte(seg, '['); i >= 0 && strings.HasSuffix(seg, "]") {
			key, filter = seg[:i], seg[i+1:len(seg)-1]
		}
		var next []any
		for _, x := range cur {
			if key != "" {
				next = append(next, step(x, key)...)
			} else {
				next = append(next, x)
			}
		}
		if filter != "" {
			field, want, _ := strings.Cut(filter, "=")
			var kept []any
			for _, x := range next {
				for _, e := range elements(x) {
					if hasValue(Lookup(e, field), want) {
						kept = append(kept, e)
					}
				}
			}
			next = kept
		}
		cur = next
	}
	return cur
}

// hasValue reports whether one of got is want, or is a list holding it.
func hasValue(got []any, want string) bool {
	for _, g := range got {
		if SameValue(g, want) {
			return true
		}
		if l, ok := g.([]any); ok && hasValue(l, want) {
			return true
		}
	}
	return false
}

// step follows one plain segment.
func step(x any, key string) []any {
	switch x := x.(type) {
	case map[string]any:
		if key == "*" {
			keys := slices.Sorted(maps.Keys(x))
			var out []any
			for _, k := range keys {
				out = append(out, x[k])
			}
			return out
		}
		if e, ok := x[key]; ok {
			return []any{e}
		}
	case []any:
		if key == "*" {
			return x
		}
		if i, err := strconv.Atoi(key); err == nil && i >= 0 && i < len(x) {
			return []any{x[i]}
		}
	}
	return nil
}

func elements(x any) []any {
	if l, ok := x.([]any); ok {
		return l
	}
	return []any{x}
}

// SetPath sets the value at a dotted path in root, making the maps and
// lists on the way; "*" and indices address list elements ("*" the first).
func SetPath(root map[string]any, path string, val any) {
	segs := SplitPath(path)
	var set func(cur any, i int) any
	set = func(cur any, i int) any {
		if i == len(segs) {
			return val
		}
		seg := segs[i]
		idx, err := strconv.Atoi(seg)
		if seg == "*" {
			idx, err = 0, nil
		}
		if err == nil {
			l, _ := cur.([]any)
			for len(l) <= idx {
				l = append(l, nil)
			}
			l[idx] = set(l[idx], i+1)
			return l
		}
		m, _ := cur.(map[string]any)
		if m == nil {
			m = map[string]any{}
		}
		m[seg] = set(m[seg], i+1)
		return m
	}
	set(root, 0)
}

// Values.

// SameValue reports whether a and b are the same value as arguments are
// compared: numbers by value whether written as numbers or strings (42,
// "42" and 42.0 are equal), null the same as absent, lists and objects
// element by element.
func SameValue(a, b any) bool {
	a, b = normal(a), normal(b)
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	if fa, ok := number(a); ok {
		fb, ok := number(b)
		return ok && math.Abs(fa-fb) <= 1e-9*math.Max(1, math.Abs(fa))
	}
	switch a := a.(type) {
	case []any:
		bl, ok := b.([]any)
		if !ok || len(a) != len(bl) {
			return false
		}
		for i := range a {
			if !SameValue(a[i], bl[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok {
			return false
		}
		for k := range a {
			if !SameValue(a[k], bm[k]) {
				return false
			}
		}
		for k := range bm {
			if _, ok := a[k]; !ok && normal(bm[k]) != nil {
				return false
			}
		}
		return true
	}
	if _, ok := number(b); ok {
		return false
	}
	return scalarText(a) == scalarText(b)
}

// normal turns YAML's and JSON's shapes into one: numeric strings into
// numbers, typed lists and maps into []any and map[string]any.
func normal(x any) any {
	switch v := x.(type) {
	case string:
		if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			return f
		}
		return v
	case json.Number:
		if f, err := v.Float64(); err == nil {
			return f
		}
		return v.String()
	case []string:
		l := make([]any, len(v))
		for i, s := range v {
			l[i] = s
		}
		return l
	case map[string]string:
		m := make(map[string]any, len(v))
		for k, s := range v {
			m[k] = s
		}
		return m
	}
	return x
}

func number(x any) (float64, bool) {
	switch v := x.(type) {
	case float64:
		return v, true
	case float32:
		return float64(v), true
	case int:
		return float64(v), true
	case int64:
		return float64(v), true
	case int32:
		return float64(v), true
	case uint64:
		return float64(v), true
	case uint:
		return float64(v), true
	}
	return 0, false
}

// Checking.

// Leaf is one value at the end of a dotted path: a number, string, bool
// or null, or an empty map or list.
type Leaf struct {
	Path  string
	Value any
}

// Leaves returns every leaf of v (decoded JSON) with the dotted path that
// leads to it, in order (map keys sorted, list elements by index), so
// that Lookup(v, leaf.Path) is exactly leaf.Value. A map key that a path
// cannot name (empty, or holding '.', '[' or ']', or "*") is skipped with
// everything under it. A v that is itself a leaf has the empty path.
func Leaves(v any) []Leaf {
	var out []Leaf
	var walk func(prefix string, x any)
	join := func(prefix, seg string) string {
		if prefix == "" {
			return seg
		}
		return prefix + "." + seg
	}
	walk = func(prefix string, x any) {
		switch x := x.(type) {
		case map[string]any:
			if len(x) == 0 {
				out = append(out, Leaf{prefix, x})
			}
			for _, k := range slices.Sorted(maps.Keys(x)) {
				if k == "" || k == "*" || strings.ContainsAny(k, ".[]") {
					continue
				}
				walk(join(prefix, k), x[k])
			}
		case []any:
			if len(x) == 0 {
				out = append(out, Leaf{prefix, x})
			}
			for i, e := range x {
				walk(join(prefix, strconv.Itoa(i)), e)
			}
		default:
			out = append(out, Leaf{prefix, x})
		}
	}
	walk("", v)
	return out
}
