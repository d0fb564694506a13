package format

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Bounds of IndentJSON: a value nested deeper than MaxIndentDepth, or
// whose indented form would be larger than MaxIndentGrowth times its own
// size plus MaxIndentSlack bytes, is shown as it came.
const (
	MaxIndentDepth  = 32
	MaxIndentGrowth = 4
	MaxIndentSlack  = 4 << 10
)

// IndentJSON indents s, two spaces a level, when it is a JSON object or
// array, and returns it as it is otherwise. It is bounded: a value nested
// deeper than MaxIndentDepth, or whose indented form would outgrow
// MaxIndentGrowth times s plus MaxIndentSlack bytes, is returned as it is,
// so that a tool result built to explode (a 20 KB array nested 10,000
// deep would indent to 200 MB) costs no more than its own size.
func IndentJSON(s string) string {
	t := strings.TrimSpace(s)
	if t == "" || (t[0] != '{' && t[0] != '[') {
		return s
	}
	// Bounded first, validated after: json.Valid's own stack grows with
	// the depth it is given.
	out, ok := indent(t, MaxIndentGrowth*len(t)+MaxIndentSlack)
	if !ok || !json.Valid([]byte(t)) {
		return s
	}
	return out
}

// indent indents t as json.Indent indents valid JSON, giving up (false)
// when it nests deeper than MaxIndentDepth, the output passes limit bytes
// or a string or bracket is left open. It does not check that t is valid.
func indent(t string, limit int) (string, bool) {
	var b bytes.Buffer
	depth := 0
	newline := func() {
		b.WriteByte('\n')
		for range depth {
			b.WriteString("  ")
		}
	}
	for i := 0; i < len(t); i++ {
		if b.Len() > limit {
			return "", false
		}
		c := t[i]
		switch c {
		case ' ', '\t', '\n', '\r':
		case '"':
			j := i + 1
			for ; j < len(t) && t[j] != '"'; j++ {
				if t[j] == '\\' {
					j++
				}
			}
			if j >= len(t) {
				return "", false
			}
			b.WriteString(t[i : j+1])
			i = j
		case '{', '[':
			b.WriteByte(c)
			if k := nextSignificant(t, i+1); k < len(t) && (t[k] == '}' || t[k] == ']') {
				b.WriteByte(t[k])
				i = k
				continue
			}
			if depth++; depth > MaxIndentDepth {
				return "", false
			}
			newline()
		case '}', ']':
			depth--
			newline()
			b.WriteByte(c)
		case ',':
			b.WriteByte(c)
			newline()
		case ':':
			b.WriteString(": ")
		default:
			b.WriteByte(c)
		}
	}
	if b.Len() > limit {
		return "", false
	}
	return b.String(), true
}

// nextSignificant is the index of the first byte of t at or after i that
// is not JSON whitespace.
func nextSignificant(t string, i int) int {
	for i < len(t) && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r') {
		i++
	}
	return i
}
