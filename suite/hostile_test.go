package suite

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
)

// laughs returns a YAML mapping, indented by indent, whose last key expands
// to 10^levels strings if aliases are expanded blindly ("billion laughs").
func laughs(indent string, levels int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%sl0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n", indent)
	for i := 1; i <= levels; i++ {
		refs := strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*l%d, ", i-1), 10), ", ")
		fmt.Fprintf(&b, "%sl%d: &l%d [%s]\n", indent, i, i, refs)
	}
	return b.String()
}

// located matches an error line that names the file and a line: file:line:
// or file:line:col:.
var located = regexp.MustCompile(`^suite\.yaml:\d+(:\d+)?: `)

// TestHostileSuites feeds the loader malformed and malicious suites: each
// must give a located error, promptly and without a panic.
func TestHostileSuites(t *testing.T) {
	toolCall := "name: x\ncases:\n  - id: a/b\n    mode: tool-call\n    prompt: p\n    expect_tools: [t]\n"
	for _, tc := range []struct {
		name, body string
		want       string
	}{
		{"billion laughs", toolCall + "    expect_args:\n" + laughs("      ", 9), "excessive aliasing"},
		{"alias cycle", toolCall + "    expect_args: &c {a: *c}\n", "anchor 'c' value contains itself"},
		{"alias to a case", "name: x\ncases:\n  - &c {id: a/b, prompt: p, decline: true}\n  - *c\n", "case a/b: duplicate id"},
		{"undefined alias", "name: x\ncases:\n  - id: a/b\n    prompt: *nowhere\n    decline: true\n", "unknown anchor 'nowhere'"},
		{"cases not a list", "name: x\ncases: {id: a/b}\n", "suite.yaml:2:"},
		{"case not a mapping", "name: x\ncases:\n  - just a string\n", "suite.yaml:3:"},
		{"prompt a list", "name: x\ncases:\n  - id: a/b\n    prompt: [p]\n    decline: true\n", "suite.yaml:4:"},
		{"figure value a string", "name: x\ncases:\n  - id: a/b\n    prompt: p\n    figures: [{value: lots}]\n", "suite.yaml:5:"},
		{"attempts huge", "name: x\nattempts: 99999999999999999999999\n", "suite.yaml:2:"},
		{"negative attempts", "name: x\nattempts: -3\ncases:\n  - id: a/b\n    prompt: p\n    decline: true\n", "suite.yaml:2: attempts is -3"},
		{"name a mapping", "name: {a: b}\n", "suite.yaml:1:"},
		{"top level a list", "- a\n- b\n", "suite.yaml:1:"},
		{"top level a scalar", "just text\n", "suite.yaml:1:"},
		{"tab indentation", "name: x\ncases:\n\t- id: a/b\n", "suite.yaml:"},
		{"NUL byte", "name: x\x00\n", "suite.yaml:1:8: control characters are not allowed"},
		{"invalid UTF-8 in a prompt", "name: x\ncases:\n  - id: a/b\n    prompt: caf\xe9\n    decline: true\n", "suite.yaml:4: not valid UTF-8"},
		{"UTF-16", "\xff\xfen\x00a\x00m\x00e\x00", "suite.yaml:1: not valid UTF-8"},
		{"two documents", "# a comment\n---\nname: x\n---\nname: y\n", "suite.yaml:4:1: expected single document"},
		{"missing id", "name: x\ncases:\n  - prompt: p\n    decline: true\n", "suite.yaml:3: a case has no id"},
		{"deep nesting", "name: x\ncases:\n  - id: a/b\n    prompt: p\n    mode: tool-call\n    expect_tools: [t]\n    expect_args: {a: " + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + "}\n", "suite.yaml:"},
		{"enormous file", "name: x\ndescription: " + strings.Repeat("x", MaxFileSize) + "\n", "more than the"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadFS(fstest.MapFS{"suite.yaml": {Data: []byte(tc.body)}}, "suite.yaml", "suite.yaml")
			wantLoadError(t, err, tc.want)
			checkLocated(t, err, tc.name == "enormous file")
		})
	}
}

// checkLocated checks that every line of err names the file, and a line
// unless whole says the problem is the whole file.
func checkLocated(t *testing.T, err error, whole bool) {
	t.Helper()
	for _, l := range strings.Split(err.Error(), "\n") {
		if whole {
			if !strings.HasPrefix(l, "suite.yaml: ") {
				t.Errorf("error line %q does not name the file", l)
			}
			continue
		}
		if !located.MatchString(l) {
			t.Errorf("error line %q is not of the form suite.yaml:LINE: message", l)
		}
	}
}

// TestHostileCaseFile checks that a bad further case file of a suite
// directory is located in that file.
func TestHostileCaseFile(t *testing.T) {
	fsys := fstest.MapFS{
		"s/suite.yaml": {Data: []byte("name: x\n")},
		"s/a.yaml":     {Data: []byte("cases:\n  - id: a/b\n    prompt: p\n    decline: true\n")},
		"s/b.yaml":     {Data: []byte("cases:\n" + "  - id: c/d\n    prompt: q\n    decline: true\n    stuff: " + "*nope\n")},
	}
	_, err := LoadFS(fsys, "s", "s")
	if err == nil || !strings.Contains(err.Error(), "s/b.yaml:5:") {
		t.Fatalf("err %v, want one located in s/b.yaml", err)
	}
}
