package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/mcpeval/mcpeval/internal/audit"
	"github.com/mcpeval/mcpeval/internal/termsafe"
	"github.com/mcpeval/mcpeval/target"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const toolsHelp = `
Usage: mcpeval tools TARGET [--json] [--target-header 'NAME: VALUE'] [--target-env KEY=VALUE]

Connects to a live MCP server and lists every tool it offers: its
annotations (the readOnly, destructive, idempotent and openWorld hints,
marked * where the server states none and the MCP default applies), its
description, and every argument of its input schema with its type and
whether it is required. No suite is needed and no tool is called.

TARGET is builtin:NAME, stdio:COMMAND ARGS... (quote it, or give it after
--), or http(s)://HOST/mcp. A stdio server's stderr is not shown.

Examples:
  mcpeval tools builtin:household
  mcpeval tools builtin:ops --json
  mcpeval tools 'stdio:./bin/my-server --read-only'
  mcpeval tools -- stdio:./bin/my-server --read-only
  mcpeval tools https://mcp.example.com/mcp --target-header 'Authorization: Bearer ${MCP_TOKEN}'
`

func init() {
	register(&command{name: "tools", summary: "list a live server's tools, annotations and arguments (no suite needed)", run: toolsCmd})
}

// toolListing is what a live server offers, as tools --json prints it and
// init writes it down.
type toolListing struct {
	Target string       `json:"target"`
	Server serverInfo   `json:"server"`
	Tools  []listedTool `json:"tools"`
}

type serverInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// listedTool is one tool of a listing.
type listedTool struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	// Hints are the tool's behaviour hints, with the MCP defaults filled
	// in where the server states none.
	Hints hints `json:"hints"`
	// Annotations are the annotations as the server sent them.
	Annotations *mcp.ToolAnnotations `json:"annotations,omitempty"`
	InputSchema json.RawMessage      `json:"input_schema,omitempty"`
	// Arguments are the input schema's leaf arguments, named as coverage
	// names them.
	Arguments []audit.Argument `json:"arguments"`
}

// hints are a tool's behaviour hints; Stated says which the server gave.
type hints struct {
	ReadOnly    bool `json:"read_only"`
	Destructive bool `json:"destructive"`
	Idempotent  bool `json:"idempotent"`
	OpenWorld   bool `json:"open_world"`
	// Stated lists the hints the server states (read_only, destructive,
	// idempotent, open_world); the others are the MCP defaults.
	Stated []string `json:"stated"`
}

// hintsOf returns a tool's hints as the MCP specification reads its
// annotations: not read-only, destructive (unless read-only), not
// idempotent and open-world unless stated otherwise.
func hintsOf(a *mcp.ToolAnnotations) hints {
	h := hints{Destructive: true, OpenWorld: true, Stated: []string{}}
	if a == nil {
		return h
	}
	// A false readOnlyHint or idempotentHint reads the same as none (the
	// default is false): with annotations, both count as stated.
	h.ReadOnly, h.Idempotent = a.ReadOnlyHint, a.IdempotentHint
	h.Stated = append(h.Stated, "read_only")
	if h.ReadOnly { // destructiveHint means nothing on a read-only tool
		h.Destructive = false
		h.Stated = append(h.Stated, "destructive")
	} else if a.DestructiveHint != nil {
		h.Destructive = *a.DestructiveHint && !h.ReadOnly
		h.Stated = append(h.Stated, "destructive")
	}
	h.Stated = append(h.Stated, "idempotent")
	if a.OpenWorldHint != nil {
		h.OpenWorld = *a.OpenWorldHint
		h.Stated = append(h.Stated, "open_world")
	}
	return h
}

// cells returns the read-only, destructive, idempotent and open-world
// hints as a listing shows them, yes or no, each with mark after it where
// the server did not state it (the MCP default); defaulted says whether
// any was marked.
func (h hints) cells(mark string) (cells [4]string, defaulted bool) {
	for i, c := range []struct {
		name string
		v    bool
	}{{"read_only", h.ReadOnly}, {"destructive", h.Destructive}, {"idempotent", h.Idempotent}, {"open_world", h.OpenWorld}} {
		cells[i] = "no"
		if c.v {
			cells[i] = "yes"
		}
		if !h.stated(c.name) {
			cells[i] += mark
			defaulted = true
		}
	}
	return cells, defaulted
}

func (h hints) stated(name string) bool {
	for _, s := range h.Stated {
		if s == name {
			return true
		}
	}
	return false
}

// writes reports whether the tool may change the server's state.
func (t listedTool) writes() bool { return !t.Hints.ReadOnly }

func toolsCmd(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "tools", toolsHelp)
	var tf targetFlags
	tf.register(fs.FlagSet)
	asJSON := fs.Bool("json", false, "print the listing as JSON on stdout")
	args, after := splitDashes(args)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	spec, err := targetArg(append(pos, after...), "tools")
	if err != nil {
		return err
	}
	l, err := listTools(ctx, spec, tf)
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(e.stdout, l)
	}
	return writeListing(e.stdout, l)
}

// splitDashes splits args at the first "--": what follows is a target's
// command line, not mcpeval's flags.
func splitDashes(args []string) (before, after []string) {
	for i, a := range args {
		if a == "--" {
			return args[:i], args[i+1:]
		}
	}
	return args, nil
}

// targetArg reads a command's TARGET argument: one spec, or a stdio
// command given unquoted after --.
func targetArg(pos []string, cmd string) (string, error) {
	switch {
	case len(pos) == 0:
		return "", usagef("want a TARGET: builtin:NAME, stdio:COMMAND ARGS... or http(s)://HOST/mcp (see mcpeval help %s)", cmd)
	case len(pos) > 1 && strings.HasPrefix(pos[0], "stdio:"):
		return strings.Join(pos, " "), nil
	case len(pos) > 1:
		return "", usagef("want one TARGET, not %d arguments (quote a stdio command, or give it after --; see mcpeval help %s)", len(pos), cmd)
	}
	return pos[0], nil
}

// listTools connects to the target spec and lists its tools, as a run
// would see them. It calls no tool.
func listTools(ctx context.Context, spec string, tf targetFlags) (*toolListing, error) {
	tcfg, err := specTarget(spec, tf)
	if err != nil {
		return nil, err
	}
	conn, err := target.Dial(ctx, tcfg)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	l := &toolListing{Target: tcfg.Describe(), Tools: []listedTool{}}
	if init := conn.Session.InitializeResult(); init != nil && init.ServerInfo != nil {
		l.Server = serverInfo{Name: init.ServerInfo.Name, Version: init.ServerInfo.Version}
	}
	tools, err := conn.Tools(ctx)
	if err != nil {
		return nil, err
	}
	for _, t := range tools {
		schema, err := json.Marshal(t.InputSchema)
		if err != nil {
			return nil, fmt.Errorf("reading the input schema of tool %s: %w", termsafe.Line(t.Name), err)
		}
		lt := listedTool{Name: t.Name, Title: t.Title, Description: t.Description, Annotations: t.Annotations,
			Hints: hintsOf(t.Annotations), InputSchema: schema, Arguments: audit.Arguments(schema)}
		if lt.Title == "" && t.Annotations != nil {
			lt.Title = t.Annotations.Title
		}
		if lt.Arguments == nil {
			lt.Arguments = []audit.Argument{}
		}
		l.Tools = append(l.Tools, lt)
	}
	return l, nil
}

// writeListing prints a listing for people: a table of the tools and
// their hints, then each tool's description and arguments. Everything the
// server wrote is made safe for a terminal.
func writeListing(w io.Writer, l *toolListing) error {
	fmt.Fprintf(w, "target %s\n\n", targetLine(l.Target, l.Server.Name, l.Server.Version, len(l.Tools)))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TOOL\tREAD-ONLY\tDESTRUCTIVE\tIDEMPOTENT\tOPEN-WORLD\tARGUMENTS")
	defaulted := false
	for _, t := range l.Tools {
		c, d := t.Hints.cells("*")
		defaulted = defaulted || d
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\n", termsafe.Line(t.Name), c[0], c[1], c[2], c[3], len(t.Arguments))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if defaulted {
		fmt.Fprintln(w, "* not stated by the server: the MCP default")
	}
	for _, t := range l.Tools {
		fmt.Fprintf(w, "\n%s", termsafe.Line(t.Name))
		if t.Title != "" {
			fmt.Fprintf(w, " (%s)", termsafe.Line(t.Title))
		}
		fmt.Fprintln(w)
		if d := strings.TrimSpace(t.Description); d != "" {
			for _, line := range strings.Split(termsafe.String(d), "\n") {
				fmt.Fprintf(w, "  %s\n", strings.TrimRight(line, " \t"))
			}
		}
		if len(t.Arguments) == 0 {
			fmt.Fprintln(w, "  arguments: none")
			continue
		}
		fmt.Fprintln(w, "  arguments:")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, a := range t.Arguments {
			typ, req := argumentText(a)
			fmt.Fprintf(tw, "    %s\t%s\t%s\t%s\n", termsafe.Line(a.Path), termsafe.Line(typ), req, termsafe.Line(oneLineText(a.Description)))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	return nil
}

// targetLine describes a server as tools heads its listing and validate
// reports each server: "SPEC (NAME VERSION): N tools", made safe for a
// terminal.
func targetLine(spec, name, version string, tools int) string {
	return fmt.Sprintf("%s (%s %s): %d tools", termsafe.Line(spec), termsafe.Line(name), termsafe.Line(version), tools)
}

// argumentText returns how an argument is listed: its type ("any" when
// the schema gives none) with its enum values, and whether it is required.
func argumentText(a audit.Argument) (typ, req string) {
	req = "optional"
	if a.Required {
		req = "required"
	}
	typ = a.Type
	if typ == "" {
		typ = "any"
	}
	if len(a.Enum) > 0 {
		typ += " " + enumText(a.Enum)
	}
	return typ, req
}

// enumText writes an enum's values as "(one of a, b, c)".
func enumText(vals []any) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = fmt.Sprint(v)
	}
	return "(one of " + strings.Join(parts, ", ") + ")"
}

// oneLineText joins text's lines and spaces into one line.
func oneLineText(s string) string { return strings.Join(strings.Fields(s), " ") }
