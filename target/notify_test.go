//lint:file-ignore SA1019 sampling, roots and logging are deprecated as of MCP 2026-07-28 (SEP-2577) but servers on earlier protocol versions still use them, and mcpeval must answer them as the reference clients do

package target

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// noisyServer reports progress and logs during its "work" tool, lists
// the client's roots in "roots", and adds a tool "later" in "grow".
func noisyServer(bool) (*mcp.Server, error) {
	s := mcp.NewServer(&mcp.Implementation{Name: "noisy"}, nil)
	empty := &mcp.ToolAnnotations{ReadOnlyHint: true}
	s.AddTool(&mcp.Tool{Name: "work", InputSchema: json.RawMessage(`{"type":"object"}`), Annotations: empty}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if tok := req.Params.GetProgressToken(); tok != nil {
			for i := 1; i <= 3; i++ {
				req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: float64(i), Total: 3, Message: "step <b>"})
			}
		}
		req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "info", Logger: "work", Data: "half way"})
		req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "debug", Data: "chatter"})
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil
	})
	s.AddTool(&mcp.Tool{Name: "roots", InputSchema: json.RawMessage(`{"type":"object"}`), Annotations: empty}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := req.Session.ListRoots(ctx, nil)
		if err != nil {
			return nil, err
		}
		var lines []string
		for _, r := range res.Roots {
			lines = append(lines, r.Name+"="+r.URI)
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Join(lines, "\n")}}}, nil
	})
	s.AddTool(&mcp.Tool{Name: "grow", InputSchema: json.RawMessage(`{"type":"object"}`), Annotations: empty}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		s.AddTool(&mcp.Tool{Name: "later", InputSchema: json.RawMessage(`{"type":"object"}`), Annotations: empty}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "later"}}}, nil
		})
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "grown"}}}, nil
	})
	return s, nil
}

func dialNoisy(t *testing.T, cfg Config) *Conn {
	t.Helper()
	cfg.Spec = "builtin:noisy"
	cfg.Builtins = Builtins{"noisy": noisyServer}
	conn, err := Dial(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

func TestNotesOfACall(t *testing.T) {
	conn := dialNoisy(t, Config{LogLevel: "info"})
	notes := &Notes{Max: 3}
	if _, err := conn.CallTool(WithNotes(context.Background(), notes), &mcp.CallToolParams{Name: "work"}); err != nil {
		t.Fatal(err)
	}
	notes.Close()
	got, dropped := notes.Kept() // in-process: all in when the call returns
	want := []Note{
		{Kind: "progress", Progress: 1, Total: 3, Message: "step <b>"},
		{Kind: "progress", Progress: 2, Total: 3, Message: "step <b>"},
		{Kind: "progress", Progress: 3, Total: 3, Message: "step <b>"},
	}
	if d := cmp.Diff(want, got); d != "" || dropped != 1 { // the info log is dropped, the debug one never sent
		t.Errorf("notes (-want +got):\n%s\ndropped %d, want 1", d, dropped)
	}

	// Without a level asked for, the server sends no log; without
	// WithNotes, the call asks for no progress.
	quiet := dialNoisy(t, Config{})
	notes = &Notes{Max: 10}
	if _, err := quiet.CallTool(WithNotes(context.Background(), notes), &mcp.CallToolParams{Name: "work"}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond) // a log would have come by now
	if got, _ := settle(notes, 3); len(got) != 3 {
		t.Errorf("with no log level: got %+v, want the 3 progress notes only", got)
	}
}

// settle waits until notes hold n notes, kept or dropped, then stops
// collecting and returns them.
func settle(notes *Notes, n int) ([]Note, int) {
	deadline := time.Now().Add(5 * time.Second)
	for {
		kept, dropped := notes.Kept()
		if len(kept)+dropped >= n || time.Now().After(deadline) {
			notes.Close()
			return notes.Kept()
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func TestRootsDeclared(t *testing.T) {
	var server *mcp.Server
	cfg := Config{Spec: "builtin:noisy", Roots: []Root{{URI: "file:///data/a", Name: "a"}, {URI: "file:///data/b"}}}
	cfg.Builtins = Builtins{"noisy": func(bool) (*mcp.Server, error) {
		// roots/list is a request the 2025-06-18 protocol lets a server
		// make; the 2026-07-28 one asks for roots through a tool's result.
		server = mcp.NewServer(&mcp.Implementation{Name: "roots"}, &mcp.ServerOptions{SupportedProtocolVersions: []string{"2025-06-18"}})
		return server, nil
	}}
	conn, err := Dial(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var got []*mcp.Root
	for ss := range server.Sessions() {
		res, err := ss.ListRoots(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		got = res.Roots
	}
	want := []*mcp.Root{{URI: "file:///data/a", Name: "a"}, {URI: "file:///data/b"}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("roots the server listed (-want +got):\n%s", d)
	}
}

func TestToolsChanged(t *testing.T) {
	conn := dialNoisy(t, Config{})
	if n := conn.ToolsChanged(); n != 0 {
		t.Fatalf("ToolsChanged before any change: %d", n)
	}
	if _, err := conn.CallTool(context.Background(), &mcp.CallToolParams{Name: "grow"}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for conn.ToolsChanged() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("no tools/list_changed seen after the server added a tool")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestLogLevelChecked(t *testing.T) {
	err := Config{Spec: "builtin:noisy", Builtins: Builtins{"noisy": noisyServer}, LogLevel: "loud"}.Check()
	if err == nil || !strings.Contains(err.Error(), `log level "loud"`) {
		t.Errorf("Check: %v, want the log level refused", err)
	}
}
