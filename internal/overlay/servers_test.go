package overlay

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/record"
)

// TestApplyServerNames edits the tools of several servers named
// SERVER/TOOL: the one server's tool of a name two servers list, and a
// tool only one lists; a server that lists no such tool is refused.
func TestApplyServerNames(t *testing.T) {
	tools := []record.Tool{
		{Name: "home__get_net_worth", Server: "home", ServerTool: "get_net_worth", Description: "home", InputSchema: json.RawMessage(`{"type":"object"}`)},
		{Name: "office__get_net_worth", Server: "office", ServerTool: "get_net_worth", Description: "office", InputSchema: json.RawMessage(`{"type":"object"}`)},
		{Name: "search_nodes", Server: "memory", Description: "search", InputSchema: json.RawMessage(`{"type":"object"}`)},
	}
	o, err := Parse([]byte("tools:\n  office/get_net_worth:\n    description: The office's net worth.\n  memory/search_nodes:\n    description: Find notes.\n"), "o.yaml")
	if err != nil {
		t.Fatal(err)
	}
	out, err := o.Apply(tools)
	if err != nil {
		t.Fatal(err)
	}
	if out[0].Description != "home" || out[1].Description != "The office's net worth." || out[2].Description != "Find notes." {
		t.Errorf("descriptions %q, %q, %q", out[0].Description, out[1].Description, out[2].Description)
	}
	if out[1].Server != "office" || out[1].ServerTool != "get_net_worth" {
		t.Errorf("the edited tool lost its server: %+v", out[1])
	}
	o, err = Parse([]byte("tools:\n  home/search_nodes:\n    description: x\n"), "o.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := o.Apply(tools); err == nil || !strings.Contains(err.Error(), "o.yaml:2: tool home/search_nodes: the target lists no such tool") {
		t.Errorf("err = %v", err)
	}
}
