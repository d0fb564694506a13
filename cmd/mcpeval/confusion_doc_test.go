package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/target"
)

// TestToolConfusionDoc runs the commands of docs/ci.md's "Tool confusion"
// section in order and checks that every line of its output blocks is
// what they print.
func TestToolConfusionDoc(t *testing.T) {
	b, err := os.ReadFile("../../docs/ci.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(b), "\n## Tool confusion\n")
	if !ok {
		t.Fatal("docs/ci.md has no Tool confusion section")
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	var cmds, shown []string
	for i, block := range strings.Split(sec, "```") {
		if i%2 == 0 {
			continue
		}
		lang, body, _ := strings.Cut(block, "\n")
		for _, l := range strings.Split(strings.TrimRight(body, "\n"), "\n") {
			switch lang {
			case "sh":
				cmds = append(cmds, l)
			case "":
				shown = append(shown, l)
			}
		}
	}
	if len(cmds) < 4 || len(shown) < 6 {
		t.Fatalf("found %d commands and %d output lines: the section's blocks changed", len(cmds), len(shown))
	}
	t.Chdir(t.TempDir())
	var out bytes.Buffer
	for _, c := range cmds {
		words, err := target.SplitCommand(c)
		if err != nil || words[0] != "mcpeval" {
			t.Fatalf("%q: %v", c, err)
		}
		var stderr bytes.Buffer
		if code := Main(context.Background(), words[1:], nil, &out, &stderr); code != 0 {
			t.Fatalf("%s: exit %d\n%s", c, code, stderr.String())
		}
	}
	for _, l := range shown {
		if !strings.Contains(out.String(), l+"\n") {
			t.Errorf("docs/ci.md shows a line the commands do not print:\n%s\n\nthey print:\n%s", l, out.String())
		}
	}
}
