// Package mcpserver holds what mcpeval's embedded MCP servers share.
package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"

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

// Suite returns the directory dir of an embedded server's files as the root
// of a file system: the suite written for that server, embedded beside it.
// It panics if dir is not a valid path, which for an embedded directory is
// a programming error caught by the server's tests.
func Suite(files fs.FS, dir string) fs.FS {
	f, err := fs.Sub(files, dir)
	if err != nil {
		panic(err) // the directory is embedded: it is there
	}
	return f
}
