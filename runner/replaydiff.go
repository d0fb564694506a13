package runner

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// ResultDiff returns a unified diff of two results of one call, the
// recorded one first, after the rules have left out what they ignore; ""
// when they are the same. It compares isError, a protocol rejection, the
// text (as indented JSON when it is JSON) and the structured content.
func ResultDiff(recorded, got record.Call, rules []suite.ReplayRule) string {
	a, b := resultLines(recorded, rules), resultLines(got, rules)
	if a == b {
		return ""
	}
	return unified("recorded", a, "replay", b)
}

// resultLines writes what a replay compares of a call, one field after
// another, with the rules applied.
func resultLines(c record.Call, rules []suite.ReplayRule) string {
	var w strings.Builder
	fmt.Fprintf(&w, "is_error: %t\n", c.IsError)
	if c.Rejected != "" {
		fmt.Fprintf(&w, "rejected: %s\n", ignoreText(c.Rejected, rules))
	}
	w.WriteString("text:\n")
	w.WriteString(ignoredJSONOr(c.Result, rules))
	if len(c.Structured) > 0 {
		w.WriteString("structured:\n")
		w.WriteString(ignoredJSONOr(string(c.Structured), rules))
	}
	return w.String()
}

// ignoredJSONOr returns s indented with the rules applied to its values
// when it is JSON, else s with the rules' patterns replaced; either way
// ending in a newline.
func ignoredJSONOr(s string, rules []suite.ReplayRule) string {
	var v any
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	if t := strings.TrimSpace(s); (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")) && dec.Decode(&v) == nil && !dec.More() {
		for _, r := range rules {
			if r.Path != nil {
				v = dropPath(v, r.Path)
			}
		}
		v = ignoreStrings(v, rules)
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if enc.Encode(v) == nil {
			return b.String()
		}
	}
	s = ignoreText(s, rules)
	if !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return s
}

// ignoreText replaces every match of the rules' patterns in s.
func ignoreText(s string, rules []suite.ReplayRule) string {
	for _, r := range rules {
		if r.Regexp != nil {
			s = r.Regexp.ReplaceAllLiteralString(s, "<ignored>")
		}
	}
	return s
}

// ignoreStrings applies the rules' patterns to every string in v.
func ignoreStrings(v any, rules []suite.ReplayRule) any {
	switch x := v.(type) {
	case string:
		return ignoreText(x, rules)
	case map[string]any:
		for k, e := range x {
			x[k] = ignoreStrings(e, rules)
		}
	case []any:
		for i, e := range x {
			x[i] = ignoreStrings(e, rules)
		}
	}
	return v
}

// dropPath leaves out of v the values at path: "*" is every key or
// element, a number an element.
func dropPath(v any, path []string) any {
	key, rest := path[0], path[1:]
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if key != "*" && k != key {
				continue
			}
			if len(rest) == 0 {
				delete(x, k)
			} else {
				x[k] = dropPath(e, rest)
			}
		}
	case []any:
		n, err := strconv.Atoi(key)
		var kept []any
		for i, e := range x {
			switch {
			case key != "*" && (err != nil || i != n):
				kept = append(kept, e)
			case len(rest) > 0:
				kept = append(kept, dropPath(e, rest))
			}
		}
		if kept == nil {
			kept = []any{}
		}
		return kept
	}
	return v
}

// unified returns a unified diff of a and b, by lines, with three lines
// of context; a line too many to compare line by line (over four million
// pairs) makes it one hunk replacing everything.
func unified(aName, a, bName, b string) string {
	al, bl := splitLines(a), splitLines(b)
	ops := lineOps(al, bl)
	var w strings.Builder
	fmt.Fprintf(&w, "--- %s\n+++ %s\n", aName, bName)
	const ctx = 3
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		start := max(0, i-ctx)
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run-end > 2*ctx || run == len(ops) {
				end = min(end+ctx, len(ops))
				break
			}
			end = run
		}
		as, bs, an, bn := ops[start].a, ops[start].b, 0, 0
		for _, o := range ops[start:end] {
			if o.kind != '+' {
				an++
			}
			if o.kind != '-' {
				bn++
			}
		}
		fmt.Fprintf(&w, "@@ -%d,%d +%d,%d @@\n", as+1, an, bs+1, bn)
		for _, o := range ops[start:end] {
			w.WriteByte(o.kind)
			w.WriteString(o.line)
			w.WriteByte('\n')
		}
		i = end
	}
	return w.String()
}

// lineOp is one line of an edit script: kept (' '), removed ('-') or
// added ('+'), with its index in each side.
type lineOp struct {
	kind byte
	line string
	a, b int
}

// lineOps returns the shortest edit script from a to b (a longest common
// subsequence of lines).
func lineOps(a, b []string) []lineOp {
	var ops []lineOp
	if len(a)*len(b) > 4_000_000 {
		for i, l := range a {
			ops = append(ops, lineOp{'-', l, i, 0})
		}
		for j, l := range b {
			ops = append(ops, lineOp{'+', l, len(a), j})
		}
		return ops
	}
	lcs := make([][]int32, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int32, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			ops = append(ops, lineOp{' ', a[i], i, j})
			i, j = i+1, j+1
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, lineOp{'-', a[i], i, j})
			i++
		default:
			ops = append(ops, lineOp{'+', b[j], i, j})
			j++
		}
	}
	return ops
}

func splitLines(s string) []string {
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}
