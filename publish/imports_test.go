package publish

import (
	"os/exec"
	"strings"
	"testing"
)

// TestImports keeps the dependencies pointing one way: reviewing,
// redacting, rendering and publishing read records and grades; none of
// them reaches a model provider, an MCP server or the network.
func TestImports(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	banned := []string{
		"github.com/mcpeval/mcpeval/runner", "github.com/mcpeval/mcpeval/target", "github.com/mcpeval/mcpeval/provider",
		"github.com/mcpeval/mcpeval/model/anthropic", "github.com/mcpeval/mcpeval/model/openai",
		"github.com/modelcontextprotocol/go-sdk/mcp", "net/http",
	}
	for _, pkg := range []string{"review", "redact", "htmlreport", "publish"} {
		out, err := exec.Command("go", "list", "-deps", "github.com/mcpeval/mcpeval/"+pkg).Output()
		if err != nil {
			t.Fatalf("go list %s: %v", pkg, err)
		}
		deps := map[string]bool{}
		for _, d := range strings.Fields(string(out)) {
			deps[d] = true
		}
		for _, b := range banned {
			if deps[b] {
				t.Errorf("%s depends on %s", pkg, b)
			}
		}
	}
}
