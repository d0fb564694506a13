package faultserver

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpeval/mcpeval/internal/builtin"
	"github.com/mcpeval/mcpeval/internal/builtin/household"
	"github.com/mcpeval/mcpeval/target"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Options are the faults to inject. The zero Options serve the own tools
// faithfully.
type Options struct {
	// Serve names an embedded target to serve instead of the own tools.
	Serve string
	// Fixture is a household fixture file the household target (Serve
	// "household") serves instead of its embedded one.
	Fixture string
	// Delay is waited before answering every tool call.
	Delay time.Duration
	// CrashOn, HangOn and GarbageOn name the tool call (from 1, counted per
	// process) on which the server exits with status 3 after a last stderr
	// line, never answers, or writes a line that is not JSON on stdout
	// instead of answering; 0 is never.
	CrashOn, HangOn, GarbageOn int
	// FailStart makes the server write a reason (with terminal escape
	// sequences in it) on stderr and exit with status 1 before it reads
	// anything.
	FailStart bool
	// StderrBytes are written to stderr, in lines, before serving.
	StderrBytes int
	// Silent makes the server read its stdin and never answer anything,
	// not even initialize.
	Silent bool
	// EchoEnv, when set, adds the tool echo_env, which returns the value
	// of the server's environment variable of that name.
	EchoEnv string
}

// Invalid is replaced on the wire by bytes that are not UTF-8: a tool
// result holding it reaches the client as invalid UTF-8 inside a JSON
// string, as a careless server would send it.
const Invalid = "@@faultserver:invalid-utf8@@"

// Hostile is the text the hostile tool returns: every C0 control, DEL, C1
// controls, terminal escape sequences (clear screen, set title, colours),
// a bidi override, and bytes that are not UTF-8.
const Hostile = "\x00\x01\x07\x08\t\n\v\f\r\x0e\x1a\x1b\x1f\x7f\u0085\u009b" +
	"\x1b[2J\x1b[H\x1b]0;owned\x07\x1b[31mred\x1b[0m \u202eevil\u202c end" + Invalid

// EnvVar is the environment variable that makes a test binary run as a
// fault server (see RunIfChild and Target).
const EnvVar = "MCPEVAL_FAULTSERVER"

// RunIfChild runs the fault server and exits, when the environment says
// this process was started as one by Target. Call it first in TestMain.
func RunIfChild() {
	if os.Getenv(EnvVar) != "1" {
		return
	}
	os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// Target returns a stdio target that starts the running test binary as a
// fault server with the given flags. The binary's TestMain must call
// RunIfChild.
func Target(args ...string) target.Config {
	exe, err := os.Executable()
	if err != nil {
		panic(err)
	}
	spec := "stdio:'" + strings.ReplaceAll(exe, "'", `'\''`) + "'"
	for _, a := range args {
		spec += " '" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return target.Config{Spec: spec, Env: map[string]string{EnvVar: "1"}}
}

// Main runs the fault server over stdin and stdout with the flags in args
// and returns its exit status. It exits the process itself to crash.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("faultserver", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o Options
	fs.StringVar(&o.Serve, "serve", "", "serve the embedded target `NAME` instead of the own tools")
	fs.StringVar(&o.Fixture, "fixture", "", "with --serve household: serve the household fixture `FILE`")
	fs.DurationVar(&o.Delay, "delay", 0, "wait this long before answering each tool call")
	fs.IntVar(&o.CrashOn, "crash-on", 0, "exit on tool call `N`")
	fs.IntVar(&o.HangOn, "hang-on", 0, "never answer tool call `N`")
	fs.IntVar(&o.GarbageOn, "garbage-on", 0, "write non-JSON on stdout instead of answering tool call `N`")
	fs.BoolVar(&o.FailStart, "fail-start", false, "exit before speaking MCP")
	fs.IntVar(&o.StderrBytes, "stderr-bytes", 0, "write this many bytes to stderr before serving")
	fs.BoolVar(&o.Silent, "silent", false, "read stdin and never answer, not even initialize")
	fs.StringVar(&o.EchoEnv, "echo-env", "", "add the tool echo_env, returning the value of the environment variable `NAME`")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if o.FailStart {
		// With escape sequences, as a careless server might colour its
		// errors: whoever shows this line must neutralise them.
		fmt.Fprintln(stderr, "faultserver: cannot start: the database is locked\x1b[2J\x1b]0;owned\x07")
		return 1
	}
	if err := flood(stderr, o.StderrBytes); err != nil {
		return 1
	}
	if o.Silent {
		fmt.Fprintln(stderr, "faultserver: reading, never answering")
		io.Copy(io.Discard, stdin)
		return 0
	}
	out := &wire{w: stdout}
	s, err := NewServer(o, out, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "faultserver: %v\n", err)
		return 1
	}
	err = s.Run(context.Background(), &mcp.IOTransport{Reader: io.NopCloser(stdin), Writer: out})
	if err != nil && !errors.Is(err, io.EOF) && !strings.Contains(err.Error(), "closed") {
		fmt.Fprintf(stderr, "faultserver: %v\n", err)
		return 1
	}
	return 0
}

// NewServer returns the server of o, whose faults write to out (the
// protocol stream) and stderr.
func NewServer(o Options, out io.Writer, stderr io.Writer) (*mcp.Server, error) {
	var s *mcp.Server
	if o.Serve != "" {
		var err error
		if s, err = builtin.Server(o.Serve, false); err != nil {
			return nil, err
		}
		if o.Fixture != "" {
			if o.Serve != "household" {
				return nil, fmt.Errorf("--fixture goes with --serve household, not %s", o.Serve)
			}
			d, err := household.LoadFixture(o.Fixture)
			if err != nil {
				return nil, err
			}
			s = household.NewServer(d, nil)
		}
	} else {
		s = ownTools(stderr)
	}
	if o.EchoEnv != "" {
		mcp.AddTool(s, &mcp.Tool{Name: "echo_env", Description: "a value of the server's environment", Annotations: readOnly},
			func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "the value is " + os.Getenv(o.EchoEnv)}}}, nil, nil
			})
	}
	var calls atomic.Int64
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method != "tools/call" {
				return next(ctx, method, req)
			}
			n := int(calls.Add(1))
			if o.Delay > 0 {
				select {
				case <-time.After(o.Delay):
				case <-ctx.Done():
					return nil, ctx.Err()
				}
			}
			switch n {
			case o.CrashOn:
				fmt.Fprintf(stderr, "faultserver: tool call %d: panic: runtime error: index out of range\n", n)
				fmt.Fprintf(stderr, "faultserver: crashing on tool call %d\n", n)
				os.Exit(3)
			case o.HangOn:
				fmt.Fprintf(stderr, "faultserver: hanging on tool call %d\n", n)
				select {} // a hung server answers nothing, not even a cancellation
			case o.GarbageOn:
				fmt.Fprintf(stderr, "faultserver: writing garbage for tool call %d\n", n)
				fmt.Fprintf(out, "Traceback (most recent call last): this is not JSON-RPC\n")
			}
			return next(ctx, method, req)
		}
	})
	return s, nil
}

type totalOut struct {
	Total float64 `json:"total"`
}

type sizeIn struct {
	Bytes int `json:"bytes" jsonschema:"how many bytes"`
}

var readOnly = &mcp.ToolAnnotations{ReadOnlyHint: true}

// ownTools is a small server: get_total answers 42, big returns a result of
// the bytes asked for, flood writes the bytes asked for to stderr, hostile
// returns Hostile.
func ownTools(stderr io.Writer) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "faultserver", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "get_total", Description: "the total", Annotations: readOnly},
		func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, totalOut, error) {
			return nil, totalOut{Total: 42}, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "big", Description: "a result of the size asked for", Annotations: readOnly},
		func(ctx context.Context, req *mcp.CallToolRequest, in sizeIn) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("0123456789abcdef", in.Bytes/16+1)[:in.Bytes]}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "flood", Description: "writes the bytes asked for to stderr", Annotations: readOnly},
		func(ctx context.Context, req *mcp.CallToolRequest, in sizeIn) (*mcp.CallToolResult, any, error) {
			if err := flood(stderr, in.Bytes); err != nil {
				return nil, nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "flooded"}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "hostile", Description: "a result full of control characters", Annotations: readOnly},
		func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: Hostile}}}, nil, nil
		})
	return s
}

// flood writes n bytes to w in lines of 100, ending with a last line that
// says so.
func flood(w io.Writer, n int) error {
	if n <= 0 {
		return nil
	}
	line := bytes.Repeat([]byte("flood "), 17)[:99]
	line = append(line, '\n')
	chunk := bytes.Repeat(line, 1<<10)
	for n > 0 {
		c := chunk[:min(n, len(chunk))]
		if _, err := w.Write(c); err != nil {
			return err
		}
		n -= len(c)
	}
	_, err := fmt.Fprintln(w, "faultserver: flood done")
	return err
}

// wire is the protocol stream: writes are serialised (so that garbage does
// not tear a message) and Invalid is replaced by bytes that are not UTF-8.
type wire struct {
	mu sync.Mutex
	w  io.Writer
}

func (w *wire) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	q := bytes.ReplaceAll(p, []byte(Invalid), []byte("\xff\xfe\xc3\x28"))
	if _, err := w.w.Write(q); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (w *wire) Close() error { return nil }
