package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/target"
)

// docSection is one "## heading" section of a page under docs/: the yaml
// blocks named by their first comment ("# name.yaml: ..."), the lines of
// its sh blocks and of its plain (output) blocks.
type docSection struct {
	page        string
	files       map[string]string
	cmds, shown []string
}

// readDocSection reads the section of docs/PAGE under "## heading".
func readDocSection(t *testing.T, page, heading string) docSection {
	t.Helper()
	b, err := os.ReadFile("../../docs/" + page)
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(b), "\n## "+heading+"\n")
	if !ok {
		t.Fatalf("docs/%s has no %s section", page, heading)
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	d := docSection{page: page, files: map[string]string{}}
	for i, block := range strings.Split(sec, "```") {
		if i%2 == 0 {
			continue
		}
		lang, body, _ := strings.Cut(block, "\n")
		lines := strings.Split(strings.TrimRight(body, "\n"), "\n")
		switch lang {
		case "yaml":
			first, _, _ := strings.Cut(body, "\n")
			name, _, _ := strings.Cut(strings.TrimPrefix(first, "# "), ":")
			d.files[name] = body
		case "sh":
			d.cmds = append(d.cmds, lines...)
		case "":
			d.shown = append(d.shown, lines...)
		}
	}
	return d
}

// run writes the section's files in a fresh directory, runs its commands
// there in order, and checks every line of its output blocks is printed.
func (d docSection) run(t *testing.T) {
	t.Helper()
	t.Chdir(t.TempDir())
	for name, body := range d.files {
		if err := os.WriteFile(name, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	for _, c := range d.cmds {
		words, err := target.SplitCommand(c)
		if err != nil || words[0] != "mcpeval" {
			t.Fatalf("%q: %v", c, err)
		}
		var stderr bytes.Buffer
		if code := Main(context.Background(), words[1:], nil, &out, &stderr); code != 0 {
			t.Fatalf("%s: exit %d\n%s", c, code, stderr.String())
		}
	}
	for _, l := range d.shown {
		if !strings.Contains(out.String(), l+"\n") {
			t.Errorf("docs/%s shows a line the commands do not print:\n%s\n\nthey print:\n%s", d.page, l, out.String())
		}
	}
}
