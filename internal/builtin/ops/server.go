package ops

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpeval/mcpeval/internal/builtin/mcpserver"
	"github.com/mcpeval/mcpeval/internal/lazyregexp"
)

// Kinds of tool, by what they may do.
const (
	read = iota
	write
	destructive
)

// NewServer returns an MCP server, named "ops", serving st: its tools read
// and change st. Every tool is served: the host is a sandbox, and its write
// and destructive tools are what an action suite evaluates. This is the
// individual surface, one tool per action; NewMetaServer serves the same
// actions behind one tool per domain.
func NewServer(st *State) *mcp.Server {
	s := newServer("ops", "Ops host manager")
	for _, o := range ops() {
		o.serve(s, st)
	}
	return s
}

func newServer(name, title string) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: name, Title: title, Version: "2.4.1"}, &mcp.ServerOptions{
		SchemaCache: schemaCache,
		Instructions: "Manage one container host: containers, images, volumes, networks, projects (groups of containers) and the users who may log in. " +
			"Containers, volumes, networks and images are named by name, full id or short id; projects and users by id only (listing them gives them). " +
			"Destructive actions do nothing unless called with confirm: true, which should be set only when the user has clearly asked for that change.",
	})
	s.AddReceivingMiddleware(mcpserver.NullArguments)
	return s
}

// op is one action on the host: a tool of the individual surface, and an
// action of its domain's tool on the meta surface. Both run the same
// handler.
type op struct {
	tool   *mcp.Tool // as the individual surface lists it
	kind   int
	domain string // the meta surface's tool for it ("containers")
	action string // its action there ("create")
	// serve registers the tool on s, acting on st.
	serve func(s *mcp.Server, st *State)
	// run validates args against the tool's input schema (filling in its
	// defaults), then runs the handler on st.
	run func(st *State, args map[string]any) (any, error)
}

// catalog collects the ops as the add*Tools functions declare them.
type catalog struct {
	ops        []*op
	domainName string
	noun       string
}

// domain starts the ops of one domain: its meta-tool's name, and the noun
// its tool names carry ("container" in create_container), which the
// action name leaves out.
func (c *catalog) domain(name, noun string) { c.domainName, c.noun = name, noun }

// actionName is the action tool is on its domain's meta-tool: its name
// without the domain's noun (create_container: create; get_container_logs:
// get_logs; list_events: list_events).
func actionName(tool, noun string) string {
	var kept []string
	for _, w := range strings.Split(tool, "_") {
		if w != noun && w != noun+"s" {
			kept = append(kept, w)
		}
	}
	return strings.Join(kept, "_")
}

var (
	catalogOnce sync.Once
	catalogOps  []*op
)

// ops returns every action on the host, in the order the individual
// surface lists its tools. The catalog is built once: its schemas and
// handlers hold no state of their own.
func ops() []*op {
	catalogOnce.Do(func() {
		c := &catalog{}
		addContainerTools(c)
		addVolumeTools(c)
		addNetworkTools(c)
		addProjectTools(c)
		addUserTools(c)
		addImageTools(c)
		addSystemTools(c)
		catalogOps = c.ops
	})
	return catalogOps
}

// schemaCache keeps the tools' resolved schemas from one server to the
// next: a suite with fresh_target makes a server per attempt, and
// resolving three dozen schemas each time would dominate.
var schemaCache = mcp.NewSchemaCache()

// add declares a tool whose structured result is its text too. enums
// restricts top-level string arguments to the values listed.
func add[In, Out any](c *catalog, kind int, name, title, desc string, enums map[string][]any, fn func(*State, In) (Out, error)) {
	schema, err := jsonschema.For[In](nil)
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
	resolved, err := schema.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
	if err != nil {
		panic(fmt.Sprintf("ops: resolving the schema of %s: %v", name, err))
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
	tool := &mcp.Tool{Name: name, Title: title, Description: desc, InputSchema: schema, Annotations: ann}
	o := &op{tool: tool, kind: kind, domain: c.domainName, action: actionName(name, c.noun)}
	o.serve = func(s *mcp.Server, st *State) {
		mcp.AddTool(s, tool, func(_ context.Context, _ *mcp.CallToolRequest, in In) (*mcp.CallToolResult, Out, error) {
			st.mu.Lock()
			defer st.mu.Unlock()
			out, err := fn(st, in)
			return nil, out, err
		})
	}
	o.run = func(st *State, args map[string]any) (any, error) {
		if err := resolved.Validate(args); err != nil {
			return nil, fmt.Errorf("validating the arguments of action %s: %v", o.action, err)
		}
		if err := resolved.ApplyDefaults(&args); err != nil {
			return nil, fmt.Errorf("validating the arguments of action %s: %v", o.action, err)
		}
		b, err := json.Marshal(args)
		if err != nil {
			return nil, fmt.Errorf("reading the arguments of %s: %v", o.action, err)
		}
		var in In
		if err := json.Unmarshal(b, &in); err != nil {
			return nil, fmt.Errorf("reading the arguments of %s: %v", o.action, err)
		}
		st.mu.Lock()
		defer st.mu.Unlock()
		return fn(st, in)
	}
	c.ops = append(c.ops, o)
}

func ptr[T any](v T) *T { return &v }

// confirmed refuses a destructive call made without confirm: true.
func confirmed(tool string, confirm bool) error {
	if !confirm {
		return fmt.Errorf("%s is destructive, so nothing was done: call it again with confirm: true, once the user has clearly asked for this change", tool)
	}
	return nil
}

var nameRE = lazyregexp.New(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$`)

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
