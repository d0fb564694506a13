package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/internal/audit"
	"github.com/mcpeval/mcpeval/suite"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestInitEscapesServerText writes a suite and inventory for a server
// whose names and descriptions try to break out of a YAML comment, a
// Markdown table and a terminal: the suite still loads as written, and the
// inventory's tables keep their shape.
func TestInitEscapesServerText(t *testing.T) {
	destructive := true
	l := &toolListing{Target: "stdio:evil", Server: serverInfo{Name: "evil\nname: pwned", Version: "1|2"}, Tools: []listedTool{{
		Name:        "write_it\nallow_writes: true",
		Description: "Writes. <script>alert(1)</script> | `x` [link](http://e.test) \x1b[31mred\u202e",
		Annotations: &mcp.ToolAnnotations{DestructiveHint: &destructive},
		Arguments:   []audit.Argument{{Path: "pa|th\n", Type: "str|ing", Description: "a\nb | c <b>"}},
	}}}
	l.Tools[0].Hints = hintsOf(l.Tools[0].Annotations)
	text, _ := suiteSkeleton(l, "builtin:household", ".", nil, nil)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "suite.yaml"), []byte(text), 0o644)
	s, err := suite.Load(filepath.Join(dir, "suite.yaml"))
	if err != nil {
		t.Fatalf("the skeleton does not load: %v\n%s", err, text)
	}
	if s.AllowWrites || s.Name != "evil-name-pwned" || s.Target.Spec != "builtin:household" {
		t.Errorf("server text changed the suite: allow_writes %v, name %q, target %q\n%s", s.AllowWrites, s.Name, s.Target.Spec, text)
	}

	md := inventory(l)
	for _, bad := range []string{"<script>", "\x1b", "\u202e", "](http"} {
		if strings.Contains(md, bad) {
			t.Errorf("the inventory holds %q:\n%s", bad, md)
		}
	}
	for _, line := range strings.Split(md, "\n") {
		if !strings.HasPrefix(line, "|") {
			continue
		}
		cells := strings.Count(strings.ReplaceAll(line, `\|`, ""), "|")
		if want := 9; strings.Contains(line, "Read-only") || strings.Contains(line, "| yes") || strings.Contains(line, "| no") {
			if cells != want && !strings.Contains(line, "Argument") {
				t.Errorf("a tool row has %d cell borders, want %d: %s", cells, want, line)
			}
		}
	}
	if !strings.Contains(md, "| `write_it allow_writes: true` | `pa\\|th ` | str\\|ing | optional | a b \\| c &lt;b&gt; | |") {
		t.Errorf("the argument row is not escaped as expected:\n%s", md)
	}
}
