package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	iofs "io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/mcpeval/mcpeval/internal/report"
	"github.com/mcpeval/mcpeval/internal/termsafe"
)

const initHelp = `
Usage: mcpeval init TARGET [DIR] [--target-header 'NAME: VALUE'] [--target-env KEY=VALUE]
       mcpeval init [DIR] -- stdio:COMMAND ARGS...

Starts a suite for a live MCP server. It connects to TARGET, lists its
tools, and writes two files into DIR (default: the current directory):

  suite.yaml    the suite's settings: its name and target, a system prompt
                to replace, the attempts and turn cap, every tolerance
                written out, an empty preflight to fill, and allow_writes
                false with the tools that may write kept from the model
                (tools.exclude), so that read cases run as they are
  inventory.md  every tool and argument the server offers, with its type,
                whether it is required, and the tool's annotations: the
                list mcpeval coverage checks the cases against

It writes no prompts and no cases: cases come from what the server's users
ask, not from the tools' descriptions. It never overwrites a file (exit 2).
A header or environment value given without a ${VAR} reference is written
as one (${MCPEVAL_...}), never as the secret itself.

Examples:
  mcpeval init builtin:household my-suite
  mcpeval init 'stdio:./bin/my-server --read-only' my-suite
  mcpeval init my-suite -- stdio:./bin/my-server --read-only
  mcpeval init https://mcp.example.com/mcp my-suite --target-header 'Authorization: Bearer ${MCP_TOKEN}'
`

func init() {
	register(&command{name: "init", summary: "start a suite for a live server: suite.yaml and its tool inventory", run: initCmd})
}

func initCmd(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "init", initHelp)
	var tf targetFlags // with its own words: init writes them into the suite
	fs.Var(&tf.headers, "target-header", "send `NAME: VALUE` to an HTTP target, and write it into the suite as a ${VAR} reference; repeatable")
	fs.Var(&tf.envs, "target-env", "set `KEY=VALUE` for a stdio target, and write it into the suite as a ${VAR} reference; repeatable")
	tf.timeout.register(fs.FlagSet)
	args, after := splitDashes(args)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	var spec, dir string
	if len(after) > 0 {
		if len(pos) > 1 {
			return usagef("want at most one DIR before -- (see mcpeval help init)")
		}
		spec = strings.Join(after, " ")
		if len(pos) == 1 {
			dir = pos[0]
		}
	} else {
		switch len(pos) {
		case 0:
			return usagef("want a TARGET: builtin:NAME, stdio:COMMAND ARGS... or http(s)://HOST/mcp (see mcpeval help init)")
		case 1:
			spec = pos[0]
		case 2:
			spec, dir = pos[0], pos[1]
		default:
			return usagef("want TARGET and at most one DIR, not %d arguments (quote a stdio command, or give it after --; see mcpeval help init)", len(pos))
		}
	}
	if dir == "" {
		dir = "."
	}
	suitePath, invPath := filepath.Join(dir, "suite.yaml"), filepath.Join(dir, "inventory.md")
	for _, p := range []string{suitePath, invPath} {
		if _, err := os.Lstat(p); err == nil {
			return usagef("%s exists: init starts a new suite and never overwrites a file (choose another DIR)", p)
		} else if !errors.Is(err, iofs.ErrNotExist) {
			return fmt.Errorf("checking %s: %w", p, err)
		}
	}
	l, err := listTools(ctx, spec, tf)
	if err != nil {
		return err
	}
	suiteText, notes := suiteSkeleton(l, spec, dir, tf.headers, tf.envs)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("making %s: %w", dir, err)
	}
	if err := writeNew(suitePath, suiteText); err != nil {
		return err
	}
	if err := writeNew(invPath, inventory(l)); err != nil {
		return err
	}
	writes := writeTools(l)
	nargs := 0
	for _, t := range l.Tools {
		nargs += len(t.Arguments)
	}
	fmt.Fprintf(e.stdout, "wrote %s and %s: %d tools (%d may write), %d arguments\n", suitePath, invPath, len(l.Tools), len(writes), nargs)
	for _, n := range notes {
		fmt.Fprintf(e.stdout, "note: %s\n", termsafe.Line(n))
	}
	fmt.Fprintf(e.stdout, `next:
  1. replace the system prompt in %[1]s with the one your product uses
  2. write cases from what your users ask, under cases: (docs/suite.md)
  3. fill preflight: with the figures the cases depend on
  4. mcpeval validate %[2]s
  5. mcpeval coverage %[2]s
`, suitePath, dir)
	return nil
}

// writeNew writes a file that must not exist yet.
func writeNew(path, text string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		if errors.Is(err, iofs.ErrExist) {
			return usagef("%s exists: init starts a new suite and never overwrites a file (choose another DIR)", path)
		}
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return f.Close()
}

// writeTools names the tools that may change the server's state: those
// not annotated read-only.
func writeTools(l *toolListing) []string {
	var names []string
	for _, t := range l.Tools {
		if t.writes() {
			names = append(names, t.Name)
		}
	}
	return names
}

// yamlString writes s as a YAML scalar that reads back as s whatever it
// holds: a JSON string is a YAML double-quoted scalar.
func yamlString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// commentText makes server-provided text safe inside a YAML comment: one
// line, nothing a terminal acts on.
func commentText(s string) string { return termsafe.Line(s) }

var notNameChar = regexp.MustCompile(`[^a-z0-9]+`)

// suiteName makes a suite name from the server's name.
func suiteName(server string) string {
	n := strings.Trim(notNameChar.ReplaceAllString(strings.ToLower(server), "-"), "-")
	if n == "" {
		return "my-server"
	}
	return n
}

// suiteSkeleton writes suite.yaml for the listing. Header and environment
// values become ${VAR} references; notes say which were replaced.
func suiteSkeleton(l *toolListing, spec, dir string, headers, envs []string) (string, []string) {
	var b strings.Builder
	var notes []string
	server := strings.TrimSpace(l.Server.Name + " " + l.Server.Version)
	if server == "" {
		server = "the server"
	}
	fmt.Fprintf(&b, "# A suite for %s, started by mcpeval init from its live tool list.\n", commentText(server))
	b.WriteString("# Cases come from what the server's users ask, not from the tools'\n")
	b.WriteString("# descriptions: write them under cases: (see docs/suite.md), then run\n")
	fmt.Fprintf(&b, "#   mcpeval validate %s\n", commentText(dir))
	b.WriteString("# inventory.md beside this file lists every tool and argument to cover.\n")
	fmt.Fprintf(&b, "name: %s\n", yamlString(suiteName(l.Server.Name)))

	refs := func(kvs []string, sep, what, prefix string) map[string]string {
		out := map[string]string{}
		for _, kv := range kvs {
			k, v, _ := strings.Cut(kv, sep)
			k, v = strings.TrimSpace(k), strings.TrimSpace(v)
			if !strings.Contains(v, "${") {
				ref := prefix + strings.ToUpper(strings.Trim(notNameChar.ReplaceAllString(strings.ToLower(k), "_"), "_"))
				notes = append(notes, fmt.Sprintf("the %s %s was written as ${%s}, not as the value given: set %s in the environment before a run", what, k, ref, ref))
				v = "${" + ref + "}"
			}
			out[k] = v
		}
		return out
	}
	h := refs(headers, ":", "header", "MCPEVAL_HEADER_")
	env := refs(envs, "=", "environment variable", "MCPEVAL_ENV_")
	rel := ""
	if strings.HasPrefix(spec, "stdio:") {
		if abs, err := filepath.Abs(dir); err == nil {
			if wd, err := os.Getwd(); err == nil {
				if r, err := filepath.Rel(abs, wd); err == nil && r != "." {
					rel = r // the command was given from here: run it from here
				}
			}
		}
	}
	if len(h) == 0 && len(env) == 0 && rel == "" {
		fmt.Fprintf(&b, "target: %s\n", yamlString(spec))
	} else {
		b.WriteString("target:\n")
		fmt.Fprintf(&b, "  spec: %s\n", yamlString(spec))
		if rel != "" {
			fmt.Fprintf(&b, "  dir: %s   # the stdio command runs from here, relative to this file\n", yamlString(filepath.ToSlash(rel)))
		}
		for _, m := range []struct {
			key  string
			vals map[string]string
		}{{"headers", h}, {"env", env}} {
			if len(m.vals) == 0 {
				continue
			}
			fmt.Fprintf(&b, "  %s:\n", m.key)
			keys := slices.Sorted(maps.Keys(m.vals))
			for _, k := range keys {
				fmt.Fprintf(&b, "    %s: %s\n", yamlString(k), yamlString(m.vals[k]))
			}
		}
	}
	fmt.Fprintf(&b, `
# Replace: the system prompt your product sends with these tools. It is
# sent, unchanged, with every attempt.
system_prompt: %s

# Each case is asked this many times; a model's pass rate needs several.
attempts: 3
# The most model turns one attempt may take.
turn_cap: 8

# How close a figure in an answer must be to the key. They apply to
# figures of their kind only (kind: money, kind: percent); a count is
# exact, and a figure with no kind and no tolerance of its own is exact.
tolerances:
  money: "1%%"
  percent: "0.1"

# Fill: read-only tool calls made once before anything is asked, with
# the figures the cases depend on. When the data drifted, the run is
# marked invalid and nothing is graded. For example:
#   - tool: get_total
#     args: {}
#     expect: {total: 42}
preflight: []

`, yamlString(fmt.Sprintf("You help the user with %s, using its tools. Answer from what the tools return.", suiteName(l.Server.Name))))
	writes := writeTools(l)
	if len(writes) == 0 {
		b.WriteString("# The server annotates every tool read-only.\n")
		b.WriteString("allow_writes: false\n")
	} else {
		fmt.Fprintf(&b, "# false: a run never lets the model write. The server lists %d tools\n", len(writes))
		b.WriteString("# not annotated read-only, which may write; tools.exclude keeps them from\n")
		b.WriteString("# the model, so read cases run without them. For action cases (write,\n")
		b.WriteString("# sequence, destructive, decline) set allow_writes: true, take the tools\n")
		b.WriteString("# they need off the list, and give fixtures, verify and cleanup: see\n")
		b.WriteString("# docs/suite.md.\n")
		b.WriteString("allow_writes: false\ntools:\n  exclude:\n")
		for _, n := range writes {
			fmt.Fprintf(&b, "    - %s\n", yamlString(n))
		}
	}
	b.WriteString("\ncases: []\n")
	return b.String(), notes
}

// inventory writes the tool and argument inventory as Markdown, every
// server-provided text escaped.
func inventory(l *toolListing) string {
	var b strings.Builder
	server := strings.TrimSpace(l.Server.Name + " " + l.Server.Version)
	fmt.Fprintf(&b, "# Tool inventory: %s\n\n", report.EscapeMarkdown(server))
	fmt.Fprintf(&b, "Every tool and argument `%s` offers, as `mcpeval init` listed them. Run\n", report.MarkdownCode(l.Target))
	b.WriteString("`mcpeval coverage` on the suite to fill in the Cases columns: each tool and\n")
	b.WriteString("argument needs a case, or an entry under `actions.uncovered` in suite.yaml\n")
	b.WriteString("with the reason it is left out. Hints marked * are not stated by the server\n")
	b.WriteString("(the MCP default applies).\n\n")
	b.WriteString("## Tools\n\n")
	b.WriteString("| Tool | Read-only | Destructive | Idempotent | Open-world | Arguments | Description | Cases |\n")
	b.WriteString("| --- | --- | --- | --- | --- | --- | --- | --- |\n")
	for _, t := range l.Tools {
		c, _ := t.Hints.cells("\\*")
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %d | %s | |\n", report.MarkdownCode(t.Name),
			c[0], c[1], c[2], c[3],
			len(t.Arguments), report.EscapeMarkdown(oneLineText(firstSentence(t.Description))))
	}
	b.WriteString("\n## Arguments\n\n")
	b.WriteString("| Tool | Argument | Type | Required | Description | Cases |\n")
	b.WriteString("| --- | --- | --- | --- | --- | --- |\n")
	for _, t := range l.Tools {
		if len(t.Arguments) == 0 {
			fmt.Fprintf(&b, "| `%s` | (none) | | | | |\n", report.MarkdownCode(t.Name))
			continue
		}
		for _, a := range t.Arguments {
			typ, req := argumentText(a)
			fmt.Fprintf(&b, "| `%s` | `%s` | %s | %s | %s | |\n", report.MarkdownCode(t.Name), report.MarkdownCode(a.Path), report.EscapeMarkdown(typ), req, report.EscapeMarkdown(oneLineText(a.Description)))
		}
	}
	return b.String()
}

// firstSentence returns a description's first sentence, for a table.
func firstSentence(s string) string {
	s = oneLineText(s)
	if i := strings.Index(s, ". "); i >= 0 {
		return s[:i+1]
	}
	return s
}
