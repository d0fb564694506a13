package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/mcpeval/mcpeval/grade/actions"
	"github.com/mcpeval/mcpeval/internal/redact"
	"github.com/mcpeval/mcpeval/internal/termsafe"
	"github.com/mcpeval/mcpeval/internal/textdist"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/runner"
	"github.com/mcpeval/mcpeval/suite"
	"github.com/mcpeval/mcpeval/target"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const callHelp = `
Usage: mcpeval call TARGET TOOL [JSON] [--json] [--target-header 'NAME: VALUE'] [--target-env KEY=VALUE]
       mcpeval call --suite PATH TOOL [JSON] [--json]

Calls one tool of a live MCP server with the arguments JSON (an object;
default {}) and prints what it returned: the result's text, its
structured content, isError, how long the call took, and every dotted
path into the result with its value: the paths a key's produced:, a
preflight's expect or a fixture's facts can name (docs/suite.md, "Dotted
paths"). No model is involved and nothing is recorded.

TARGET is builtin:NAME, stdio:COMMAND ARGS... (quote it, or give it after
--, then TOOL and JSON come before the --), http(s)://HOST/mcp, or a
server of an mcp.json file (FILE.json#NAME). With --suite, the suite's
target is called, with its headers, environment and oauth: settings.

A result with isError is shown like any other, and the exit status is 0.
Arguments that are not a JSON object, a tool the server does not have
(the message names the nearest), and arguments the server refuses are
exit 2; a server that fails is exit 1. The text and the structured
content are shown up to 32 KiB each and 200 paths; --json prints them
whole, as one object (tool, args, is_error, text, structured,
duration_us, paths). Secrets are replaced as in a record.

Examples:
  mcpeval call builtin:household get_accounts
  mcpeval call builtin:household get_net_worth_history '{"months": 7}'
  mcpeval call builtin:ops get_container '{"container_id": "nope"}' --json
  mcpeval call --suite examples/household-ci get_net_worth
  mcpeval call list_items -- stdio:./bin/my-server --read-only
  mcpeval call https://mcp.example.com/mcp search '{"query": "rent"}' --target-header 'Authorization: Bearer ${MCP_TOKEN}'
`

func init() {
	register(&command{name: "call", summary: "call one tool of a live server by hand and show its result and dotted paths", run: callCmd})
}

// callShown bounds what call prints for people: the text and the
// structured content each, and the number of paths.
const (
	callShownBytes = 32 << 10
	callShownPaths = 200
)

// callResult is one call, as call --json prints it.
type callResult struct {
	Target     string          `json:"target"`
	Tool       string          `json:"tool"`
	Args       json.RawMessage `json:"args"`
	IsError    bool            `json:"is_error"`
	Text       string          `json:"text"`
	Structured json.RawMessage `json:"structured"`
	DurationUS int64           `json:"duration_us"`
	Paths      []callPath      `json:"paths"`
}

// callPath is one leaf of the result with its dotted path.
type callPath struct {
	Path  string `json:"path"`
	Value any    `json:"value"`
}

func callCmd(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "call", callHelp)
	var tf targetFlags
	tf.register(fs.FlagSet)
	suitePath := fs.String("suite", "", "call the target of the suite at `PATH` (then give TOOL [JSON] alone)")
	timeout := fs.Duration("timeout", 60*time.Second, "longest the call may take")
	asJSON := fs.Bool("json", false, "print the call as one JSON object on stdout")
	args, after := splitDashes(args)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	spec := ""
	switch {
	case *suitePath != "" && len(after) > 0:
		return usagef("give --suite or a TARGET after --, not both (see mcpeval help call)")
	case len(after) > 0:
		spec = strings.Join(after, " ")
	case *suitePath == "" && len(pos) > 0:
		spec, pos = pos[0], pos[1:]
	}
	if *suitePath == "" && spec == "" {
		return usagef("want a TARGET and a TOOL: mcpeval call TARGET TOOL [JSON], or --suite PATH TOOL [JSON] (see mcpeval help call)")
	}
	switch {
	case len(pos) == 0:
		return usagef("want the TOOL to call after the target (mcpeval tools lists them; see mcpeval help call)")
	case len(pos) > 2:
		return usagef("want TOOL and at most one JSON object of arguments, not %d arguments (quote the JSON, and a stdio command; see mcpeval help call)", len(pos))
	case *timeout <= 0:
		return usagef("--timeout %s: want a positive duration", *timeout)
	}
	tool, rawArgs := pos[0], "{}"
	if len(pos) == 2 {
		rawArgs = pos[1]
	}
	callArgs, err := objectArgs(rawArgs)
	if err != nil {
		return err
	}
	tcfg, err := callTarget(spec, *suitePath, tf)
	if err != nil {
		return err
	}
	res, err := callTool(ctx, tcfg, tool, callArgs, *timeout)
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(e.stdout, res)
	}
	return writeCall(e.stdout, res)
}

// objectArgs reads a call's arguments: a JSON object, anything else bad
// input.
func objectArgs(s string) (map[string]any, error) {
	var v any
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, usagef("arguments %s: want a JSON object such as '{\"months\": 7}': %v", oneLineText(s), err)
	}
	if dec.More() {
		return nil, usagef("arguments %s: want one JSON object, and there is more after it", oneLineText(s))
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, usagef("arguments %s: want a JSON object such as '{\"months\": 7}', not %s", oneLineText(s), jsonKind(v))
	}
	return m, nil
}

// jsonKind names the kind of a decoded JSON value.
func jsonKind(v any) string {
	switch v.(type) {
	case []any:
		return "an array"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return "an object"
}

// callTarget returns the target call connects to: the spec given, or the
// suite's target, with the target flags applied.
func callTarget(spec, suitePath string, tf targetFlags) (target.Config, error) {
	if suitePath == "" {
		return specTarget(spec, tf)
	}
	s, err := loadSuite(suitePath)
	if err != nil {
		return target.Config{}, err
	}
	return resolveTarget(s, tf.overrides())
}

// callTool connects to the target, checks it has the tool, calls it once
// and returns what it returned, scrubbed as a record is.
func callTool(ctx context.Context, tcfg target.Config, tool string, args map[string]any, timeout time.Duration) (*callResult, error) {
	conn, err := target.Dial(ctx, tcfg)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	tools, err := conn.Tools(ctx)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	if !slices.Contains(names, tool) {
		return nil, unknownTool(tcfg, tool, names)
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	t0 := time.Now()
	out, err := conn.CallTool(cctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	took := time.Since(t0)
	sc := runner.NewScrubber(tcfg)
	if err != nil {
		var we *jsonrpc.Error
		switch {
		case errors.As(err, &we) && (we.Code == jsonrpc.CodeInvalidParams || we.Code == jsonrpc.CodeMethodNotFound):
			return nil, usagef("%s refused the call: %s", tool, sc.Error(we.Message))
		case cctx.Err() == context.DeadlineExceeded && ctx.Err() == nil:
			return nil, fmt.Errorf("tool %s did not answer within %s (--timeout)", tool, timeout)
		}
		return nil, conn.WithStderr(errors.New(sc.Error(fmt.Sprintf("calling tool %s: %v", tool, err))))
	}
	res := &callResult{Target: tcfg.Describe(), Tool: tool, IsError: out.IsError, DurationUS: took.Microseconds(), Paths: []callPath{}}
	res.Text = sc.Text(resultText(out.Content))
	if res.Args, err = scrubbedJSON(args, sc); err != nil {
		return nil, err
	}
	if out.StructuredContent != nil {
		if res.Structured, err = scrubbedJSON(out.StructuredContent, sc); err != nil {
			return nil, fmt.Errorf("reading the structured content of %s: %w", tool, err)
		}
	} else {
		res.Structured = json.RawMessage("null")
	}
	rc := record.Call{Result: res.Text}
	if out.StructuredContent != nil {
		rc.Structured = res.Structured
	}
	for _, l := range suite.Leaves(actions.Returned(rc)) { // the value a key's produced: reads
		res.Paths = append(res.Paths, callPath{l.Path, l.Value})
	}
	return res, nil
}

// unknownTool is the bad input of calling a tool the target does not
// have, naming the nearest of its tools.
func unknownTool(tcfg target.Config, tool string, names []string) error {
	near := nearestNames(tool, names, 3)
	msg := fmt.Sprintf("%s has no tool %s", tcfg.Describe(), tool)
	if len(near) > 0 {
		msg += fmt.Sprintf(": did you mean %s?", strings.Join(near, ", "))
	} else {
		msg += fmt.Sprintf(" (it has %d; mcpeval tools lists them)", len(names))
	}
	return usagef("%s", msg)
}

// nearestNames returns up to n of names close to name (by edit distance,
// or holding it, or held by it, case and separators aside), nearest first.
func nearestNames(name string, names []string, n int) []string {
	type scored struct {
		name string
		d    int
	}
	var near []scored
	lower := squash(name)
	for _, c := range names {
		lc := squash(c)
		d := textdist.Distance(lower, lc)
		if d <= max(2, len([]rune(name))/3) || (len(lower) >= 3 && (strings.Contains(lc, lower) || strings.Contains(lower, lc))) {
			near = append(near, scored{c, d})
		}
	}
	slices.SortStableFunc(near, func(a, b scored) int { return a.d - b.d })
	var out []string
	for i := 0; i < len(near) && i < n; i++ {
		out = append(out, near[i].name)
	}
	return out
}

// squash is a name in lower case without its separators: get_net_worth
// and NetWorth are near.
func squash(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r == '.' || r == ' ' {
			return -1
		}
		return unicode.ToLower(r)
	}, s)
}

// resultText is a result's text as a run records it: its text blocks,
// one per line, and any other block as its JSON.
func resultText(content []mcp.Content) string {
	var b strings.Builder
	for _, c := range content {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		if t, ok := c.(*mcp.TextContent); ok {
			b.WriteString(t.Text)
			continue
		}
		j, _ := json.Marshal(c)
		b.Write(j)
	}
	return b.String()
}

// scrubbedJSON encodes v with every string scrubbed.
func scrubbedJSON(v any, sc runner.Scrubber) (json.RawMessage, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var x any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&x); err != nil {
		return nil, err
	}
	if err := redact.Walk(&x, sc.Text); err != nil {
		return nil, err
	}
	return json.Marshal(x)
}

// writeCall prints a call for people, everything the server wrote made
// safe for a terminal and bounded.
func writeCall(w io.Writer, r *callResult) error {
	fmt.Fprintf(w, "tool      %s\n", termsafe.Line(r.Tool))
	fmt.Fprintf(w, "target    %s\n", termsafe.Line(r.Target))
	fmt.Fprintf(w, "args      %s\n", termsafe.Line(bounded(string(r.Args), 200)))
	fmt.Fprintf(w, "is_error  %t\n", r.IsError)
	fmt.Fprintf(w, "duration  %s\n", time.Duration(r.DurationUS)*time.Microsecond)
	fmt.Fprintf(w, "\ntext (%d bytes):\n", len(r.Text))
	writeIndented(w, bounded(r.Text, callShownBytes))
	if string(r.Structured) == "null" {
		fmt.Fprintln(w, "\nstructured content: none")
	} else {
		var pretty bytes.Buffer
		json.Indent(&pretty, r.Structured, "", "  ")
		fmt.Fprintln(w, "\nstructured content:")
		writeIndented(w, bounded(pretty.String(), callShownBytes))
	}
	from := "the structured content"
	if string(r.Structured) == "null" {
		from = "the text read as JSON"
		if len(r.Paths) == 1 && r.Paths[0].Path == "" {
			from = "the text itself"
		}
	}
	fmt.Fprintf(w, "\npaths (%d, into %s; a key's produced: or a preflight's expect can name them):\n", len(r.Paths), from)
	for i, p := range r.Paths {
		if i == callShownPaths {
			fmt.Fprintf(w, "  ... %d more (--json lists them all)\n", len(r.Paths)-i)
			break
		}
		path := p.Path
		if path == "" {
			path = "(the empty path: the result itself)"
		}
		v, _ := json.Marshal(p.Value)
		fmt.Fprintf(w, "  %s = %s\n", termsafe.Line(path), termsafe.Line(bounded(string(v), 200)))
	}
	return nil
}

// writeIndented writes s made safe for a terminal, each line indented.
func writeIndented(w io.Writer, s string) {
	if s == "" {
		fmt.Fprintln(w, "  (empty)")
		return
	}
	for _, line := range strings.Split(termsafe.String(s), "\n") {
		fmt.Fprintf(w, "  %s\n", strings.TrimRight(line, " \t"))
	}
}

// bounded returns s cut to at most n bytes (runes kept whole), saying
// how much was left out.
func bounded(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + fmt.Sprintf("… [%d more bytes; --json shows all]", len(s)-cut)
}
