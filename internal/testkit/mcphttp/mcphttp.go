// Package mcphttp serves an MCP server over streamable HTTP for tests,
// behind a bearer token, as an authenticated remote server is.
package mcphttp

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BehindToken serves server over streamable HTTP to the requests that carry
// "Authorization: Bearer token", and refuses the rest with 401. It is
// closed when the test ends.
func BehindToken(t testing.TB, server *mcp.Server, token string) *httptest.Server {
	t.Helper()
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+token {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	return ts
}
