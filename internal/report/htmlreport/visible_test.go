package htmlreport

import (
	"strings"
	"testing"
)

// TestVisible: the characters that act on text instead of showing are
// escaped where a reader sees them; everything else, tabs, newlines,
// ordinary non-ASCII text and a stray byte that is not UTF-8, is left.
func TestVisible(t *testing.T) {
	for in, want := range map[string]string{
		"<p>plain, café, 日本, 🙂\tand\r\nlines</p>": "<p>plain, café, 日本, 🙂\tand\r\nlines</p>",
		"evil\u202etxt.exe":                `evil\u202etxt.exe`,
		"\u2066x\u2069 \u200e\u200f\u061c": `\u2066x\u2069 \u200e\u200f\u061c`,
		"\x1b[2J\x1b]52;c;SGVsbG8=\x07":    `\x1b[2J\x1b]52;c;SGVsbG8=\x07`,
		"c1 \u009b31m del \x7f nul \x00":   `c1 \u009b31m del \x7f nul \x00`,
		"bad \xff byte \u202e":             "bad \xff byte \\u202e",
	} {
		if got := string(Visible([]byte(in))); got != want {
			t.Errorf("Visible(%q) = %q, want %q", in, got, want)
		}
	}
	clean := []byte("<html>" + strings.Repeat("text ", 100) + "</html>")
	if got := Visible(clean); &got[0] != &clean[0] {
		t.Error("a page with nothing to escape is copied")
	}
}
