package main

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/internal/testkit/npm"
	"github.com/mcpeval/mcpeval/target"
)

// quickstartStep is one step of docs/quickstart.md: a shell line, or a
// file the reader saves (a yaml block whose first line is "# PATH").
type quickstartStep struct {
	line       int
	cmd        string
	file, body string
}

// quickstartSteps reads the steps of docs/quickstart.md in order.
func quickstartSteps(t *testing.T, path string) []quickstartStep {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var steps []quickstartStep
	sc := bufio.NewScanner(f)
	n, block := 0, ""
	var cur *quickstartStep
	for sc.Scan() {
		n++
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") {
			if block != "" {
				if cur != nil {
					steps = append(steps, *cur)
					cur = nil
				}
				block = ""
				continue
			}
			block = strings.TrimPrefix(trimmed, "```")
			if block == "" {
				block = "text"
			}
			continue
		}
		switch {
		case block == "yaml" && cur == nil:
			name, ok := strings.CutPrefix(trimmed, "# ")
			if !ok {
				t.Fatalf("%s:%d: a yaml block that does not start with # PATH", path, n)
			}
			cur = &quickstartStep{line: n, file: name}
			cur.body = line + "\n"
		case block == "yaml":
			cur.body += line + "\n"
		case block == "sh" && trimmed != "":
			steps = append(steps, quickstartStep{line: n, cmd: stripComment(trimmed)})
		}
	}
	return steps
}

// TestQuickstart runs docs/quickstart.md as a reader would, in a scratch
// folder standing for the clone (its examples/ and the pinned server in
// .ci/npm linked in): every command, in order, each of which must
// succeed; validate must pass the 15-case suite the page builds against
// the live server, and fake:perfect must pass every attempt, its run
// landing in runs/ beside the suite's folder. A command the test does not
// know how to run fails it, so the page cannot gain one that is not run.
func TestQuickstart(t *testing.T) {
	server := npm.Server(t, "server-filesystem")
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	ci, err := os.ReadFile(filepath.Join(root, ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	// server is ROOT/.ci/npm/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js.
	npmDir := filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(server)))))
	os.Mkdir(filepath.Join(dir, ".ci"), 0o755)
	for link, to := range map[string]string{"examples": filepath.Join(root, "examples"), filepath.Join(".ci", "npm"): npmDir} {
		if err := os.Symlink(to, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	t.Setenv("MCPEVAL_OUT_ROOT", "")
	var validated, ran bool
	steps := quickstartSteps(t, filepath.Join(root, "docs", "quickstart.md"))
	for _, s := range steps {
		where := "docs/quickstart.md:" + itoa(s.line)
		if s.file != "" {
			if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(s.file)), []byte(s.body), 0o644); err != nil {
				t.Fatalf("%s: saving %s: %v", where, s.file, err)
			}
			continue
		}
		words, err := target.SplitCommand(s.cmd)
		if err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		switch {
		case words[0] == "git" && words[1] == "clone", s.cmd == "cd mcpeval":
			// The scratch folder stands for the clone.
		case s.cmd == "go install ./cmd/mcpeval":
			// The commands below run mcpeval in process.
		case words[0] == "npm" && words[1] == "install":
			pkg := words[len(words)-1]
			if !strings.Contains(string(ci), pkg) || !strings.HasSuffix(pkg, "@"+npm.Version) {
				t.Errorf("%s: installs %s, which is not the server .ci/run pins", where, pkg)
			}
		case words[0] == "mcpeval":
			var stdout, stderr bytes.Buffer
			code := Main(context.Background(), words[1:], nil, &stdout, &stderr)
			if code != 0 {
				t.Fatalf("%s: %s: exit %d\n%s%s", where, s.cmd, code, stdout.String(), stderr.String())
			}
			out := stdout.String()
			switch words[1] {
			case "validate":
				validated = true
				for _, want := range []string{"15 cases in 6 groups, files ok", "every tool the suite names is listed", "every case's key fits its tools' input schemas"} {
					if !strings.Contains(out, want) {
						t.Errorf("%s: validate does not say %q:\n%s", where, want, out)
					}
				}
			case "run":
				ran = true
				if !strings.Contains(out, "total                         45/45   100%") {
					t.Errorf("%s: fake:perfect does not pass all 45 attempts:\n%s", where, out)
				}
				if !strings.Contains(out, "record: runs/") {
					t.Errorf("%s: the run's record is not in runs/ beside the suite:\n%s", where, out)
				}
			}
		default:
			t.Errorf("%s: %q: a command this test does not run", where, s.cmd)
		}
	}
	if !validated || !ran {
		t.Errorf("docs/quickstart.md: validated %v, ran %v: want both", validated, ran)
	}
	if _, err := os.Stat(filepath.Join(dir, "bakery", "runs")); err == nil {
		t.Error("the run landed inside the suite's folder")
	}
}
