package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/internal/testkit/npm"
)

// filesystemWithPreflight copies examples/filesystem, pointed at the
// installed server, with checks put first under its preflight.
func filesystemWithPreflight(t *testing.T, checks string) string {
	t.Helper()
	entry := npm.Server(t, "server-filesystem")
	dir := filepath.Join(t.TempDir(), "filesystem")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "examples", "filesystem"))); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "suite.yaml")
	text, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	const installed = "../../.ci/npm/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"
	text = bytes.Replace(text, []byte(installed), []byte(entry), 1)
	text = bytes.Replace(text, []byte("\npreflight:\n"), []byte("\npreflight:\n"+checks), 1)
	if err := os.WriteFile(p, text, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestFilesystemPreflightText: on the reference filesystem server, whose
// results are text, a preflight checks what a file's text contains, a
// pattern it matches and the figures it states, and a command's output;
// validate passes when they hold and, when one does not, exits 3 naming
// the check, what it expected and what the server returned.
func TestFilesystemPreflightText(t *testing.T) {
	const holds = `  - tool: read_text_file
    args: {path: sales/2026-q3.csv}
    contains: ["North,1204,36120", "West,612,18360"]
    matches: '(?m)^East,\d+,\d+$'
    figures: [{value: 36120, label: North revenue}, {value: 845, kind: count}]
  - tool: get_file_info
    args: {path: sales/2026-q3.csv}
    matches: 'size: \d+'
  - command: [cat, data/sales/2026-q2.csv]
    figures: [{value: 33000}]
`
	dir := filesystemWithPreflight(t, holds)
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"validate", dir}, nil, &out, &errb); code != 0 || !strings.Contains(out.String(), "preflight: 5 checks hold") {
		t.Errorf("validate: exit %d\n%s%s", code, out.String(), errb.String())
	}
	const drifted = `  - tool: read_text_file
    args: {path: sales/2026-q3.csv}
    contains: "North,1300,39000"
    figures: [{value: 37000, label: North revenue}]
`
	dir = filesystemWithPreflight(t, drifted)
	out.Reset()
	errb.Reset()
	code := Main(context.Background(), []string{"validate", dir}, nil, &out, &errb)
	written, err := os.ReadFile(filepath.Join(dir, "suite.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	line := 0
	for i, l := range strings.Split(string(written), "\n") {
		if l == "  - tool: read_text_file" {
			line = i + 1
			break
		}
	}
	for _, want := range []string{
		"preflight read_text_file: check 1 (line " + itoa(line) + `): contains "North,1300,39000": not in the text, which reads "region,units,revenue_eur North,1204,36120 South,845,25350 East,990,29700 West,612,18360"`,
		"preflight read_text_file: check 1 (line " + itoa(line) + `): figure 37,000 (exactly) for North revenue: not in the text, which reads "region,units`,
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("validate's output lacks %q:\n%s", want, out.String())
		}
	}
	if code != 3 || !strings.Contains(errb.String(), "preflight: 2 problems") {
		t.Errorf("validate of a drifted folder: exit %d, want 3\n%s", code, errb.String())
	}
}
