package compare

import (
	"os/exec"
	"strings"
	"testing"
)

// TestImports keeps the CI packages renderers and pure functions over
// records and grades: none reaches a provider, a target, the runner, the
// MCP client or the network.
func TestImports(t *testing.T) {
	for _, pkg := range []string{"compare", "junit", "ladder", "overlay", "shard"} {
		out, err := exec.Command("go", "list", "-deps", "github.com/mcpeval/mcpeval/"+pkg).Output()
		if err != nil {
			t.Fatalf("go list: %v", err) // go is on PATH under go test: a failure here is a real problem, not a reason to skip
		}
		for _, dep := range strings.Fields(string(out)) {
			switch {
			case dep == "net" || strings.HasPrefix(dep, "net/"),
				strings.HasPrefix(dep, "github.com/mcpeval/mcpeval/model/"),
				strings.HasPrefix(dep, "github.com/mcpeval/mcpeval/target"),
				strings.HasPrefix(dep, "github.com/mcpeval/mcpeval/runner"),
				strings.HasPrefix(dep, "github.com/mcpeval/mcpeval/provider"),
				strings.HasPrefix(dep, "github.com/modelcontextprotocol/"),
				strings.HasPrefix(dep, "github.com/anthropics/"),
				strings.HasPrefix(dep, "github.com/openai/"):
				t.Errorf("%s depends on %s", pkg, dep)
			}
		}
	}
}
