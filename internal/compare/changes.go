package compare

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpeval/mcpeval/internal/report/format"
	"github.com/mcpeval/mcpeval/record"
)

// changes lists what differs between the headers, in a fixed order.
func (c *Comparison) changes(b, n *record.Header) {
	add := func(what, base, nw string) {
		if base != nw {
			c.Changes = append(c.Changes, Change{What: what, Base: base, New: nw})
		}
	}
	add("model", modelName(b), modelName(n))
	add("surface", surfaceName(b), surfaceName(n))
	for _, k := range optionKeys(b.Model.Options, n.Model.Options) {
		add("option "+k, optionValue(b.Model.Options, k), optionValue(n.Model.Options, k))
	}
	add("system prompt", b.SystemPrompt, n.SystemPrompt)

	if b.ToolsHash != n.ToolsHash || !sameTools(b.Tools, n.Tools) {
		c.Tools = diffTools(b.Tools, n.Tools)
		add("tools", toolsLabel(b.Tools, b.ToolsHash), toolsLabel(n.Tools, n.ToolsHash))
	}
	bs, ns := serverTools(b), serverTools(n)
	if b.Overlay != nil || n.Overlay != nil {
		if sameTools(bs, ns) {
			c.OverlayOnly = len(c.Tools) > 0
		} else {
			c.ServerTools = diffTools(bs, ns)
			add("server tools", toolsLabel(bs, serverHash(b)), toolsLabel(ns, serverHash(n)))
		}
	}
	add("overlay", overlayLabel(b.Overlay), overlayLabel(n.Overlay))
	for _, tool := range outputTools(b.Overlay, n.Overlay) {
		add("output overlay on "+tool, outputLabel(b.Overlay, tool), outputLabel(n.Overlay, tool))
	}
	add("suite", suiteLabel(b.Suite), suiteLabel(n.Suite))

	bc, nc := plannedCases(b.Planned), plannedCases(n.Planned)
	for _, id := range nc.order {
		if _, ok := bc.n[id]; !ok {
			c.CasesAdded = append(c.CasesAdded, id)
		}
	}
	for _, id := range bc.order {
		if _, ok := nc.n[id]; !ok {
			c.CasesRemoved = append(c.CasesRemoved, id)
		}
	}
	if len(c.CasesAdded)+len(c.CasesRemoved) > 0 {
		add("cases", casesLabel(len(bc.order), nil, c.CasesRemoved), casesLabel(len(nc.order), c.CasesAdded, nil))
	}
	add("attempts", attemptsLabel(bc, len(b.Planned)), attemptsLabel(nc, len(n.Planned)))
	add("dataset", orNone(b.Dataset), orNone(n.Dataset))
	add("filter", orNone(joinNonEmpty("; ", b.Filter, shardLabel(b.Shard))), orNone(joinNonEmpty("; ", n.Filter, shardLabel(n.Shard))))
	add("target", targetLabel(b.Target), targetLabel(n.Target))
	add("turn cap", strconv.Itoa(b.TurnCap), strconv.Itoa(n.TurnCap))
	add("concurrency", strconv.Itoa(b.Concurrency), strconv.Itoa(n.Concurrency))
	add("target pool", poolLabel(b.TargetPool), poolLabel(n.TargetPool))
	if b.InFlight != nil && n.InFlight != nil {
		add("model requests in flight", inFlightLabel(b.InFlight), inFlightLabel(n.InFlight))
	}
	add("mcpeval", buildLabel(b.Tool), buildLabel(n.Tool))
}

// poolLabel names how many target connections the attempts shared: none
// when each concurrency slot had its own.
func poolLabel(n int) string {
	if n == 0 {
		return "none shared"
	}
	return strconv.Itoa(n)
}

// inFlightLabel says how the model requests in flight were limited.
func inFlightLabel(f *record.InFlight) string {
	if f.Adaptive {
		return "adaptive"
	}
	return "fixed"
}

// surfaceName names the surface of the suite a run measured; none for a
// suite without surfaces.
func surfaceName(h *record.Header) string {
	if h.Surface == nil {
		return "none"
	}
	return h.Surface.Name
}

func modelName(h *record.Header) string {
	m := h.Model
	if m.Provider != "" && m.Name != "" {
		return m.Provider + ":" + m.Name
	}
	return m.Spec
}

// optionKeys returns the option names either run set, effort first.
func optionKeys(a, b map[string]string) []string {
	keys := unionKeys(a, b)
	if i := slices.Index(keys, "effort"); i > 0 {
		copy(keys[1:i+1], keys[:i])
		keys[0] = "effort"
	}
	return keys
}

func optionValue(m map[string]string, k string) string {
	if v, ok := m[k]; ok {
		return v
	}
	return "(unset)"
}

func serverTools(h *record.Header) []record.Tool {
	if h.Overlay != nil || len(h.ServerTools) > 0 {
		return h.ServerTools
	}
	return h.Tools
}

func serverHash(h *record.Header) string {
	if h.Overlay != nil || len(h.ServerTools) > 0 {
		return h.ServerToolsHash
	}
	return h.ToolsHash
}

func toolsLabel(ts []record.Tool, hash string) string {
	return fmt.Sprintf("%s, hash %s", format.N(len(ts), "tool"), format.Hash(hash))
}

func overlayLabel(o *record.Overlay) string {
	if o == nil {
		return "none"
	}
	return fmt.Sprintf("%s (hash %s)", o.Path, format.Hash(o.Hash))
}

// outputTools lists the tools either run's overlay rewrote the results
// of, the base's first.
func outputTools(overlays ...*record.Overlay) []string {
	var tools []string
	for _, o := range overlays {
		if o == nil {
			continue
		}
		for _, e := range o.Outputs {
			if !slices.Contains(tools, e.Tool) {
				tools = append(tools, e.Tool)
			}
		}
	}
	return tools
}

// outputLabel names an overlay's edit of a tool's results: what it does
// and its hash, or none.
func outputLabel(o *record.Overlay, tool string) string {
	if o != nil {
		for _, e := range o.Outputs {
			if e.Tool == tool {
				return fmt.Sprintf("%s (hash %s)", e.Edits, format.Hash(e.Hash))
			}
		}
	}
	return "none"
}

func suiteLabel(s record.SuiteInfo) string {
	return fmt.Sprintf("%s (%d cases, hash %s)", s.Name, s.Cases, format.Hash(s.Hash))
}

func targetLabel(t record.TargetInfo) string {
	s := t.Spec
	if t.Server.Name != "" {
		s += fmt.Sprintf(" (%s %s)", t.Server.Name, t.Server.Version)
	}
	return s
}

func buildLabel(b record.Build) string {
	s := b.Version
	if b.Commit != "" {
		s += " " + format.Hash(b.Commit)
	}
	if b.Dirty {
		s += " (dirty)"
	}
	return s
}

func shardLabel(s *record.Shard) string {
	if s == nil {
		return ""
	}
	return fmt.Sprintf("shard %d/%d", s.K, s.N)
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// caseCounts counts planned attempts per case, in plan order.
type caseCounts struct {
	order []string
	n     map[string]int
}

func plannedCases(ps []record.Planned) caseCounts {
	cc := caseCounts{n: map[string]int{}}
	for _, p := range ps {
		if _, ok := cc.n[p.Case]; !ok {
			cc.order = append(cc.order, p.Case)
		}
		cc.n[p.Case]++
	}
	return cc
}

func casesLabel(n int, added, removed []string) string {
	s := format.N(n, "case")
	if len(added) > 0 {
		s += fmt.Sprintf(", %d added", len(added))
	}
	if len(removed) > 0 {
		s += fmt.Sprintf(", %d removed", len(removed))
	}
	return s
}

func attemptsLabel(cc caseCounts, total int) string {
	lo, hi := 0, 0
	for i, id := range cc.order {
		k := cc.n[id]
		if i == 0 || k < lo {
			lo = k
		}
		hi = max(hi, k)
	}
	per := strconv.Itoa(lo)
	if lo != hi {
		per = fmt.Sprintf("%d–%d", lo, hi)
	}
	return fmt.Sprintf("%s per case, %d planned", per, total)
}

func sameTools(a, b []record.Tool) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}

// diffTools compares two tool lists by name: tools added, removed, and
// for each tool in both, every field that differs, the input schema
// compared leaf by leaf.
func diffTools(base, nw []record.Tool) []ToolDiff {
	bm := map[string]record.Tool{}
	for _, t := range base {
		bm[t.Name] = t
	}
	nm := map[string]bool{}
	var out []ToolDiff
	for _, t := range nw {
		nm[t.Name] = true
		b, ok := bm[t.Name]
		if !ok {
			out = append(out, ToolDiff{Tool: t.Name, Kind: "added"})
			continue
		}
		if fs := diffTool(b, t); len(fs) > 0 {
			out = append(out, ToolDiff{Tool: t.Name, Kind: "changed", Fields: fs})
		}
	}
	for _, t := range base {
		if !nm[t.Name] {
			out = append(out, ToolDiff{Tool: t.Name, Kind: "removed"})
		}
	}
	return out
}

func diffTool(b, n record.Tool) []FieldDiff {
	var fs []FieldDiff
	add := func(field, bv, nv string) {
		if bv != nv {
			fs = append(fs, FieldDiff{Field: field, Base: bv, New: nv})
		}
	}
	add("title", b.Title, n.Title)
	add("description", b.Description, n.Description)
	add("read_only", boolLabel(b.ReadOnly), boolLabel(n.ReadOnly))
	add("destructive", boolLabel(b.Destructive), boolLabel(n.Destructive))
	bl, nl := leaves(b.InputSchema), leaves(n.InputSchema)
	for _, k := range unionKeys(bl, nl) {
		add("input_schema."+k, bl[k], nl[k])
	}
	return fs
}

func boolLabel(v bool) string {
	if v {
		return "true"
	}
	return ""
}

// leaves flattens a JSON schema into dotted paths and their values:
// strings as they are, arrays and other values as JSON.
func leaves(raw json.RawMessage) map[string]string {
	out := map[string]string{}
	if len(raw) == 0 {
		return out
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		out["(raw)"] = string(raw)
		return out
	}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch v := v.(type) {
		case map[string]any:
			if len(v) == 0 && prefix != "" {
				out[prefix] = "{}"
			}
			for k, x := range v {
				p := k
				if prefix != "" {
					p = prefix + "." + k
				}
				walk(p, x)
			}
		case string:
			out[prefix] = v
		default:
			b, _ := json.Marshal(v)
			out[prefix] = string(b)
		}
	}
	walk("", v)
	return out
}

// unionKeys returns the keys of a and b together, sorted.
func unionKeys(a, b map[string]string) []string {
	set := map[string]bool{}
	for k := range a {
		set[k] = true
	}
	for k := range b {
		set[k] = true
	}
	return slices.Sorted(maps.Keys(set))
}

// HasChanges reports whether the runs differ in anything but their ids,
// times and results.
func (c *Comparison) HasChanges() bool { return len(c.Changes) > 0 }

// describeChange is a change's one-line reading for text reports.
func describeChange(ch Change) (base, nw string) {
	base, nw = ch.Base, ch.New
	if ch.What == "system prompt" {
		base, nw = clip(base, 60), clip(nw, 60)
	}
	if base == "" {
		base = "(none)"
	}
	if nw == "" {
		nw = "(none)"
	}
	return base, nw
}

func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
