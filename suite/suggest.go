package suite

import (
	"reflect"
	"strings"
	"sync"

	"github.com/mcpeval/mcpeval/internal/textdist"
)

// knownFields maps the name a YAML error gives a suite type (suite.Case)
// to the fields a suite file may write in it; it is built once from the
// types a suite file reaches.
var knownFields = sync.OnceValue(func() map[string][]string {
	m := map[string][]string{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct {
			return
		}
		if _, seen := m[t.String()]; seen {
			return
		}
		m[t.String()] = fieldNames(t)
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() || f.Anonymous {
				walk(f.Type)
			}
		}
	}
	for _, t := range []any{fileHead{}, caseFile{}} {
		walk(reflect.TypeOf(t))
	}
	return m
})

// fieldNames returns the field names a YAML document may use for struct
// type t, those of inlined structs included.
func fieldNames(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		if strings.Contains(","+opts+",", ",inline,") {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				out = append(out, fieldNames(ft)...)
			}
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		out = append(out, name)
	}
	return out
}

// didYouMean returns ": did you mean "x"?" when an unknown field name is
// close to a field x of the suite type typ (as a YAML error names it), or
// of fallback when typ is not one a suite file reaches; otherwise "".
func didYouMean(name, typ string, fallback reflect.Type) string {
	known, ok := knownFields()[typ]
	if !ok && fallback != nil {
		known = fieldNames(fallback)
	}
	if c := closest(name, known); c != "" {
		return ": did you mean " + quote(c) + "?"
	}
	return ""
}

func quote(s string) string { return `"` + s + `"` }

// closest returns the known name nearest to name when it is near enough to
// be a slip (a typo, a missing plural, another case): within one edit for
// a name of up to four letters, within two for a longer one; otherwise "".
func closest(name string, known []string) string {
	limit := 2
	if len([]rune(name)) <= 4 {
		limit = 1
	}
	best, bestD := "", limit+1
	for _, k := range known {
		if d := textdist.Distance(strings.ToLower(name), k); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}
