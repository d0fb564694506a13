package ops

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MetaName is the name of the meta surface among the embedded targets:
// builtin:ops-meta.
const MetaName = "ops-meta"

// NewMetaServer returns an MCP server, named "ops-meta", serving st on the
// meta surface: the same actions as NewServer, behind one tool per domain
// (containers, volumes, networks, projects, users, images, system) that
// takes the action as its argument action and the action's own arguments
// beside it. containers{action: create, name: web, image: nginx:1.27}
// runs exactly what create_container{name: web, image: nginx:1.27} runs on
// the individual surface: the same handler, after the same validation.
func NewMetaServer(st *State) *mcp.Server {
	s := newServer(MetaName, "Ops host manager (one tool per domain)")
	for _, m := range metaTools() {
		m.serve(s, st)
	}
	return s
}

// NewMeta returns a meta-surface server over a freshly seeded host, as
// builtin:ops-meta serves it on every connection. writable is ignored, as
// in New.
func NewMeta(writable bool) (*mcp.Server, error) {
	st, err := Seed()
	if err != nil {
		return nil, err
	}
	return NewMetaServer(st), nil
}

// metaTool is one tool of the meta surface: a domain's actions.
type metaTool struct {
	tool    *mcp.Tool
	actions map[string]*op
}

var (
	metaOnce  sync.Once
	metaList  []*metaTool
	metaTitle = map[string]string{
		"containers": "Containers", "volumes": "Volumes", "networks": "Networks", "projects": "Projects",
		"users": "Users", "images": "Images", "system": "The host",
	}
)

// metaTools returns the meta surface's tools, in the order of their
// domains' first actions. It is built once from the catalog (ops).
func metaTools() []*metaTool {
	metaOnce.Do(func() {
		byDomain := map[string][]*op{}
		var order []string
		for _, o := range ops() {
			if byDomain[o.domain] == nil {
				order = append(order, o.domain)
			}
			byDomain[o.domain] = append(byDomain[o.domain], o)
		}
		for _, d := range order {
			metaList = append(metaList, newMetaTool(d, byDomain[d]))
		}
	})
	return metaList
}

// newMetaTool builds the tool of domain over its actions: its input schema
// is the action (an enum) and the union of the actions' arguments, each
// described for the actions that take it; its annotations are the most
// cautious of its actions'.
func newMetaTool(domain string, acts []*op) *metaTool {
	m := &metaTool{actions: map[string]*op{}}
	schema := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{}, Required: []string{"action"},
		AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}}}
	action := &jsonschema.Schema{Type: "string", Description: "what to do: one of the actions listed in the tool's description"}
	schema.Properties["action"] = action
	uses := map[string][]argUse{}
	var props []string
	var desc strings.Builder
	fmt.Fprintf(&desc, "Every action on %s; say which with action, and give that action's arguments beside it.", domain)
	readOnly, destructiveAny := true, false
	for _, o := range acts {
		if _, dup := m.actions[o.action]; dup {
			panic(fmt.Sprintf("ops: two actions %s on %s", o.action, domain))
		}
		m.actions[o.action] = o
		action.Enum = append(action.Enum, o.action)
		in := o.tool.InputSchema.(*jsonschema.Schema)
		names := slices.Sorted(maps.Keys(in.Properties))
		var args []string
		for _, p := range names {
			ps := in.Properties[p]
			if prev, ok := schema.Properties[p]; ok {
				if !sameShape(prev, ps) {
					panic(fmt.Sprintf("ops: argument %s of %s has another type in another action on %s", p, o.tool.Name, domain))
				}
			} else {
				c := *ps
				schema.Properties[p] = &c
				props = append(props, p)
			}
			uses[p] = append(uses[p], argUse{o.action, metaWords(ps.Description)})
			if slices.Contains(in.Required, p) {
				args = append(args, p+" (required)")
			} else {
				args = append(args, p)
			}
		}
		fmt.Fprintf(&desc, "\n- %s: %s", o.action, metaWords(o.tool.Description))
		if len(args) > 0 {
			fmt.Fprintf(&desc, " Arguments: %s.", strings.Join(args, ", "))
		}
		readOnly = readOnly && o.kind == read
		destructiveAny = destructiveAny || o.kind == destructive
	}
	for _, p := range props {
		schema.Properties[p].Description = describeUses(uses[p])
	}
	ann := &mcp.ToolAnnotations{Title: metaTitle[domain], ReadOnlyHint: readOnly, OpenWorldHint: ptr(false)}
	if !readOnly {
		ann.DestructiveHint = ptr(destructiveAny)
	}
	m.tool = &mcp.Tool{Name: domain, Title: metaTitle[domain], Description: desc.String(), InputSchema: schema, Annotations: ann}
	return m
}

var (
	metaWordsOnce sync.Once
	toolWord      *regexp.Regexp
	metaOf        map[string]string // tool -> "domain (action ...)"
)

// metaWords rewrites the individual surface's tool names in text (a
// description, an error) as the meta surface calls them: pull_image is
// images with action pull. Argument names that merely start like a tool
// (remove_containers) are left alone.
func metaWords(text string) string {
	metaWordsOnce.Do(func() {
		metaOf = map[string]string{}
		var names []string
		for _, o := range ops() {
			metaOf[o.tool.Name] = fmt.Sprintf("%s with action %s", o.domain, o.action)
			names = append(names, regexp.QuoteMeta(o.tool.Name))
		}
		toolWord = regexp.MustCompile(`\b(` + strings.Join(names, "|") + `)\b`)
	})
	return toolWord.ReplaceAllStringFunc(text, func(n string) string { return metaOf[n] })
}

// argUse is an argument as one action takes it.
type argUse struct{ action, desc string }

// describeUses describes an argument for the actions that take it: its
// one description when they agree, else each action's.
func describeUses(uses []argUse) string {
	var acts, parts []string
	same := true
	for _, u := range uses {
		acts = append(acts, u.action)
		parts = append(parts, u.action+": "+u.desc)
		same = same && u.desc == uses[0].desc
	}
	if same {
		return strings.TrimPrefix(uses[0].desc+" (for "+strings.Join(acts, ", ")+")", " ")
	}
	return strings.Join(parts, "; ")
}

// sameShape reports whether two argument schemas take the same values
// (their descriptions aside).
func sameShape(a, b *jsonschema.Schema) bool {
	x, y := *a, *b
	x.Description, y.Description = "", ""
	bx, _ := json.Marshal(&x)
	by, _ := json.Marshal(&y)
	return string(bx) == string(by)
}

// serve registers the meta tool on s, acting on st: it picks the action
// and runs it with the other arguments.
func (m *metaTool) serve(s *mcp.Server, st *State) {
	mcp.AddTool(s, m.tool, func(_ context.Context, _ *mcp.CallToolRequest, in map[string]any) (*mcp.CallToolResult, any, error) {
		name, _ := in["action"].(string)
		o, ok := m.actions[name]
		if !ok {
			return nil, nil, fmt.Errorf("%s has no action %q", m.tool.Name, name)
		}
		args := make(map[string]any, len(in))
		for k, v := range in {
			if k != "action" {
				args[k] = v
			}
		}
		out, err := o.run(st, args)
		if err != nil {
			return nil, nil, errors.New(metaWords(err.Error()))
		}
		return nil, out, nil
	})
}
