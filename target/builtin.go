package target

import (
	"sort"

	"github.com/mcpeval/mcpeval/household"
	"github.com/mcpeval/mcpeval/ops"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// builtins are the embedded targets, by name.
var builtins = map[string]func(writable bool) (*mcp.Server, error){
	"household": func(writable bool) (*mcp.Server, error) {
		d, err := household.Fixture()
		if err != nil {
			return nil, err
		}
		return household.NewServer(d, &household.Options{Writable: writable}), nil
	},
	"ops": ops.New,
}

// RegisterBuiltin adds a builtin target: new returns a fresh server each
// time a connection is made. Embedded targets register in this package;
// tests may register their own. It panics on a duplicate name.
func RegisterBuiltin(name string, new func(writable bool) (*mcp.Server, error)) {
	if _, dup := builtins[name]; dup {
		panic("target: duplicate builtin " + name)
	}
	builtins[name] = new
}

// BuiltinNames lists the embedded targets.
func BuiltinNames() []string {
	var names []string
	for n := range builtins {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// BuiltinServer returns a fresh server of the builtin target name, for
// serving it to other clients (mcpeval serve-target).
func BuiltinServer(name string, writable bool) (*mcp.Server, error) {
	f, ok := builtins[name]
	if !ok {
		return nil, &unknownBuiltin{name}
	}
	return f(writable)
}

type unknownBuiltin struct{ name string }

func (e *unknownBuiltin) Error() string { return "no builtin target " + e.name }
