package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/mcpeval/mcpeval/internal/builtin"
	"github.com/mcpeval/mcpeval/internal/termsafe"
	"github.com/mcpeval/mcpeval/runner"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const validateHelp = `
Usage: mcpeval validate [SUITE] [--target SPEC] [--offline]

Checks a suite: its files (every problem with file:line), then, against its
target's live tool list, that every tool it names exists, that a read-only
suite is shown only read-only tools, and that the preflight figures hold.
SUITE is a path or an embedded suite name (default: household).
`

const serveHelp = `
Usage: mcpeval serve-target NAME [--writable] [--http ADDR]

Serves an embedded target so that any MCP client (the MCP Inspector, a
desktop assistant, another mcpeval) can use it: over stdio by default, or
over streamable HTTP at http://ADDR/mcp with --http. It serves the
read-only user unless --writable is given.
`

func init() {
	register(&command{name: "validate", summary: "check a suite, and against its target's live tools", run: validateCmd})
	register(&command{name: "serve-target", summary: "serve an embedded target over stdio or streamable HTTP", run: serveCmd})
}

func validateCmd(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "validate", validateHelp)
	tgt := fs.String("target", "", "target `SPEC` (default: the suite's)")
	offline := fs.Bool("offline", false, "check the files only; do not start the target")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return usagef("want at most one SUITE (see mcpeval help validate)")
	}
	p := ""
	if len(pos) == 1 {
		p = pos[0]
	}
	s, err := loadSuite(p)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "suite %s: %d cases in %d groups, files ok\n", s.Name, len(s.Cases), len(s.Groups()))
	if *offline {
		return nil
	}
	tcfg, err := suiteTarget(s, *tgt)
	if err != nil {
		return err
	}
	ins, err := runner.Validate(ctx, s, tcfg)
	if err != nil {
		return badInput(err)
	}
	fmt.Fprintf(e.stdout, "target %s (%s %s): %d tools, every tool the suite names is listed\n", tcfg.Describe(), termsafe.Line(ins.Server.Name), termsafe.Line(ins.Server.Version), len(ins.Tools))
	bad := 0
	for _, c := range ins.Preflight.Checks {
		for _, pr := range c.Problems {
			fmt.Fprintf(e.stdout, "preflight %s: %s\n", c.Tool, termsafe.Line(pr)) // it quotes the server
			bad++
		}
	}
	if bad > 0 {
		return exitf(exitInvalid, "preflight: %d problems: the target's data is not what the suite expects", bad)
	}
	fmt.Fprintf(e.stdout, "preflight: %d checks hold\n", len(ins.Preflight.Checks))
	return nil
}

func serveCmd(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "serve-target", serveHelp)
	writable := fs.Bool("writable", false, "serve the write tools too")
	addr := fs.String("http", "", "serve streamable HTTP on `ADDR` (e.g. 127.0.0.1:8080) instead of stdio")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("want one target NAME (have %s)", strings.Join(builtin.Names(), ", "))
	}
	server, err := builtin.Server(pos[0], *writable)
	if err != nil {
		return usagef("%v", err)
	}
	if *addr == "" {
		err := server.Run(ctx, &mcp.StdioTransport{})
		if ctx.Err() != nil {
			return nil
		}
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", *addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(e.stderr, "serving %s at http://%s/mcp (Ctrl-C to stop)\n", pos[0], ln.Addr())
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	}()
	if err := srv.Serve(ln); err != nil && err != http.ErrServerClosed {
		return err
	}
	return nil
}
