package record

import (
	"fmt"
	"unicode/utf8"
)

// escapeJSON rewrites as \uXXXX escapes the characters encoding/json
// leaves raw but a terminal acts on: DEL, the C1 controls (U+0080 to
// U+009F, among them the one-byte CSI) and the bidirectional overrides and
// isolates. In JSON these can only stand inside strings, so the result
// decodes to the same value; the record stays plain to read with cat or
// less.
func escapeJSON(b []byte) []byte {
	clean := true
	for i := 0; i < len(b); i++ {
		if c := b[i]; c == 0x7f || c == 0xc2 || c == 0xd8 || c == 0xe2 {
			clean = false
			break
		}
	}
	if clean {
		return b
	}
	out := make([]byte, 0, len(b)+32)
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if escapeInRecord(r) && size > 0 && !(r == utf8.RuneError && size == 1) {
			out = fmt.Appendf(out, `\u%04x`, r)
		} else {
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	return out
}

func escapeInRecord(r rune) bool {
	switch {
	case r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
		return true
	}
	return false
}
