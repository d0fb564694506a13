package overlay

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/mcpeval/mcpeval/internal/yamlloc"
	"github.com/mcpeval/mcpeval/record"
	"go.yaml.in/yaml/v4"
)

// MaxSize is the largest overlay file read.
const MaxSize = 1 << 20

// Overlay is a parsed overlay file.
type Overlay struct {
	// Path is the file it was read from, as given.
	Path string
	// Tools are the tool edits, in file order.
	Tools []Tool
	// Outputs are the output edits (outputs:), in file order.
	Outputs []Output
}

// Tool is the edit of one tool.
type Tool struct {
	Name string
	// Description replaces the tool's description when HasDescription.
	Description    string
	HasDescription bool
	// Params replace parameter descriptions, in file order.
	Params []Param
	// Line is where the tool is named in the file.
	Line int
}

// Param is the new description of one parameter.
type Param struct {
	Name        string
	Description string
	Line        int
}

// Error is one problem with an overlay, located in its file.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// Errors are every problem found, in line order.
type Errors []*Error

func (es Errors) Error() string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "\n")
}

func (es Errors) err() error {
	if len(es) == 0 {
		return nil
	}
	sort.SliceStable(es, func(i, j int) bool { return es[i].Line < es[j].Line })
	return es
}

// Load reads the overlay at path. Problems come back as Errors, each
// located at a line of the file.
func Load(path string) (*Overlay, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("loading overlay: %w", err)
	}
	if st.Size() > MaxSize {
		return nil, Errors{{File: path, Msg: fmt.Sprintf("file is %d bytes, more than the %d an overlay may have", st.Size(), MaxSize)}}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("loading overlay: %w", err)
	}
	return Parse(data, path)
}

// Parse reads an overlay from data; name locates its errors.
func Parse(data []byte, name string) (*Overlay, error) {
	p := &parser{name: name}
	tools, outputs := p.tools(data)
	if tools == nil && outputs == nil {
		return nil, p.es.err()
	}
	o := &Overlay{Path: name}
	seen := map[string]int{}
	if tools != nil {
		for k, v := range pairs(tools) {
			if t, ok := p.tool(k, v, seen); ok {
				o.Tools = append(o.Tools, t)
			}
		}
	}
	if outputs != nil {
		o.Outputs = p.outputs(outputs)
	}
	if err := p.es.err(); err != nil {
		return nil, err
	}
	return o, nil
}

// parser gathers the errors of an overlay file as it is read.
type parser struct {
	name string
	es   Errors
}

func (p *parser) errorf(line int, format string, args ...any) {
	msg := strings.ReplaceAll(fmt.Sprintf(format, args...), "\n", `\n`)
	p.es = append(p.es, &Error{File: p.name, Line: line, Msg: msg})
}

// tools checks the file as a whole and returns its tools: and outputs:
// mappings, each nil when there is none to read.
func (p *parser) tools(data []byte) (tools, outputs *yaml.Node) {
	if len(data) > MaxSize {
		p.errorf(0, "%d bytes, more than the %d an overlay may have", len(data), MaxSize)
		return nil, nil
	}
	if line := yamlloc.InvalidUTF8Line(data); line > 0 {
		p.errorf(line, "not valid UTF-8: an overlay is UTF-8 text")
		return nil, nil
	}
	if len(bytes.TrimSpace(data)) == 0 {
		p.errorf(0, "the file is empty: want tools: {TOOL: {description: ..., params: {PARAM: ...}}}")
		return nil, nil
	}
	var doc yaml.Node
	if err := yaml.Load(data, &doc); err != nil {
		line, msg := 0, err.Error()
		if ps := yamlloc.Problems(data, err); ps != nil {
			line, msg = ps[0].Line, ps[0].Msg
		}
		p.errorf(line, "%s", strings.TrimPrefix(msg, "yaml: "))
		return nil, nil
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind != yaml.MappingNode {
		p.errorf(root.Line, "want a mapping with tools: at the top")
		return nil, nil
	}
	for k, v := range pairs(root) {
		switch k.Value {
		case "tools":
			tools = v
		case "outputs":
			outputs = v
		default:
			p.errorf(k.Line, "unknown field %q: an overlay has tools and outputs only", k.Value)
		}
	}
	if tools == nil && outputs == nil {
		p.errorf(root.Line, "no tools: want tools: {TOOL: {description: ..., params: {PARAM: ...}}} or outputs: {TOOL: {drop: [PATH], ...}}")
		return nil, nil
	}
	if tools != nil && (tools.Kind != yaml.MappingNode || len(tools.Content) == 0) {
		p.errorf(tools.Line, "tools: want a mapping from tool names to their edits")
		return nil, nil
	}
	return tools, outputs
}

// toolEntry checks the key k and value v of one tool's entry in a
// section (prefix "" for tools:, "outputs: " for outputs:): a tool name,
// not edited before in the section (seen holds each one's line), edited
// by a mapping of the fields want names. It says what is wrong at its line.
func (p *parser) toolEntry(prefix string, k, v *yaml.Node, seen map[string]int, want string) bool {
	if k.Kind != yaml.ScalarNode || k.Value == "" {
		p.errorf(k.Line, "%sa tool name must be a string", prefix)
		return false
	}
	if first, dup := seen[k.Value]; dup {
		p.errorf(k.Line, "%stool %s is already edited at line %d", prefix, k.Value, first)
		return false
	}
	seen[k.Value] = k.Line
	if v.Kind != yaml.MappingNode {
		p.errorf(v.Line, "%stool %s: want a mapping with %s", prefix, k.Value, want)
		return false
	}
	return true
}

// tool reads the edit of the tool named k; seen holds the line of each
// tool read so far. It reports whether the edit is whole and changes
// something.
func (p *parser) tool(k, v *yaml.Node, seen map[string]int) (Tool, bool) {
	t := Tool{Name: k.Value, Line: k.Line}
	if !p.toolEntry("", k, v, seen, "description and/or params") {
		return t, false
	}
	seenParam := map[string]int{}
	errsBefore := len(p.es)
	for fk, fv := range pairs(v) {
		switch fk.Value {
		case "description":
			p.description(&t, fv)
		case "params":
			p.params(&t, fv, seenParam)
		default:
			p.errorf(fk.Line, "tool %s: unknown field %q: want description or params", t.Name, fk.Value)
		}
	}
	if len(p.es) > errsBefore {
		return t, false
	}
	if !t.HasDescription && len(t.Params) == 0 {
		p.errorf(k.Line, "tool %s changes nothing: want description or params", t.Name)
		return t, false
	}
	return t, true
}

func (p *parser) description(t *Tool, v *yaml.Node) {
	d, ok := text(v)
	if !ok {
		p.errorf(v.Line, "tool %s: description: want text", t.Name)
		return
	}
	if strings.TrimSpace(d) == "" {
		p.errorf(v.Line, "tool %s: description is empty", t.Name)
		return
	}
	t.Description, t.HasDescription = d, true
}

// params reads the new descriptions of a tool's parameters; seen holds the
// line of each parameter named so far.
func (p *parser) params(t *Tool, v *yaml.Node, seen map[string]int) {
	if v.Kind != yaml.MappingNode {
		p.errorf(v.Line, "tool %s: params: want a mapping from parameter names to descriptions", t.Name)
		return
	}
	for pk, pv := range pairs(v) {
		if pk.Kind != yaml.ScalarNode || pk.Value == "" {
			p.errorf(pk.Line, "tool %s: a parameter name must be a string", t.Name)
			continue
		}
		if first, dup := seen[pk.Value]; dup {
			p.errorf(pk.Line, "tool %s: parameter %s is already edited at line %d", t.Name, pk.Value, first)
			continue
		}
		seen[pk.Value] = pk.Line
		d, ok := text(pv)
		if !ok || strings.TrimSpace(d) == "" {
			p.errorf(pv.Line, "tool %s: parameter %s: want its new description as text", t.Name, pk.Value)
			continue
		}
		t.Params = append(t.Params, Param{Name: pk.Value, Description: d, Line: pk.Line})
	}
}

// pairs yields the key and value nodes of a mapping.
func pairs(n *yaml.Node) func(func(k, v *yaml.Node) bool) {
	return func(yield func(k, v *yaml.Node) bool) {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if !yield(n.Content[i], n.Content[i+1]) {
				return
			}
		}
	}
}

// text returns a scalar's text; null and collections are not text.
func text(n *yaml.Node) (string, bool) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return "", false
	}
	return n.Value, true
}

// Apply returns tools with the overlay's descriptions in place; tools
// itself is not changed. Every tool and parameter the overlay names must
// be among tools (and in the tool's input schema properties): each one
// that is not is reported as a located Error, and nothing is applied. A
// tool of one of several servers may be named SERVER/TOOL as well as by
// the name the model is shown.
func (o *Overlay) Apply(tools []record.Tool) ([]record.Tool, error) {
	var es Errors
	errorf := func(line int, format string, args ...any) {
		es = append(es, &Error{File: o.Path, Line: line, Msg: fmt.Sprintf(format, args...)})
	}
	index := map[string]int{}
	var names []string
	for i, t := range tools {
		index[t.Name] = i
		names = append(names, t.Name)
		if t.Server != "" { // one of several servers: SERVER/TOOL names it too
			own := t.ServerTool
			if own == "" {
				own = t.Name
			}
			index[t.Server+"/"+own] = i
		}
	}
	out := make([]record.Tool, len(tools))
	copy(out, tools)
	for _, e := range o.Tools {
		i, ok := index[e.Name]
		if !ok {
			errorf(e.Line, "tool %s: the target lists no such tool (it lists %s)", e.Name, strings.Join(names, ", "))
			continue
		}
		t := &out[i]
		if e.HasDescription {
			t.Description = e.Description
		}
		if len(e.Params) == 0 {
			continue
		}
		schema, props, err := properties(t.InputSchema)
		if err != nil {
			errorf(e.Line, "tool %s: reading its input schema: %v", e.Name, err)
			continue
		}
		ok = true
		for _, p := range e.Params {
			prop, found := props[p.Name].(map[string]any)
			if !found {
				have := "it takes no parameters"
				if len(props) > 0 {
					have = "it has " + strings.Join(slices.Sorted(maps.Keys(props)), ", ")
				}
				errorf(p.Line, "tool %s: parameter %s: the tool's input schema has no such property (%s)", e.Name, p.Name, have)
				ok = false
				continue
			}
			prop["description"] = p.Description
		}
		if !ok {
			continue
		}
		b, err := json.Marshal(schema)
		if err != nil {
			errorf(e.Line, "tool %s: encoding its input schema: %v", e.Name, err)
			continue
		}
		t.InputSchema = b
	}
	for _, e := range o.Outputs {
		if _, ok := index[e.Name]; !ok {
			errorf(e.Line, "outputs: tool %s: the target lists no such tool (it lists %s)", e.Name, strings.Join(names, ", "))
		}
	}
	if err := es.err(); err != nil {
		return nil, err
	}
	return out, nil
}

// properties decodes a JSON schema and returns it with its properties.
func properties(raw json.RawMessage) (map[string]any, map[string]any, error) {
	if len(raw) == 0 {
		return map[string]any{}, nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var schema map[string]any
	if err := dec.Decode(&schema); err != nil {
		return nil, nil, err
	}
	props, _ := schema["properties"].(map[string]any)
	return schema, props, nil
}

// Hash returns the SHA-256, hex-encoded, of the overlay's content in a
// canonical form: two files that make the same edits hash the same,
// whatever their layout and comments. A file without outputs: hashes as
// it did before output overlays were read.
func (o *Overlay) Hash() string {
	type param struct {
		Name        string `json:"name"`
		Description string `json:"description"`
	}
	type tool struct {
		Name        string  `json:"name"`
		Description *string `json:"description,omitempty"`
		Params      []param `json:"params,omitempty"`
	}
	var ts []tool
	for _, t := range o.Tools {
		c := tool{Name: t.Name}
		if t.HasDescription {
			d := t.Description
			c.Description = &d
		}
		for _, p := range t.Params {
			c.Params = append(c.Params, param{p.Name, p.Description})
		}
		sort.Slice(c.Params, func(i, j int) bool { return c.Params[i].Name < c.Params[j].Name })
		ts = append(ts, c)
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i].Name < ts[j].Name })
	b, _ := json.Marshal(ts)
	if len(o.Outputs) > 0 {
		var outs []any
		for _, e := range slices.SortedFunc(slices.Values(o.Outputs), func(a, b Output) int { return strings.Compare(a.Name, b.Name) }) {
			outs = append(outs, e.canonical())
		}
		b, _ = json.Marshal(map[string]any{"tools": json.RawMessage(b), "outputs": outs})
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Info names the overlay for a record, with each tool its outputs: edit.
func (o *Overlay) Info() *record.Overlay {
	info := &record.Overlay{Path: o.Path, Hash: o.Hash()}
	for _, e := range o.Outputs {
		info.Outputs = append(info.Outputs, record.OutputOverlay{Tool: e.Name, Hash: e.Hash(), Edits: e.Summary()})
	}
	return info
}
