package termsafe

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// String returns s made safe to print on a terminal: newlines and tabs are
// kept; every other C0 control, DEL and each C1 control is written as an
// escape (\x1b, \r, \x7f, \u009b); a byte that is not UTF-8 is written as
// \xNN; bidirectional overrides, embeddings, isolates and marks are
// dropped. Text with none of these is returned as it is.
func String(s string) string { return render(s, false) }

// Line is String for text shown on one line (a table cell, a progress
// line): newlines and tabs are escaped as well.
func Line(s string) string { return render(s, true) }

func render(s string, oneLine bool) string {
	if clean(s, oneLine) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case bidi(r):
			// dropped
		case r == '\n' && !oneLine, r == '\t' && !oneLine:
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			b.WriteString(c0(r))
		case r >= 0x80 && r <= 0x9f:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// clean reports whether s needs no change.
func clean(s string, oneLine bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c == 0x7f || (c < 0x20 && (oneLine || (c != '\n' && c != '\t'))) {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || bidi(r) || (r >= 0x80 && r <= 0x9f) {
			return false
		}
		i += size
	}
	return true
}

func c0(r rune) string {
	switch r {
	case '\a':
		return `\a`
	case '\b':
		return `\b`
	case '\t':
		return `\t`
	case '\n':
		return `\n`
	case '\v':
		return `\v`
	case '\f':
		return `\f`
	case '\r':
		return `\r`
	}
	return fmt.Sprintf(`\x%02x`, r)
}

// bidi reports whether r changes the direction text is shown in: the
// embeddings and overrides (U+202A to U+202E), the isolates (U+2066 to
// U+2069) and the marks (U+200E, U+200F, U+061C).
func bidi(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f || r == 0x061c
}
