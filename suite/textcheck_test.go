package suite

import (
	"strings"
	"testing"
	"testing/fstest"
)

// TestTextCheckLoadErrors: a preflight or verify check that checks
// nothing, or whose pattern is not a regular expression, is refused when
// the suite is loaded, at its file and line.
func TestTextCheckLoadErrors(t *testing.T) {
	const tail = "cases:\n  - id: g/a\n    prompt: p\n    decline: true\n"
	for _, tc := range []struct{ name, yaml, want string }{
		{"a bad pattern", "name: t\npreflight:\n  - tool: read\n    matches: 'total: ([0-9]+'\n" + tail,
			"suite.yaml:3: preflight check 1: matches \"total: ([0-9]+\" is not a regular expression (Go RE2 syntax): error parsing regexp: missing closing ): `total: ([0-9]+`"},
		{"a check of nothing", "name: t\npreflight:\n  - tool: read\n  - tool: read\n    args: {path: a}\n" + tail,
			"suite.yaml:4: preflight check 2 (read) checks nothing: want expect: {PATH: VALUE}, contains: TEXT, matches: REGEXP or figures: [...]"},
		{"a command with args", "name: t\npreflight:\n  - command: [cat, a.csv]\n    args: {x: 1}\n    contains: a\n" + tail,
			"suite.yaml:3: preflight check 1: a command takes no args (put them in the command)"},
		{"neither tool nor command", "name: t\npreflight:\n  - contains: a\n" + tail,
			"suite.yaml:3: preflight check 1 has no tool: want tool (with args) or command"},
		{"a bad figure kind", "name: t\npreflight:\n  - tool: read\n    figures: [{value: 1, kind: amount}]\n" + tail,
			"suite.yaml:3: preflight check 1: figure 1: kind \"amount\": want money, percent or count"},
		{"a bad pattern in verify", "name: t\nallow_writes: true\ncases:\n  - id: write/a\n    prompt: p\n    action:\n      kind: write\n      steps: [{tool: w}]\n      verify:\n        - tool: r\n          matches: '(?P<x'\n",
			"suite.yaml:10: case write/a: verify 1: matches \"(?P<x\" is not a regular expression"},
		{"verify of nothing", "name: t\nallow_writes: true\ncases:\n  - id: write/a\n    prompt: p\n    action:\n      kind: write\n      steps: [{tool: w}]\n      verify:\n        - tool: r\n",
			"suite.yaml:10: case write/a: verify 1 checks nothing: want expect: {PATH: VALUE}, contains: TEXT, matches: REGEXP, figures: [...] or error: true"},
		{"text of a failed call", "name: t\nallow_writes: true\ncases:\n  - id: write/a\n    prompt: p\n    action:\n      kind: write\n      steps: [{tool: w}]\n      verify:\n        - tool: r\n          error: true\n          contains: gone\n",
			"suite.yaml:10: case write/a: verify 1 expects the call to fail: its result has no text to check"},
		{"an unknown fact in contains", "name: t\nallow_writes: true\ncases:\n  - id: write/a\n    prompt: p\n    action:\n      kind: write\n      steps: [{tool: w}]\n      verify:\n        - tool: r\n          contains: [\"{{fact.nope}}\"]\n",
			"suite.yaml:10: case write/a: verify 1 names {{fact.nope}}"},
	} {
		_, err := LoadFS(fstest.MapFS{"suite.yaml": {Data: []byte(tc.yaml)}}, "suite.yaml", "suite.yaml")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v\nwant it to hold %q", tc.name, err, tc.want)
		}
	}
}

// TestTextCheckLoads: contains takes one text or a list, and the pattern
// is compiled once, when loaded.
func TestTextCheckLoads(t *testing.T) {
	y := "name: t\npreflight:\n  - tool: read\n    contains: North\n  - command: [cat, a.csv]\n    contains: [a, b]\n    matches: '^a'\n    figures: [{value: 3, kind: count}]\ncases:\n  - id: g/a\n    prompt: p\n    decline: true\n"
	s, err := LoadFS(fstest.MapFS{"suite.yaml": {Data: []byte(y)}}, "suite.yaml", "suite.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Preflight[0].Contains; len(got) != 1 || got[0] != "North" {
		t.Errorf("contains: North read as %q", got)
	}
	p := s.Preflight[1]
	if len(p.Contains) != 2 || p.re == nil || p.Command[0] != "cat" || len(p.Figures) != 1 {
		t.Errorf("second check read as %+v", p)
	}
}

// TestGivenStandsAlone: a given value is never judged, so it goes with no
// other source, and its templates name only what the fixtures define.
func TestGivenStandsAlone(t *testing.T) {
	y := "name: t\ncases:\n  - id: read/a\n    prompt: p\n    action:\n      kind: read\n      steps:\n        - tool: git_log\n          args:\n            repo_path: {given: /srv/repo, authored: x}\n            ws: {given: \"{{fact.nope}}\"}\n"
	_, err := LoadFS(fstest.MapFS{"suite.yaml": {Data: []byte(y)}}, "suite.yaml", "suite.yaml")
	for _, want := range []string{
		"suite.yaml:8: case read/a: step 1 (git_log): argument repo_path: a given value is never judged, so it goes without fact, literal, produced or authored",
		"suite.yaml:8: case read/a: step 1 (git_log) argument ws names {{fact.nope}}",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v\nwant it to hold %q", err, want)
		}
	}
}
