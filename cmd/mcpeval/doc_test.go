package main

import (
	"bufio"
	"bytes"
	"context"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/target"
)

// A documented command is one line of a shell block in the README or
// docs/, or of a command's help text, that runs mcpeval.
type documented struct {
	where string // file:line, or "help CMD"
	args  []string
	// notRun is set for a block the document marks "<!-- not run: why -->"
	// (it needs a paid model's run, say): its words are checked, no more.
	notRun bool
	// files are the files the document shows before the command, as
	// yaml blocks whose first line is "# NAME": a reader saves them first.
	files map[string]string
}

// docCommands reads the mcpeval command lines of the shell blocks in a
// Markdown file: lines starting "mcpeval " or "go run ./cmd/mcpeval ",
// with "$ " prompts, environment assignments, continuations and trailing
// comments handled as a shell would.
func docCommands(t *testing.T, root, path string) []documented {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []documented
	in, inFile := false, false
	notRun, lastNotRun := false, false
	files := map[string]string{}
	var fileName string
	var fileBody strings.Builder
	var pending string
	pendingLine := 0
	sc := bufio.NewScanner(f)
	n := 0
	add := func(line int, text string) {
		before := len(out)
		out = appendCommand(t, out, root, path, line, text)
		for i := before; i < len(out); i++ {
			out[i].notRun = notRun
			out[i].files = maps.Clone(files)
		}
	}
	for sc.Scan() {
		n++
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		if inFile {
			if strings.HasPrefix(trimmed, "```") {
				files[fileName] = fileBody.String()
				inFile = false
				continue
			}
			fileBody.WriteString(line + "\n")
			continue
		}
		if strings.HasPrefix(trimmed, "```") {
			lang := strings.TrimPrefix(trimmed, "```")
			if !in && lang == "yaml" {
				if sc.Scan() {
					n++
					first := strings.TrimSpace(sc.Text())
					if name, ok := strings.CutPrefix(first, "# "); ok && !strings.ContainsAny(name, " /") && strings.HasSuffix(name, ".yaml") {
						inFile, fileName = true, name
						fileBody.Reset()
						fileBody.WriteString(sc.Text() + "\n")
						continue
					}
				}
				// Not a file: skip to the block's end.
				for sc.Scan() {
					n++
					if strings.HasPrefix(strings.TrimSpace(sc.Text()), "```") {
						break
					}
				}
				continue
			}
			in = !in && (lang == "sh" || lang == "bash" || lang == "console" || lang == "shell")
			notRun = in && lastNotRun
			lastNotRun = false
			continue
		}
		if !in {
			if trimmed != "" {
				lastNotRun = strings.HasPrefix(trimmed, "<!-- not run:")
			}
			continue
		}
		if pending != "" {
			pending += " " + strings.TrimSuffix(trimmed, `\`)
			if !strings.HasSuffix(trimmed, `\`) {
				add(pendingLine, pending)
				pending = ""
			}
			continue
		}
		if strings.HasSuffix(trimmed, `\`) {
			pending, pendingLine = strings.TrimSuffix(trimmed, `\`), n
			continue
		}
		add(n, trimmed)
	}
	return out
}

var envAssign = regexp.MustCompile(`^[A-Z_][A-Z0-9_]*=\S*$`)

func appendCommand(t *testing.T, out []documented, root, path string, n int, line string) []documented {
	line = strings.TrimPrefix(line, "$ ")
	words, err := target.SplitCommand(stripComment(line))
	if err != nil {
		t.Errorf("%s:%d: %v", path, n, err)
		return out
	}
	for len(words) > 0 && envAssign.MatchString(words[0]) {
		words = words[1:]
	}
	switch {
	case len(words) >= 3 && words[0] == "go" && words[1] == "run" && words[2] == "./cmd/mcpeval":
		words = words[3:]
	case len(words) >= 1 && words[0] == "mcpeval":
		words = words[1:]
	default:
		return out
	}
	rel, err := filepath.Rel(root, path)
	if err != nil {
		rel = path
	}
	return append(out, documented{where: rel + ":" + strconv.Itoa(n), args: words})
}

// stripComment drops a trailing "# comment" outside quotes.
func stripComment(s string) string {
	quote := byte(0)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '#' && (i == 0 || s[i-1] == ' '):
			return strings.TrimSpace(s[:i])
		}
	}
	return s
}

// helpCommands reads the example lines ("  mcpeval ...") of every
// command's help text.
func helpCommands(t *testing.T) []documented {
	t.Helper()
	var out []documented
	for _, name := range slices.Sorted(maps.Keys(commands)) {
		var stdout, stderr bytes.Buffer
		Main(context.Background(), []string{"help", name}, nil, &stdout, &stderr)
		text := stdout.String() + stderr.String()
		for _, line := range strings.Split(text, "\n") {
			trimmed := strings.TrimSpace(line)
			if !strings.HasPrefix(trimmed, "mcpeval ") || !strings.HasPrefix(line, "  ") {
				continue
			}
			words, err := target.SplitCommand(stripComment(trimmed))
			if err != nil || len(words) < 2 {
				continue
			}
			out = append(out, documented{where: "mcpeval help " + name, args: words[1:]})
		}
	}
	return out
}

// parseErrors are what a command says when its words are wrong, as
// opposed to when the run, suite or model it names is not there.
var parseErrors = []string{
	"flag provided but not defined",
	"invalid value",
	"unknown command",
	"unexpected argument",
	"bad flag syntax",
	"no --suite was given", // a real model is never put to the demo suite unasked
}

// TestDocumentedCommands runs every mcpeval command shown in the README,
// in docs/ and in the help texts. Each must be a command that exists,
// with flags that exist and values they accept; the ones that need no
// placeholder filled in, no paid model and no long-running server are run
// in order, in one scratch folder per document, and must succeed, as a
// reader copying them would expect.
func TestDocumentedCommands(t *testing.T) {
	// No documented command may reach a paid model from a test: no key
	// is set, and a provider refuses to start without one.
	for _, k := range []string{"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "MCPEVAL_SPEND"} {
		t.Setenv(k, "")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	docs, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	files := append([]string{filepath.Join(root, "README.md")}, docs...)
	byFile := map[string][]documented{}
	var order []string
	for _, f := range files {
		cmds := docCommands(t, root, f)
		if len(cmds) > 0 {
			order = append(order, f)
			byFile[f] = cmds
		}
	}
	byFile["help"] = helpCommands(t)
	order = append(order, "help")
	total, ran := 0, 0
	for _, f := range order {
		dir := t.TempDir()
		// Documents run from the repository's root: its examples are
		// reachable by the same relative paths.
		if err := os.Symlink(filepath.Join(root, "examples"), filepath.Join(dir, "examples")); err != nil {
			t.Fatal(err)
		}
		t.Chdir(dir)
		for _, d := range byFile[f] {
			total++
			for name, body := range d.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var stdout, stderr bytes.Buffer
			if d.notRun || !runnable(d.args) {
				// Only the words are checked: run it with a cancelled
				// context so that nothing starts.
				ctx, cancel := context.WithCancel(context.Background())
				cancel()
				Main(ctx, d.args, nil, &stdout, &stderr)
				for _, p := range parseErrors {
					if strings.Contains(stderr.String(), p) && !placeholderValue(stderr.String()) {
						t.Errorf("%s: mcpeval %s: %s", d.where, strings.Join(d.args, " "), firstLine(stderr.String()))
					}
				}
				continue
			}
			ran++
			code := Main(context.Background(), d.args, nil, &stdout, &stderr)
			if code != 0 {
				t.Errorf("%s: mcpeval %s: exit %d\n%s", d.where, strings.Join(d.args, " "), code, stderr.String())
			}
		}
	}
	t.Logf("%d documented commands checked, %d of them run to the end", total, ran)
	if ran == 0 || total < 20 {
		t.Errorf("only %d documented commands found (%d run): the extraction is broken", total, ran)
	}
}

// placeholder matches a word a reader is meant to replace: RUN, BASE,
// SPEC, "$MODEL", "[--flag]", "runs/shard-*", "...", "my-suite/", a server
// of the reader's own ("stdio:./bin/server", "example.com").
var placeholder = regexp.MustCompile(`^[A-Z][A-Z_]*$|\$|^\[|\.\.\.|\*|^<|^my-|/bin/|example\.com`)

// runnable reports whether a documented command can be run as written in a
// test: no placeholder, no paid model, nothing that serves until stopped.
func runnable(args []string) bool {
	if len(args) == 0 {
		return false
	}
	switch args[0] {
	case "serve-target", "probe", "view":
		return false
	}
	for _, a := range args {
		if placeholder.MatchString(a) || a == "--spend" || strings.Contains(a, "anthropic:") || strings.Contains(a, "openai:") ||
			strings.Contains(a, "stdio:go run") || strings.HasPrefix(a, "http") {
			return false
		}
		if v, ok := strings.CutPrefix(a, "--suite="); ok && placeholder.MatchString(v) {
			return false
		}
	}
	return true
}

// placeholderValue reports whether a flag's value was refused because it
// is a placeholder ("--attempt N"), which is what it should be.
func placeholderValue(msg string) bool {
	m := regexp.MustCompile(`invalid value "([^"]*)"`).FindStringSubmatch(msg)
	return m != nil && placeholder.MatchString(m[1])
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// TestREADMEListsEveryCommand: the README's command list names every
// command mcpeval has, so a new command cannot go unmentioned.
func TestREADMEListsEveryCommand(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, list, ok := strings.Cut(string(b), "## Commands\n")
	if !ok {
		t.Fatal("README.md has no Commands section")
	}
	list, _, _ = strings.Cut(list, "\n## ")
	for name := range commands {
		if !strings.Contains(list, "mcpeval "+name+" ") {
			t.Errorf("README.md's Commands section does not list mcpeval %s", name)
		}
	}
}
