package script

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

var locatedLine = regexp.MustCompile(`^f\.yaml:\d+(:\d+)?: `)

// TestHostileScripts feeds Parse malformed and malicious scripts: each must
// give errors that all name the file and a line, without a panic.
func TestHostileScripts(t *testing.T) {
	var laughs strings.Builder
	laughs.WriteString("a/b:\n  - call: t\n    args:\n      l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&laughs, "      l%d: &l%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*l%d, ", i-1), 10), ", "))
	}
	for _, tc := range []struct{ name, body, want string }{
		{"billion laughs", laughs.String(), "excessive aliasing"},
		{"alias cycle", "a/b:\n  - call: t\n    args: &c {a: *c}\n", "contains itself"},
		{"NUL byte", "a/b:\n  - say: x\x00\n", "f.yaml:2:11: control characters"},
		{"two documents", "a/b: []\n---\nc/d: []\n", "f.yaml:2:1: yaml: expected single document"},
		{"not UTF-8", "a/b:\n  - say: caf\xe9\n", "f.yaml:2: not valid UTF-8"},
		{"UTF-16", "\xff\xfea\x00/\x00b\x00", "f.yaml:1: not valid UTF-8"},
		{"a list", "- a\n- b\n", "f.yaml:1:1: want a mapping"},
		{"turns a mapping", "a/b: {say: x}\n", "f.yaml:1:6: case a/b: want a list"},
		{"newline in a key", "\"a\\nb\": x\n", "f.yaml:1:"},
		{"newline in a value", "a/b:\n  - call: \"x\\ny\"\n    args: \"\\n\"\n    bad: 1\n", "f.yaml:2:"},
		{"enormous", "a/b:\n  - say: " + strings.Repeat("x", MaxSize) + "\n", "more than the"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.body), "f.yaml")
			if err == nil {
				t.Fatal("parsed, want an error")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error\n%v\ndoes not contain %q", err, tc.want)
			}
			if tc.name == "enormous" {
				return
			}
			for _, l := range strings.Split(err.Error(), "\n") {
				if !locatedLine.MatchString(l) {
					t.Errorf("error line %q does not name the file and a line", l)
				}
			}
		})
	}
}
