package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/target"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The client tools a suite with resources: true offers the model beside
// the server's own, served from the server's resources/list and
// resources/read, as MCP clients that let a model read resources do.
const (
	// ListResourcesTool lists the resources the server offers.
	ListResourcesTool = "list_resources"
	// ReadResourceTool reads one resource by its URI.
	ReadResourceTool = "read_resource"
)

// resourceTools are the tool definitions the model is shown for a suite's
// resources. Both only read.
func resourceTools() []*mcp.Tool {
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true}
	return []*mcp.Tool{
		{
			Name:        ListResourcesTool,
			Description: "Lists the resources the MCP server offers (documents, files, records): each resource's uri, name, description and MIME type. Read one with read_resource.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{}}`),
			Annotations: readOnly,
		},
		{
			Name:        ReadResourceTool,
			Description: "Reads one resource of the MCP server by its uri (as list_resources gives it) and returns its contents.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"uri":{"type":"string","description":"The resource's URI."}},"required":["uri"]}`),
			Annotations: readOnly,
		},
	}
}

// withResourceTools returns the server's tools with the resource tools
// added, when the suite asks for them. A server tool of the same name is
// refused: the model could not tell the two apart. So is a target of
// several servers: which server's resources a read means would be a
// guess.
func (r *run) withResourceTools(conn *target.Conn, listed []*mcp.Tool) ([]*mcp.Tool, error) {
	if !r.cfg.Suite.Resources {
		return listed, nil
	}
	if n := len(conn.Servers()); n > 1 {
		return nil, fmt.Errorf("the suite sets resources: true, which reads the resources of one server, but its target is %d servers (targets:); nothing was sent", n)
	}
	for _, t := range listed {
		if t.Name == ListResourcesTool || t.Name == ReadResourceTool {
			return nil, fmt.Errorf("the suite sets resources: true, but the target has a tool of its own named %s, the name of the client tool that reads its resources; nothing was sent", t.Name)
		}
	}
	return append(listed, resourceTools()...), nil
}

// isResourceTool reports whether name is a resource tool of this run.
func (r *run) isResourceTool(name string) bool {
	return r.cfg.Suite.Resources && (name == ListResourcesTool || name == ReadResourceTool)
}

// resourceOr sends a call to the server: a resource tool as the resources
// request it stands for (and rc marked as a resource read), any other as
// a tool call.
func (r *run) resourceOr(ctx context.Context, conn *target.Conn, rc *record.Call, name string, args any) (*mcp.CallToolResult, error) {
	if !r.isResourceTool(name) {
		return conn.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	}
	rc.Kind = record.CallResource
	raw, _ := args.(json.RawMessage)
	out, err := readResources(ctx, conn.Session, name, raw)
	var we *jsonrpc.Error
	if errors.As(err, &we) {
		// The server refused the request (an unknown URI, say): the model
		// sees why, as it sees a tool's refusal.
		return errorResult(we.Message), nil
	}
	return out, err
}

// readResources serves a resource tool from session.
func readResources(ctx context.Context, session *mcp.ClientSession, name string, args json.RawMessage) (*mcp.CallToolResult, error) {
	if session.InitializeResult() != nil && session.InitializeResult().Capabilities.Resources == nil {
		return errorResult("the server offers no resources"), nil
	}
	switch name {
	case ListResourcesTool:
		type listed struct {
			URI         string `json:"uri"`
			Name        string `json:"name,omitempty"`
			Title       string `json:"title,omitempty"`
			Description string `json:"description,omitempty"`
			MIMEType    string `json:"mimeType,omitempty"`
		}
		out := []listed{}
		for res, err := range session.Resources(ctx, nil) {
			if err != nil {
				return nil, fmt.Errorf("listing resources: %w", err)
			}
			out = append(out, listed{URI: res.URI, Name: res.Name, Title: res.Title, Description: res.Description, MIMEType: res.MIMEType})
		}
		b, err := json.Marshal(map[string]any{"resources": out})
		if err != nil {
			return nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, nil
	default:
		var a struct {
			URI string `json:"uri"`
		}
		if len(args) > 0 {
			if err := json.Unmarshal(args, &a); err != nil {
				return errorResult("invalid arguments: want {\"uri\": \"...\"}"), nil
			}
		}
		if a.URI == "" {
			return errorResult("invalid arguments: uri is required"), nil
		}
		res, err := session.ReadResource(ctx, &mcp.ReadResourceParams{URI: a.URI})
		if err != nil {
			return nil, fmt.Errorf("reading resource %s: %w", a.URI, err)
		}
		var parts []string
		for _, c := range res.Contents {
			switch {
			case c.Blob != nil:
				parts = append(parts, fmt.Sprintf("[%s: %d bytes of %s, not shown]", c.URI, len(c.Blob), orDefault(c.MIMEType, "binary data")))
			default:
				parts = append(parts, c.Text)
			}
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Join(parts, "\n")}}}, nil
	}
}

func errorResult(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: msg}}}
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
