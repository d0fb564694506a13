package mcphttp

import (
	"context"
	"net/http"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// bearer adds "Authorization: Bearer token" to every request.
type bearer string

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}

// TestBehindToken: a client sending the token lists the server's tools; one
// sending another token, or none, is refused.
func TestBehindToken(t *testing.T) {
	server := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "ping"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "pong"}}}, nil, nil
	})
	ts := BehindToken(t, server, "tok-right")
	for _, tc := range []struct {
		name   string
		client *http.Client
		ok     bool
	}{
		{"the token", &http.Client{Transport: bearer("tok-right")}, true},
		{"another token", &http.Client{Transport: bearer("tok-wrong")}, false},
		{"no token", http.DefaultClient, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			client := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil)
			cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: ts.URL, HTTPClient: tc.client}, nil)
			if !tc.ok {
				if err == nil {
					cs.Close()
					t.Fatal("connected")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			res, err := cs.ListTools(context.Background(), nil)
			if err != nil || len(res.Tools) != 1 || res.Tools[0].Name != "ping" {
				t.Errorf("tools %+v, %v", res, err)
			}
		})
	}
}
