package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
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
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
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
	keepAsCase(t, doc, root, run)
}

// keepAsCase runs the commands of docs/production.md that keep an
// imported conversation as a case: promote drafts it, marked verified:
// false, into a copy of the household suite's folder, and review --verify
// marks it checked there, so that publish's unverified-cases passes.
func keepAsCase(t *testing.T, doc, root string, run func(...string) string) {
	t.Helper()
	const promote = "mcpeval promote runs/imported 'single-tool/net-worth-now#2' --id single-tool/net-worth-rounded --out promoted.yaml\n"
	const verify = "mcpeval review --verify single-tool/net-worth-rounded --suite SUITE_DIR --reviewer NAME\n"
	for _, c := range []string{promote, verify} {
		if !strings.Contains(doc, "```sh\n"+c+"```") {
			t.Fatalf("docs/production.md does not show the command\n%s", c)
		}
	}
	src := filepath.Join(root, "internal", "builtin", "household", "suite")
	files, err := filepath.Glob(filepath.Join(src, "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("the household suite's files: %v", err)
	}
	if err := os.Mkdir("household", 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join("household", filepath.Base(f)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run("promote", "runs/imported", "single-tool/net-worth-now#2", "--id", "single-tool/net-worth-rounded", "--out", "household/promoted.yaml")
	draft, _ := os.ReadFile("household/promoted.yaml")
	if !strings.Contains(string(draft), "\n    verified: false\n") {
		t.Fatalf("the promoted conversation is not marked verified: false:\n%s", draft)
	}
	out := run("review", "--verify", "single-tool/net-worth-rounded", "--suite", "household", "--reviewer", "Ana Lim")
	if !strings.HasPrefix(out, "verified single-tool/net-worth-rounded in household/promoted.yaml:") {
		t.Errorf("review --verify prints %q", out)
	}
	after, _ := os.ReadFile("household/promoted.yaml")
	before := strings.Replace(string(draft), "\n    verified: false\n", "\n    verified: true\n    verified_by: \"Ana Lim\"\n", 1)
	if got := regexp.MustCompile(`    verified_at: "[0-9T:Z-]+"\n`).ReplaceAllString(string(after), ""); got != before {
		t.Errorf("after review --verify the draft reads\n%s\nwant only the verified lines changed from\n%s", after, draft)
	}
	var c struct{ Cases, Verified int }
	if err := json.Unmarshal([]byte(run("corpus", "household", "--json")), &c); err != nil || c.Cases < 2 || c.Verified != c.Cases {
		t.Errorf("corpus after verifying: %d of %d cases checked (%v), want all", c.Verified, c.Cases, err)
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
