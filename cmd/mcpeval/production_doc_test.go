package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProductionDoc runs the example of docs/production.md: the spans it
// shows, saved as spans.json, imported by prompt and graded, print what
// the page shows.
func TestProductionDoc(t *testing.T) {
	b, err := os.ReadFile("../../docs/production.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	_, spans, ok := strings.Cut(doc, "```json\n{\"resourceSpans\"")
	if !ok {
		t.Fatal("docs/production.md shows no OTLP/JSON spans")
	}
	spans, _, _ = strings.Cut(spans, "```")
	spans = "{\"resourceSpans\"" + spans
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile(filepath.Join(dir, "spans.json"), []byte(spans), 0o644); err != nil {
		t.Fatal(err)
	}
	const cmds = "```sh\nmcpeval import --otlp spans.json --match prompt --out runs/imported\nmcpeval score runs/imported\n```\n"
	if !strings.Contains(doc, cmds) {
		t.Fatalf("docs/production.md does not show the commands\n%s", cmds)
	}
	// The blocks of output that follow the commands, in order: import's,
	// then parts of score's.
	rest := doc[strings.Index(doc, cmds)+len(cmds):]
	var shown []string
	for range 3 {
		_, after, ok := strings.Cut(rest, "\n```\n")
		if !ok {
			t.Fatal("docs/production.md shows fewer than 3 blocks of output after the commands")
		}
		block, after2, _ := strings.Cut(after, "```")
		shown = append(shown, block)
		rest = after2
	}
	run := func(args ...string) string {
		var out, errb bytes.Buffer
		if code := Main(context.Background(), args, nil, &out, &errb); code != 0 {
			t.Fatalf("mcpeval %s: exit %d\n%s", strings.Join(args, " "), code, errb.String())
		}
		return out.String()
	}
	if got := run("import", "--otlp", "spans.json", "--match", "prompt", "--out", "runs/imported"); got != shown[0] {
		t.Errorf("docs/production.md shows\n%s\nmcpeval import prints\n%s", shown[0], got)
	}
	score := run("score", "runs/imported")
	for _, want := range append(shown[1:], "source  imported traffic", "tools   0 shown") {
		if !strings.Contains(score, want) {
			t.Errorf("mcpeval score prints\n%s\nwhich does not hold what docs/production.md shows\n%s", score, want)
		}
	}
}

// TestProductionDocImportRule runs the example of docs/production.md's
// import rule: its suite saved as traffic/suite.yaml and its attempts as
// traffic.jsonl, imported without --match, print what the page shows.
func TestProductionDocImportRule(t *testing.T) {
	b, err := os.ReadFile("../../docs/production.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(b), "### The suite's import rule\n")
	if !ok {
		t.Fatal("docs/production.md has no section The suite's import rule")
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	block := func(fence string) string {
		t.Helper()
		_, rest, ok := strings.Cut(sec, "\n"+fence+"\n")
		if !ok {
			t.Fatalf("the section shows no %s block", fence)
		}
		body, after, _ := strings.Cut(rest, "```")
		sec = after
		return body
	}
	suiteYAML, traffic, cmd, shown := block("```yaml"), block("```jsonl"), block("```sh"), block("```")
	const want = "mcpeval import --jsonl traffic.jsonl --suite traffic --out runs/traffic\n"
	if cmd != want {
		t.Fatalf("the section shows the command %q, want %q", cmd, want)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.MkdirAll("traffic", 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"traffic/suite.yaml": suiteYAML, "traffic.jsonl": traffic} {
		if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out, errb bytes.Buffer
	if code := Main(context.Background(), strings.Fields(want)[1:], nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d\n%s", code, errb.String())
	}
	if out.String() != shown {
		t.Errorf("docs/production.md shows\n%s\nmcpeval import prints\n%s", shown, out.String())
	}
}
