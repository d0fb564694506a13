package main

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// session connects a client to a served target over streamable HTTP.
func session(t *testing.T, url string) *mcp.ClientSession {
	t.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

func toolNames(t *testing.T, cs *mcp.ClientSession) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	for tool, err := range cs.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		names[tool.Name] = true
	}
	return names
}

func volumes(t *testing.T, cs *mcp.ClientSession) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "list_volumes", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("list_volumes: %v %+v", err, res)
	}
	return res.Content[0].(*mcp.TextContent).Text
}

// TestServeTargetReadOnlyAndPerSession serves ops over streamable HTTP:
// without --writable no write or destructive tool is served; with it, a
// volume created in one session is not seen in another, unless the
// state is shared.
func TestServeTargetReadOnlyAndPerSession(t *testing.T) {
	ctx := context.Background()
	h, err := serveHandler(ctx, "ops", false, false)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h)
	ro := session(t, ts.URL)
	names := toolNames(t, ro)
	ro.Close()
	ts.CloseClientConnections()
	ts.Close()
	if !names["list_volumes"] {
		t.Fatalf("the read-only view lacks list_volumes: %v", names)
	}
	for _, w := range []string{"remove_volume", "create_volume", "prune_volumes"} {
		if names[w] {
			t.Errorf("served %s without --writable", w)
		}
	}

	for _, shared := range []bool{false, true} {
		h, err := serveHandler(ctx, "ops", true, shared)
		if err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(h)
		a, b := session(t, ts.URL), session(t, ts.URL)
		const vol = "made-in-session-a"
		res, err := a.CallTool(ctx, &mcp.CallToolParams{Name: "create_volume", Arguments: map[string]any{"name": vol}})
		if err != nil || res.IsError {
			t.Fatalf("create_volume %s: %v %+v", vol, err, res)
		}
		if !strings.Contains(volumes(t, a), `"`+vol+`"`) {
			t.Errorf("the session that created %s does not list it", vol)
		}
		if seen := strings.Contains(volumes(t, b), `"`+vol+`"`); seen != shared {
			t.Errorf("shared-state %v: the other session lists %s: %v", shared, vol, seen)
		}
		a.Close()
		b.Close()
		ts.CloseClientConnections()
		ts.Close()
	}
}
