package overlay

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v4"
)

// The edits of an output overlay are a fixed, small language rather than
// Go's text/template: a template that could call methods would make the
// linker keep every exported method of the binary reachable by name, and
// a person editing a response format needs paths and a handful of edits,
// not a programming language. Each edit names dotted paths into the
// result (the same paths a key's produced: and a preflight's expect name);
// a segment that meets a list applies to every item, unless it is a
// number, which picks one.

// Output is the output overlay of one tool: the edits made to what it
// returns before the model is shown it. They apply in this order,
// whatever the order in the file: Rename, Drop, Limit, Units, Keep, then
// Text; a path after a rename names the new key.
type Output struct {
	Name string
	// Rename renames the key at each path to a new name, in its place.
	Rename []Pair
	// Drop removes the value at each path.
	Drop []string
	// Limit keeps the first N items of the list at each path.
	Limit []Limit
	// Units writes the value at each path as text followed by a unit:
	// 2394755 becomes "2394755 SGD".
	Units []Pair
	// Keep, when set, keeps only these keys of the result's top-level
	// object (of each object when the result is a list), in this order.
	Keep []string
	// Text, when set, is the text the model is shown: {PATH} is replaced
	// by the value at PATH of the edited result, {$text} by the text the
	// server returned, {{ and }} by a brace.
	Text    string
	HasText bool
	// Line is where the tool is named in the file.
	Line int
}

// Pair is a path and the text an edit gives it (a new key name, a unit).
type Pair struct {
	Path, To string
}

// Limit is a path to a list and how many of its items to keep.
type Limit struct {
	Path string
	N    int
}

// structural reports whether the edit changes the result's content, not
// only its text.
func (e *Output) structural() bool {
	return len(e.Rename)+len(e.Drop)+len(e.Limit)+len(e.Units)+len(e.Keep) > 0
}

// outputs reads the outputs: mapping of the file.
func (p *parser) outputs(n *yaml.Node) []Output {
	if n.Kind != yaml.MappingNode || len(n.Content) == 0 {
		p.errorf(n.Line, "outputs: want a mapping from tool names to their result edits")
		return nil
	}
	var outs []Output
	seen := map[string]int{}
	for k, v := range pairs(n) {
		if o, ok := p.output(k, v, seen); ok {
			outs = append(outs, o)
		}
	}
	return outs
}

const outputFields = "rename, drop, limit, units, keep or text"

func (p *parser) output(k, v *yaml.Node, seen map[string]int) (Output, bool) {
	o := Output{Name: k.Value, Line: k.Line}
	if !p.toolEntry("outputs: ", k, v, seen, outputFields) {
		return o, false
	}
	errsBefore := len(p.es)
	where := "outputs: tool " + o.Name
	for fk, fv := range pairs(v) {
		switch fk.Value {
		case "rename":
			o.Rename = p.pairs(where+": rename", fv, "its new key name", true)
		case "units":
			o.Units = p.pairs(where+": units", fv, "its unit", false)
		case "drop":
			o.Drop = p.paths(where+": drop", fv)
		case "keep":
			o.Keep = p.paths(where+": keep", fv)
			for _, k := range o.Keep {
				if strings.Contains(k, ".") {
					p.errorf(fv.Line, "%s: keep: %s: keep names keys of the top-level object, not paths", where, k)
				}
			}
		case "limit":
			for lk, lv := range pairs(mappingOr(p, where+": limit", fv)) {
				n, err := strconv.Atoi(lv.Value)
				if lv.Kind != yaml.ScalarNode || err != nil || n < 0 {
					p.errorf(lv.Line, "%s: limit: %s: want how many items to keep, a whole number from 0", where, lk.Value)
					continue
				}
				if p.path(where+": limit", lk) {
					o.Limit = append(o.Limit, Limit{Path: lk.Value, N: n})
				}
			}
		case "text":
			t, ok := text(fv)
			if !ok {
				p.errorf(fv.Line, "%s: text: want text", where)
				continue
			}
			if err := checkTemplate(t); err != nil {
				p.errorf(fv.Line, "%s: text: %v", where, err)
				continue
			}
			o.Text, o.HasText = t, true
		default:
			p.errorf(fk.Line, "%s: unknown field %q: want %s", where, fk.Value, outputFields)
		}
	}
	if len(p.es) > errsBefore {
		return o, false
	}
	if !o.structural() && !o.HasText {
		p.errorf(k.Line, "%s changes nothing: want %s", where, outputFields)
		return o, false
	}
	return o, true
}

// mappingOr returns n when it is a mapping, else reports it and returns an
// empty mapping.
func mappingOr(p *parser, where string, n *yaml.Node) *yaml.Node {
	if n.Kind != yaml.MappingNode {
		p.errorf(n.Line, "%s: want a mapping from paths", where)
		return &yaml.Node{}
	}
	return n
}

// pairs reads a mapping from paths to text; name says whether the text is
// a key name (no dots).
func (p *parser) pairs(where string, n *yaml.Node, what string, name bool) []Pair {
	var ps []Pair
	for k, v := range pairs(mappingOr(p, where, n)) {
		if !p.path(where, k) {
			continue
		}
		t, ok := text(v)
		if !ok || strings.TrimSpace(t) == "" || name && strings.Contains(t, ".") {
			p.errorf(v.Line, "%s: %s: want %s as text%s", where, k.Value, what, map[bool]string{true: ", without dots"}[name])
			continue
		}
		ps = append(ps, Pair{Path: k.Value, To: t})
	}
	return ps
}

// paths reads a list of paths.
func (p *parser) paths(where string, n *yaml.Node) []string {
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		p.errorf(n.Line, "%s: want a list of paths", where)
		return nil
	}
	var out []string
	for _, e := range n.Content {
		if p.path(where, e) {
			out = append(out, e.Value)
		}
	}
	return out
}

// path checks that n is a dotted path with no empty segment.
func (p *parser) path(where string, n *yaml.Node) bool {
	if n.Kind != yaml.ScalarNode || n.Value == "" || slices.Contains(strings.Split(n.Value, "."), "") {
		p.errorf(n.Line, "%s: %q is not a path: want keys joined by dots (accounts.balance)", where, n.Value)
		return false
	}
	return true
}

// checkTemplate reports a brace that opens no placeholder or closes none.
func checkTemplate(t string) error {
	_, err := render(t, nil, "")
	return err
}

// render writes template t over the edited result doc; serverText is what
// {$text} stands for. A path that reaches nothing is written as nothing.
func render(t string, doc *jvalue, serverText string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case c == '{' && strings.HasPrefix(t[i:], "{{"), c == '}' && strings.HasPrefix(t[i:], "}}"):
			b.WriteByte(c)
			i++
		case c == '{':
			end := strings.IndexByte(t[i:], '}')
			if end < 0 {
				return "", fmt.Errorf("the { at byte %d is never closed (write {{ for a brace)", i+1)
			}
			name := t[i+1 : i+end]
			if name == "" || strings.ContainsAny(name, "{ ") {
				return "", fmt.Errorf("{%s} at byte %d is not a placeholder: want {PATH} or {$text} (write {{ for a brace)", name, i+1)
			}
			if name == "$text" {
				b.WriteString(serverText)
			} else if doc != nil {
				var vs []string
				for _, v := range doc.find(strings.Split(name, ".")) {
					vs = append(vs, v.plain())
				}
				b.WriteString(strings.Join(vs, ", "))
			}
			i += end
		case c == '}':
			return "", fmt.Errorf("the } at byte %d closes nothing (write }} for a brace)", i+1)
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}

// Rewrite returns a tool's result as the output overlay has the model
// shown it: its text and structured content, and whether either differs
// from what the server returned. It leaves a result alone when the
// overlay does not name the tool (by any of names: the name the model is
// shown, and SERVER/TOOL of one of several servers). The edits read the
// structured content, else the text when it is JSON; an edit of the
// content also replaces the text with the edited content as JSON (the
// form the MCP specification has a server return it in), unless the
// overlay gives text:. A path that reaches nothing is left alone.
func (o *Overlay) Rewrite(text string, structured json.RawMessage, names ...string) (string, json.RawMessage, bool) {
	e := o.output(names...)
	if e == nil {
		return text, structured, false
	}
	src, fromText := []byte(structured), false
	if len(src) == 0 {
		src, fromText = []byte(text), true
	}
	doc, err := parseJSON(src)
	if err != nil {
		doc = nil
	}
	newText, newStructured := text, structured
	if doc != nil && e.structural() {
		for _, r := range e.Rename {
			doc.edit(r.Path, func(parent *jvalue, i int) {
				if parent.kind == '{' {
					parent.keys[i] = r.To
				}
			})
		}
		for _, d := range e.Drop {
			doc.edit(d, func(parent *jvalue, i int) { parent.remove(i) })
		}
		for _, l := range e.Limit {
			for _, v := range doc.find(strings.Split(l.Path, ".")) {
				if v.kind == '[' && len(v.vals) > l.N {
					v.vals = v.vals[:l.N]
				}
			}
		}
		for _, u := range e.Units {
			for _, v := range doc.find(strings.Split(u.Path, ".")) {
				if v.kind == 0 {
					s, _ := json.Marshal(v.plain() + " " + u.To)
					v.raw = s
				}
			}
		}
		if len(e.Keep) > 0 {
			doc.keep(e.Keep)
		}
		edited := doc.encode()
		newText = string(edited)
		if !fromText {
			newStructured = edited
		}
	}
	if e.HasText {
		newText, _ = render(e.Text, doc, text)
	}
	changed := newText != text || !bytes.Equal(newStructured, structured)
	return newText, newStructured, changed
}

func (o *Overlay) output(names ...string) *Output {
	for i := range o.Outputs {
		for _, n := range names {
			if n != "" && o.Outputs[i].Name == n {
				return &o.Outputs[i]
			}
		}
	}
	return nil
}

// canonical is the output edit in the form its hash is taken of.
func (e *Output) canonical() any {
	type pair struct {
		Path string `json:"path"`
		To   string `json:"to"`
	}
	type limit struct {
		Path string `json:"path"`
		N    int    `json:"n"`
	}
	ps := func(in []Pair) []pair {
		var out []pair
		for _, p := range in {
			out = append(out, pair(p))
		}
		return out
	}
	var ls []limit
	for _, l := range e.Limit {
		ls = append(ls, limit(l))
	}
	var t *string
	if e.HasText {
		s := e.Text
		t = &s
	}
	return struct {
		Name   string   `json:"name"`
		Rename []pair   `json:"rename,omitempty"`
		Drop   []string `json:"drop,omitempty"`
		Limit  []limit  `json:"limit,omitempty"`
		Units  []pair   `json:"units,omitempty"`
		Keep   []string `json:"keep,omitempty"`
		Text   *string  `json:"text,omitempty"`
	}{e.Name, ps(e.Rename), e.Drop, ls, ps(e.Units), e.Keep, t}
}

// Hash returns the SHA-256, hex-encoded, of the edit in a canonical form.
func (e *Output) Hash() string {
	b, _ := json.Marshal(e.canonical())
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Summary says in a few words what the edit does: "rename
// net_worth_sgd→total; drop account_count".
func (e *Output) Summary() string {
	var parts []string
	list := func(verb string, items []string) {
		if len(items) > 0 {
			parts = append(parts, verb+" "+strings.Join(items, ", "))
		}
	}
	var rn, un, li []string
	for _, r := range e.Rename {
		rn = append(rn, r.Path+"→"+r.To)
	}
	for _, u := range e.Units {
		un = append(un, u.Path+" "+u.To)
	}
	for _, l := range e.Limit {
		li = append(li, fmt.Sprintf("%s to %d", l.Path, l.N))
	}
	list("rename", rn)
	list("drop", e.Drop)
	list("limit", li)
	list("units", un)
	list("keep", e.Keep)
	if e.HasText {
		parts = append(parts, "text")
	}
	return strings.Join(parts, "; ")
}

// jvalue is a JSON value that keeps the order of an object's keys, so that
// an edited result reads in the order the server (or keep:) put it.
type jvalue struct {
	kind byte // '{' object, '[' list, 0 any other value (raw)
	keys []string
	vals []*jvalue
	raw  json.RawMessage
}

// parseJSON reads one JSON object or list; anything else is not a
// document the edits apply to.
func parseJSON(b []byte) (*jvalue, error) {
	t := bytes.TrimSpace(b)
	if len(t) == 0 || t[0] != '{' && t[0] != '[' {
		return nil, fmt.Errorf("not a JSON object or list")
	}
	dec := json.NewDecoder(bytes.NewReader(t))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("more than one JSON value")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder) (*jvalue, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		v := &jvalue{kind: '{'}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			k, _ := kt.(string)
			e, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			v.keys, v.vals = append(v.keys, k), append(v.vals, e)
		}
		_, err := dec.Token()
		return v, err
	case json.Delim('['):
		v := &jvalue{kind: '['}
		for dec.More() {
			e, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			v.vals = append(v.vals, e)
		}
		_, err := dec.Token()
		return v, err
	}
	raw, err := json.Marshal(tok)
	return &jvalue{raw: raw}, err
}

// encode writes the value as compact JSON.
func (v *jvalue) encode() []byte {
	var b bytes.Buffer
	v.write(&b)
	return b.Bytes()
}

func (v *jvalue) write(b *bytes.Buffer) {
	switch v.kind {
	case '{':
		b.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			kb, _ := json.Marshal(k)
			b.Write(kb)
			b.WriteByte(':')
			v.vals[i].write(b)
		}
		b.WriteByte('}')
	case '[':
		b.WriteByte('[')
		for i, e := range v.vals {
			if i > 0 {
				b.WriteByte(',')
			}
			e.write(b)
		}
		b.WriteByte(']')
	default:
		b.Write(v.raw)
	}
}

// plain is the value as a person reads it in text: a string without its
// quotes, any other value as JSON.
func (v *jvalue) plain() string {
	if v.kind == 0 {
		var s string
		if json.Unmarshal(v.raw, &s) == nil {
			return s
		}
		return string(v.raw)
	}
	return string(v.encode())
}

// find returns the values at path; a key segment that meets a list goes
// into every item.
func (v *jvalue) find(path []string) []*jvalue {
	if len(path) == 0 {
		return []*jvalue{v}
	}
	var out []*jvalue
	v.parents(path, func(parent *jvalue, i int) { out = append(out, parent.vals[i]) })
	return out
}

// parents calls fn with the container holding the last segment of path
// and its index there, for every place path reaches.
func (v *jvalue) parents(path []string, fn func(parent *jvalue, i int)) {
	seg, rest := path[0], path[1:]
	switch v.kind {
	case '{':
		for i, k := range v.keys {
			if k != seg {
				continue
			}
			if len(rest) == 0 {
				fn(v, i)
			} else {
				v.vals[i].parents(rest, fn)
			}
			return
		}
	case '[':
		if n, err := strconv.Atoi(seg); err == nil {
			if n >= 0 && n < len(v.vals) {
				if len(rest) == 0 {
					fn(v, n)
				} else {
					v.vals[n].parents(rest, fn)
				}
			}
			return
		}
		for _, e := range v.vals {
			e.parents(path, fn)
		}
	}
}

// edit calls fn for each place the dotted path reaches, last first, so
// that a removal leaves the indexes still to come in place.
func (v *jvalue) edit(path string, fn func(parent *jvalue, i int)) {
	type at struct {
		parent *jvalue
		i      int
	}
	var found []at
	v.parents(strings.Split(path, "."), func(parent *jvalue, i int) { found = append(found, at{parent, i}) })
	for j := len(found) - 1; j >= 0; j-- {
		fn(found[j].parent, found[j].i)
	}
}

func (v *jvalue) remove(i int) {
	if v.kind == '{' {
		v.keys = append(v.keys[:i], v.keys[i+1:]...)
	}
	v.vals = append(v.vals[:i], v.vals[i+1:]...)
}

// keep keeps only the keys named, in their order, of the object (of each
// object item of a list).
func (v *jvalue) keep(keys []string) {
	switch v.kind {
	case '[':
		for _, e := range v.vals {
			if e.kind == '{' {
				e.keep(keys)
			}
		}
	case '{':
		var nk []string
		var nv []*jvalue
		for _, k := range keys {
			for i, have := range v.keys {
				if have == k {
					nk, nv = append(nk, k), append(nv, v.vals[i])
					break
				}
			}
		}
		v.keys, v.vals = nk, nv
	}
}
