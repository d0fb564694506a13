package ops

import (
	"context"
	"fmt"
	"regexp"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpeval/mcpeval/internal/builtin/mcpserver"
)

// Kinds of tool, by what they may do.
const (
	read = iota
	write
	destructive
)

// NewServer returns an MCP server, named "ops", serving st: its tools read
// and change st. Every tool is served: the host is a sandbox, and its write
// and destructive tools are what an action suite evaluates.
func NewServer(st *State) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "ops", Title: "Ops host manager", Version: "2.4.1"}, &mcp.ServerOptions{
		SchemaCache: schemaCache,
		Instructions: "Manage one container host: containers, images, volumes, networks, projects (groups of containers) and the users who may log in. " +
			"Containers, volumes, networks and images are named by name, full id or short id; projects and users by id only (list_projects and list_users give them). " +
			"Destructive tools do nothing unless called with confirm: true, which should be set only when the user has clearly asked for that change.",
	})
	s.AddReceivingMiddleware(mcpserver.NullArguments)
	addContainerTools(s, st)
	addVolumeTools(s, st)
	addNetworkTools(s, st)
	addProjectTools(s, st)
	addUserTools(s, st)
	addImageTools(s, st)
	addSystemTools(s, st)
	return s
}

// schemaCache and inputSchemas keep the tools' schemas from one server to
// the next: a suite with fresh_target makes a server per attempt, and
// inferring and resolving three dozen schemas each time would dominate.
var (
	schemaCache  = mcp.NewSchemaCache()
	inputSchemas sync.Map // tool name -> *jsonschema.Schema
)

// add registers a tool whose structured result is its text too. enums
// restricts top-level string arguments to the values listed.
func add[In, Out any](s *mcp.Server, st *State, kind int, name, title, desc string, enums map[string][]any, fn func(*State, In) (Out, error)) {
	var schema *jsonschema.Schema
	if v, ok := inputSchemas.Load(name); ok {
		schema = v.(*jsonschema.Schema)
	} else {
		var err error
		schema, err = jsonschema.For[In](nil)
		if err != nil {
			panic(fmt.Sprintf("ops: schema of %s: %v", name, err))
		}
		for prop, vals := range enums {
			p, ok := schema.Properties[prop]
			if !ok {
				panic(fmt.Sprintf("ops: %s has no argument %s", name, prop))
			}
			p.Enum = vals
		}
		v, _ := inputSchemas.LoadOrStore(name, schema)
		schema = v.(*jsonschema.Schema)
	}
	ann := &mcp.ToolAnnotations{Title: title, OpenWorldHint: ptr(false)}
	switch kind {
	case read:
		ann.ReadOnlyHint = true
	case write:
		ann.DestructiveHint = ptr(false)
	case destructive:
		ann.DestructiveHint = ptr(true)
	}
	mcp.AddTool(s, &mcp.Tool{Name: name, Title: title, Description: desc, InputSchema: schema, Annotations: ann},
		func(_ context.Context, _ *mcp.CallToolRequest, in In) (*mcp.CallToolResult, Out, error) {
			st.mu.Lock()
			defer st.mu.Unlock()
			out, err := fn(st, in)
			return nil, out, err
		})
}

func ptr[T any](v T) *T { return &v }

// confirmed refuses a destructive call made without confirm: true.
func confirmed(tool string, confirm bool) error {
	if !confirm {
		return fmt.Errorf("%s is destructive, so nothing was done: call it again with confirm: true, once the user has clearly asked for this change", tool)
	}
	return nil
}

var nameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$`)

func checkName(what, name string) error {
	if !nameRE.MatchString(name) {
		return fmt.Errorf("%s name %q: use letters, digits, '.', '_' and '-', starting with a letter or digit, at most 63 characters", what, name)
	}
	return nil
}

var restartPolicies = []any{"no", "always", "on-failure", "unless-stopped"}

// New returns a server over a freshly seeded host, as builtin:ops serves
// it on every connection. writable is ignored: every tool is always
// served (see NewServer).
func New(writable bool) (*mcp.Server, error) {
	st, err := Seed()
	if err != nil {
		return nil, err
	}
	return NewServer(st), nil
}
