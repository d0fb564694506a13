package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSeveralServersBadInput exits 2, before any model request, for a
// suite of several servers written wrong: target beside targets, a name
// a tool cannot carry, a bare tool name two servers list, and a server
// that is not one of the targets.
func TestSeveralServersBadInput(t *testing.T) {
	const cases = `cases:
  - id: worth/now
    prompt: What's our net worth?
    tools: {required: [TOOL]}
    key: {calls: [{tool: TOOL}], answer: "It is SGD 2,394,755."}
`
	two := "targets:\n  home: builtin:household\n  office: builtin:household\n"
	for _, tc := range []struct {
		name, head, tool, want string
	}{
		{"both", "target: builtin:household\ntargets:\n  home: builtin:household\n", "get_net_worth", "s.yaml:3: target and targets are both given"},
		{"bad name", "targets:\n  Home: builtin:household\n", "get_net_worth", `s.yaml:3: targets: "Home": a server's name`},
		{"ambiguous", two, "get_net_worth", "s.yaml:6: tool get_net_worth is served by home and office"},
		{"no such server", two, "garage/get_net_worth", "s.yaml:6: tool garage/get_net_worth names server garage"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "s.yaml")
			body := "name: bad\n" + tc.head + strings.ReplaceAll(cases, "TOOL", tc.tool)
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{{"validate", p}, {"run", "--suite", p, "--model", "fake:perfect", "--quiet", "--out", filepath.Join(t.TempDir(), "run")}} {
				var out, errb bytes.Buffer
				if code := Main(context.Background(), args, nil, &out, &errb); code != 2 || !strings.Contains(errb.String()+out.String(), tc.want) {
					t.Errorf("%s: exit %d, stderr %q, want 2 and %q", args[0], code, errb.String(), tc.want)
				}
			}
		})
	}
}
