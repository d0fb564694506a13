package target

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type echoIn struct {
	Text string `json:"text"`
}

// echoServer lists echo (answering with its name and the text) and, for
// b, a tool only it has.
func echoServer(name string) func(bool) (*mcp.Server, error) {
	return func(bool) (*mcp.Server, error) {
		s := mcp.NewServer(&mcp.Implementation{Name: "echo-" + name, Version: "1"}, nil)
		mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "echoes"},
			func(ctx context.Context, req *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: name + ":" + in.Text}}}, nil, nil
			})
		if name == "b" {
			mcp.AddTool(s, &mcp.Tool{Name: "only_b", Description: "b's own"},
				func(ctx context.Context, req *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
					return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "b only"}}}, nil, nil
				})
		}
		return s, nil
	}
}

var echoBuiltins = Builtins{"echo-a": echoServer("a"), "echo-b": echoServer("b")}

// TestSeveralRoutes connects to two servers that both list echo: the
// tools are named by server where they collide, in the servers' order,
// and each call reaches the server it is routed to.
func TestSeveralRoutes(t *testing.T) {
	cfg := Several([]Server{{Name: "beta", Config: Config{Spec: "builtin:echo-b"}}, {Name: "alpha", Config: Config{Spec: "builtin:echo-a"}}})
	cfg.Builtins = echoBuiltins
	if cfg.Spec != "servers:alpha,beta" || cfg.Kind() != "servers" {
		t.Fatalf("spec %q kind %q", cfg.Spec, cfg.Kind())
	}
	if got := cfg.Describe(); got != "servers: alpha=builtin:echo-a; beta=builtin:echo-b" {
		t.Errorf("describe %q", got)
	}
	ctx := context.Background()
	c, err := Dial(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tools, err := c.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools {
		names = append(names, tl.Name)
	}
	if strings.Join(names, ",") != "alpha__echo,beta__echo,only_b" {
		t.Errorf("tools %v", names)
	}
	for name, want := range map[string][2]string{"alpha__echo": {"alpha", "echo"}, "beta__echo": {"beta", "echo"}, "only_b": {"beta", "only_b"}, "echo": {"", ""}} {
		if s, tl := c.ServerOf(name); s != want[0] || tl != want[1] {
			t.Errorf("ServerOf(%s) = %s, %s; want %v", name, s, tl, want)
		}
	}
	for name, want := range map[string]string{"alpha__echo": "a:hi", "beta__echo": "b:hi", "only_b": "b only", "alpha/echo": "a:hi", "beta/only_b": "b only"} {
		out, err := c.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: map[string]any{"text": "hi"}})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := out.Content[0].(*mcp.TextContent).Text; got != want {
			t.Errorf("%s answered %q, want %q", name, got, want)
		}
	}
	for _, name := range []string{"echo", "alpha/only_b", "gamma/echo"} {
		_, err = c.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: map[string]any{}})
		var we *jsonrpc.Error
		if !errors.As(err, &we) || we.Code != jsonrpc.CodeMethodNotFound {
			t.Errorf("%s: %v, want a method-not-found refusal", name, err)
		}
	}
	if got := c.Servers(); strings.Join(got, ",") != "alpha,beta" {
		t.Errorf("servers %v", got)
	}
	if info := c.ServerInfo(); info["beta"] == nil || info["beta"].Name != "echo-b" {
		t.Errorf("server info %v", info)
	}
}

// TestSeveralCheck refuses bad names, a server named twice and a
// malformed server before anything starts, and keeps every server's
// secrets.
func TestSeveralCheck(t *testing.T) {
	for _, tc := range []struct {
		servers []Server
		want    string
	}{
		{[]Server{{Name: "A", Config: Config{Spec: "builtin:echo-a"}}}, `server "A": a server's name is lowercase`},
		{[]Server{{Name: "a", Config: Config{Spec: "builtin:echo-a"}}, {Name: "a", Config: Config{Spec: "builtin:echo-b"}}}, "server a is named twice"},
		{[]Server{{Name: "a", Config: Config{Spec: "builtin:nope"}}}, `server a: target "builtin:nope": no builtin target "nope"`},
		{[]Server{{Name: "a", Config: Config{Spec: "ftp://x"}}}, "server a: target \"ftp://x\": want builtin:NAME"},
		{nil, "names no server"},
	} {
		cfg := Several(tc.servers)
		cfg.Builtins = echoBuiltins
		if err := cfg.Check(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %s", tc.servers, err, tc.want)
		}
		if _, err := Dial(context.Background(), cfg); err == nil {
			t.Errorf("%v: dialled", tc.servers)
		}
	}
	cfg := Several([]Server{
		{Name: "a", Config: Config{Spec: "https://example.com/mcp?tenant=t1", Headers: map[string]string{"Authorization": "Bearer s3cr3t-value"}}},
		{Name: "b", Config: Config{Spec: "stdio:srv --token tok-123456", Env: map[string]string{"K": "env-secret-1"}}},
	})
	vals := strings.Join(cfg.Secrets(func(string) string { return "" }).Values(), " ")
	for _, want := range []string{"Bearer s3cr3t-value", "tok-123456", "env-secret-1"} {
		if !strings.Contains(vals, want) {
			t.Errorf("secrets %q lack %q", vals, want)
		}
	}
	if d := cfg.Describe(); strings.Contains(d, "example.com") || strings.Contains(d, "tok-123456") {
		t.Errorf("describe %q shows a secret or the endpoint", d)
	}
}
