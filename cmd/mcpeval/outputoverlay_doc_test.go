package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/target"
)

// TestOutputOverlayDoc runs docs/ci.md's "Output overlays" section: each
// yaml block is written to the file its first comment names, the commands
// run in order, and every line of its output block must be printed.
func TestOutputOverlayDoc(t *testing.T) {
	b, err := os.ReadFile("../../docs/ci.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(b), "\n## Output overlays\n")
	if !ok {
		t.Fatal("docs/ci.md has no Output overlays section")
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	dir := t.TempDir()
	files := map[string]string{}
	var cmds, shown []string
	for i, block := range strings.Split(sec, "```") {
		if i%2 == 0 {
			continue
		}
		lang, body, _ := strings.Cut(block, "\n")
		switch lang {
		case "yaml":
			first, _, _ := strings.Cut(body, "\n")
			name, _, _ := strings.Cut(strings.TrimPrefix(first, "# "), ":")
			files[name] = body
		case "sh":
			cmds = append(cmds, strings.Split(strings.TrimRight(body, "\n"), "\n")...)
		case "":
			shown = append(shown, strings.Split(strings.TrimRight(body, "\n"), "\n")...)
		}
	}
	if len(files) != 2 || len(cmds) != 3 || len(shown) < 2 {
		t.Fatalf("found %d files, %d commands and %d output lines: the section's blocks changed", len(files), len(cmds), len(shown))
	}
	t.Chdir(dir)
	for name, body := range files {
		if err := os.WriteFile(name, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
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
