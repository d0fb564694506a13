package target_test

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/target"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestStdioServerTransport: a go-sdk client calls a tool of a server
// served over NewStdioServerTransport, gets its result, then closes the
// server's input, and the server's Run returns without an error, as it
// does over mcp.StdioTransport.
func TestStdioServerTransport(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	type args struct {
		Name string `json:"name"`
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "greeter", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "greet"}, func(_ context.Context, _ *mcp.CallToolRequest, a args) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "hello " + a.Name}}}, nil, nil
	})
	serverIn, clientOut := io.Pipe()
	clientIn, serverOut := io.Pipe()
	ran := make(chan error, 1)
	go func() {
		ran <- s.Run(ctx, target.NewStdioServerTransport(serverIn, serverOut))
		serverOut.Close()
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, &mcp.IOTransport{Reader: clientIn, Writer: clientOut}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "greet", Arguments: map[string]any{"name": "ada"}})
	if err != nil {
		t.Fatal(err)
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); !ok || tc.Text != "hello ada" || res.IsError {
		t.Errorf("greet returned %+v", res.Content[0])
	}
	clientOut.Close() // the server's input ends
	select {
	case err := <-ran:
		if err != nil {
			t.Errorf("the server's Run returned %v once its input ended, want nil", err)
		}
	case <-ctx.Done():
		t.Fatal("the server did not stop when its input ended")
	}
	cs.Close()
}
