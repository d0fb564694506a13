package htmlreport

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// Visible returns page with every character that acts on the text around
// it instead of showing shown as an escape a reader can see: the bidi
// embeddings, overrides, isolates and marks (U+202A to U+202E, U+2066 to
// U+2069, U+200E, U+200F, U+061C) as \u202e, the C1 controls as \u009b,
// and the C0 controls but tab, newline and carriage return, and DEL, as
// \x1b. Escaping markup is the template's work; this is the rest, done
// once on the whole page, since the pages' own markup, style and script
// hold none of these characters, only text from a record or a server
// can. A page with none is returned as it is.
func Visible(page []byte) []byte {
	first := firstInvisible(page)
	if first < 0 {
		return page
	}
	var b bytes.Buffer
	b.Grow(len(page) + 64)
	b.Write(page[:first])
	for i := first; i < len(page); {
		r, size := utf8.DecodeRune(page[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteByte(page[i])
		case invisibleRune(r) && r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		case invisibleRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.Write(page[i : i+size])
		}
		i += max(size, 1)
	}
	return b.Bytes()
}

// firstInvisible is the index in page of the first character Visible
// escapes, or -1.
func firstInvisible(page []byte) int {
	for i := 0; i < len(page); {
		if c := page[i]; c < utf8.RuneSelf {
			if invisibleRune(rune(c)) {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(page[i:])
		if invisibleRune(r) {
			return i
		}
		i += size
	}
	return -1
}

// invisibleRune reports whether r is a character Visible escapes.
func invisibleRune(r rune) bool {
	switch {
	case r == '\t', r == '\n', r == '\r':
		return false
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	}
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f || r == 0x061c
}
