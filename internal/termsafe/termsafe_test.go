package termsafe

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestString(t *testing.T) {
	for _, tc := range []struct{ in, want, line string }{
		{"plain text", "plain text", "plain text"},
		{"two\nlines\tand a tab", "two\nlines\tand a tab", `two\nlines\tand a tab`},
		{"S$2,394,755 · é ü € 日本 🙂", "S$2,394,755 · é ü € 日本 🙂", "S$2,394,755 · é ü € 日本 🙂"},
		{"\x1b[2J\x1b[Hcleared", `\x1b[2J\x1b[Hcleared`, `\x1b[2J\x1b[Hcleared`},
		{"\x1b]0;owned\x07title", `\x1b]0;owned\atitle`, `\x1b]0;owned\atitle`},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`, `\x1b[31mred\x1b[0m`},
		{"done\rfake", `done\rfake`, `done\rfake`},
		{"nul\x00bs\bdel\x7f", `nul\x00bs\bdel\x7f`, `nul\x00bs\bdel\x7f`},
		{"c1 csi \u009b31m and nel \u0085", `c1 csi \u009b31m and nel \u0085`, `c1 csi \u009b31m and nel \u0085`},
		{"bad \xff\xfe utf8 \xc3\x28", `bad \xff\xfe utf8 \xc3(`, `bad \xff\xfe utf8 \xc3(`},
		{"pay \u202eSGD 001\u202c now", "pay SGD 001 now", "pay SGD 001 now"},
		{"\u2066iso\u2069 \u200fmark\u200e \u061c", "iso mark ", "iso mark "},
		{"", "", ""},
	} {
		if got := String(tc.in); got != tc.want {
			t.Errorf("String(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if got := Line(tc.in); got != tc.line {
			t.Errorf("Line(%q) = %q, want %q", tc.in, got, tc.line)
		}
	}
}

// unsafe reports what in s a terminal could act on, or "".
func unsafe(s string, oneLine bool) string {
	if !utf8.ValidString(s) {
		return "invalid UTF-8"
	}
	for _, r := range s {
		switch {
		case (r == '\n' || r == '\t') && !oneLine:
		case r < 0x20 || (r >= 0x7f && r <= 0x9f) || bidi(r):
			return string(r)
		}
	}
	return ""
}

// FuzzString checks that whatever goes in, nothing a terminal acts on comes
// out, and that clean text is left alone.
func FuzzString(f *testing.F) {
	f.Add("plain")
	f.Add("\x1b[2J\u009b\u202e\xff\r\n\t")
	f.Fuzz(func(t *testing.T, s string) {
		for _, oneLine := range []bool{false, true} {
			out := render(s, oneLine)
			if bad := unsafe(out, oneLine); bad != "" {
				t.Fatalf("render(%q, %v) = %q still holds %q", s, oneLine, out, bad)
			}
			if unsafe(s, oneLine) == "" && out != s {
				t.Fatalf("render(%q, %v) changed clean text to %q", s, oneLine, out)
			}
		}
	})
}

func BenchmarkStringClean(b *testing.B) {
	s := strings.Repeat("Your net worth is S$2,394,755 — up 3.2% on March. ", 20)
	for b.Loop() {
		String(s)
	}
}
