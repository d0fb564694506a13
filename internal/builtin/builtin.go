// Package builtin gathers the MCP servers mcpeval embeds, each in its own
// package beside the suite written for it: builtin:household (a
// household's finances, read-only) and builtin:ops (a stateful
// infrastructure manager with write and destructive tools).
//
// The MCP client (package target) knows none of them: the pipeline hands
// it this table as target.Config.Builtins, as a library caller may hand it
// servers of its own.
package builtin

import (
	"sort"

	"github.com/mcpeval/mcpeval/internal/builtin/household"
	"github.com/mcpeval/mcpeval/internal/builtin/ops"
	"github.com/mcpeval/mcpeval/target"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// All returns the embedded targets by name, each a function that returns
// a fresh server.
func All() target.Builtins {
	return target.Builtins{
		"household": func(writable bool) (*mcp.Server, error) {
			d, err := household.Fixture()
			if err != nil {
				return nil, err
			}
			return household.NewServer(d, &household.Options{Writable: writable}), nil
		},
		"ops":        ops.New,
		ops.MetaName: ops.NewMeta, // the same actions behind one tool per domain
	}
}

// Names lists the embedded targets.
func Names() []string {
	var names []string
	for n := range All() {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Server returns a fresh server of the embedded target name, for serving
// it to other clients (mcpeval serve-target) and for tests.
func Server(name string, writable bool) (*mcp.Server, error) {
	return All().Server(name, writable)
}
