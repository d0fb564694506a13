package target_test

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/internal/testkit/faultserver"
	"github.com/mcpeval/mcpeval/target"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkStdioCallTool is one tools/call round trip with a stdio server
// (this test binary as the fault server, answering get_total), over the
// go-sdk's CommandTransport (transport=go-sdk) and the one stdio targets
// use (transport=mcpeval). Only the client's side differs: the server
// decodes as it always does. Compare with benchstat -col /transport.
func BenchmarkStdioCallTool(b *testing.B) {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name      string
		transport func(*exec.Cmd) mcp.Transport
	}{
		{"transport=go-sdk", func(c *exec.Cmd) mcp.Transport {
			return &mcp.CommandTransport{Command: c, TerminateDuration: 2 * time.Second}
		}},
		{"transport=mcpeval", func(c *exec.Cmd) mcp.Transport { return target.NewCommandTransport(c, 2*time.Second) }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			ctx := context.Background()
			cmd := exec.Command(exe)
			cmd.Env = append(os.Environ(), faultserver.EnvVar+"=1")
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, bc.transport(cmd), nil)
			if err != nil {
				b.Fatal(err)
			}
			defer cs.Close()
			params := &mcp.CallToolParams{Name: "get_total", Arguments: map[string]any{}}
			b.ReportAllocs()
			for b.Loop() {
				if res, err := cs.CallTool(ctx, params); err != nil || res.IsError {
					b.Fatalf("call: %v", err)
				}
			}
		})
	}
}
