package target

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestRedialFailed connects to two servers and breaks one's session: the
// call it was sent fails naming it, and it alone is marked failed (a
// refused call marks nothing). RedialFailed starts that server anew and
// shares the other's session, which CloseFailed on the old connection
// leaves open.
func TestRedialFailed(t *testing.T) {
	starts := map[string]int{}
	counted := Builtins{}
	for name, f := range echoBuiltins {
		counted[name] = func(w bool) (*mcp.Server, error) {
			starts[name]++
			return f(w)
		}
	}
	cfg := Several([]Server{{Name: "alpha", Config: Config{Spec: "builtin:echo-a"}}, {Name: "beta", Config: Config{Spec: "builtin:echo-b"}}})
	cfg.Builtins = counted
	ctx := context.Background()
	c, err := Dial(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	echo := func(c *Conn, name string, args map[string]any) (string, error) {
		out, err := c.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			return "", err
		}
		return out.Content[0].(*mcp.TextContent).Text, nil
	}
	if _, err := echo(c, "beta__echo", map[string]any{"text": "hi"}); err != nil {
		t.Fatal(err)
	}
	if _, err := echo(c, "nope__echo", nil); err == nil {
		t.Fatal("a tool no server lists was called")
	}
	if got := c.FailedServers(); len(got) != 0 {
		t.Errorf("after an answered call and a refused one, failed servers %v, want none", got)
	}
	c.parts[0].conn.Session.Close() // alpha's session breaks, as a crashed server's would
	if _, err := echo(c, "alpha__echo", map[string]any{"text": "hi"}); err == nil || !strings.Contains(err.Error(), "server alpha: ") {
		t.Fatalf("alpha__echo on a broken session: %v, want an error naming alpha", err)
	}
	if got := c.FailedServers(); !slices.Equal(got, []string{"alpha"}) {
		t.Fatalf("failed servers %v, want [alpha]", got)
	}
	n, err := c.RedialFailed(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	if starts["echo-a"] != 2 || starts["echo-b"] != 1 {
		t.Errorf("servers started %v, want echo-a again and echo-b once", starts)
	}
	if n.parts[1] != c.parts[1] || n.parts[0] == c.parts[0] {
		t.Error("the new connection does not share beta's session alone")
	}
	if err := c.CloseFailed(); err != nil {
		t.Errorf("closing the failed servers: %v", err)
	}
	for name, want := range map[string]string{"alpha__echo": "a:hi", "beta__echo": "b:hi", "only_b": "b only"} {
		if got, err := echo(n, name, map[string]any{"text": "hi"}); err != nil || got != want {
			t.Errorf("%s on the new connection: %q, %v; want %q", name, got, err, want)
		}
	}
	if got := n.FailedServers(); len(got) != 0 {
		t.Errorf("the new connection's failed servers %v, want none", got)
	}
}
