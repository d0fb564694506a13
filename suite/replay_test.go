package suite

import (
	"strings"
	"testing"
)

// TestReplayRules checks that the replay: ignore rules load, and that a
// bad one is reported at its own line.
func TestReplayRules(t *testing.T) {
	const base = "name: r\ntarget: builtin:household\nreplay:\n  ignore:\n    - $.generated_at\n    - \"regex:\\\\d+ms\"\n"
	const cases = "cases:\n  - id: g/a\n    prompt: p\n    answer: {contains: [x]}\n"
	s, err := loadString(base + cases)
	if err != nil {
		t.Fatal(err)
	}
	rules, err := s.ReplayRules()
	if err != nil || len(rules) != 2 || strings.Join(rules[0].Path, ".") != "generated_at" || rules[1].Regexp.String() != `\d+ms` {
		t.Fatalf("ReplayRules = %+v, %v", rules, err)
	}
	for _, tt := range []struct{ rule, want string }{
		{"generated_at", `s.yaml:7:7: replay: ignore "generated_at": want a path such as $.generated_at, or regex: then a pattern`},
		{`"regex:("`, `s.yaml:7:7: replay: ignore "regex:(": error parsing regexp`},
		{`"regex:x*"`, `s.yaml:7:7: replay: ignore "regex:x*": the pattern matches the empty string`},
		{"$.a..b", `s.yaml:7:7: replay: ignore "$.a..b": an empty key`},
	} {
		_, err := loadString(base + "    - " + tt.rule + "\n" + cases)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("rule %s: error %v, want %q", tt.rule, err, tt.want)
		}
	}
}
