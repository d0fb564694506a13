// Package mcpserver holds what mcpeval's embedded MCP servers share.
package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// NullArguments is receiving middleware that treats a tools/call whose
// arguments are JSON null (as a client sends for a call without arguments)
// as a call with none. The go-sdk (v1.8.0) panics applying schema defaults
// to null arguments, which would take the whole server down; install it
// with server.AddReceivingMiddleware(NullArguments).
func NullArguments(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if r, ok := req.(*mcp.CallToolRequest); ok && r.Params != nil && string(bytes.TrimSpace(r.Params.Arguments)) == "null" {
			r.Params.Arguments = json.RawMessage("{}")
		}
		return next(ctx, method, req)
	}
}
