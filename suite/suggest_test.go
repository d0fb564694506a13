package suite

import (
	"strings"
	"testing"
)

// TestUnknownFieldSuggests: an unknown field close to a known one (a typo,
// a missing plural) names the known one; one close to none names none, and
// the message keeps its file:line.
func TestUnknownFieldSuggests(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       string
	}{
		{"plural", "name: x\ncases:\n  - id: a/b\n    prompt: p\n    decline: true\n    figure: []\n",
			`suite.yaml:6:5: unknown field "figure" in a case: did you mean "figures"?`},
		{"typo", "name: x\natempts: 3\n", `suite.yaml:2:1: unknown field "atempts" in the suite settings: did you mean "attempts"?`},
		{"inside a figure", "name: x\ncases:\n  - id: a/b\n    prompt: p\n    figures: [{valu: 1}]\n", `did you mean "value"?`},
		{"answer", "name: x\ncases:\n  - id: a/b\n    prompt: p\n    answer: {contain: [x]}\n", `suite.yaml:5:`},
		{"answer suggestion", "name: x\ncases:\n  - id: a/b\n    prompt: p\n    answer: {contain: [x]}\n", `did you mean "contains"?`},
		{"step", "name: x\nallow_writes: true\ncases:\n  - id: w/a\n    prompt: p\n    action:\n      kind: write\n      steps:\n        - {tool: a, optinal: true}\n", `did you mean "optional"?`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(write(t, t.TempDir(), "suite.yaml", tc.body))
			wantLoadError(t, err, tc.want)
		})
	}
	_, err := Load(write(t, t.TempDir(), "suite.yaml", "name: x\nbanana: 3\n"))
	if err == nil || strings.Contains(err.Error(), "did you mean") {
		t.Errorf("a field close to none: %v, want an error with no suggestion", err)
	}
}

func TestClosest(t *testing.T) {
	known := []string{"figures", "attempts", "id", "prompt", "tools", "answer"}
	for name, want := range map[string]string{
		"figure": "figures", "figurs": "figures", "atempts": "attempts", "Prompt": "prompt",
		"tool": "tools", "ansewr": "answer", "banana": "", "x": "", "ids": "id",
	} {
		if got := closest(name, known); got != want {
			t.Errorf("closest(%q) = %q, want %q", name, got, want)
		}
	}
}
