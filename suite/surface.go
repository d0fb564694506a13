package suite

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v4"
)

// Surface is one presentation of the same capabilities: the server as
// started with other flags, say, or behind a few meta-tools that take an
// action argument. Cases name canonical actions, the tools and arguments
// of the suite's canonical surface (the one with no Map); every other
// surface maps each canonical tool to its own tool and the arguments that
// select it, so that one corpus and one key grade every surface.
//
// A call on a mapped surface reads back as the canonical action it maps
// to: with the Map entry create_container: {tool: containers, args:
// {action: create}}, the call containers{action: create, name: web} is
// the canonical create_container{name: web}.
//
// A search surface (Kind SurfaceSearch) shows the model none of the
// server's tools: the harness serves three tools of its own over them
// (search_tools, describe_tool, call_tool), and a call_tool{name: X,
// arguments: A} reads back as the canonical X(A). It has no map.
type Surface struct {
	// Name names the surface in records and reports ("individual", "meta").
	Name string `yaml:"name"`
	// Description says what the surface is, for reports.
	Description string `yaml:"description,omitempty"`
	// Target is the server presenting this surface; the suite's target
	// when empty (only the canonical surface may leave it out).
	Target Target `yaml:"target,omitempty"`
	// Map maps each canonical tool to the surface's tool and the fixed
	// arguments that select it. The canonical surface has none.
	Map map[string]SurfaceCall `yaml:"map,omitempty"`
	// Kind is SurfaceSearch for a search surface; empty for the canonical
	// surface and a mapped one.
	Kind string `yaml:"kind,omitempty"`
	// TurnCap, when set, is the turn cap of every attempt on the surface:
	// it takes the place of the suite's turn_cap and of each action
	// case's own cap (a search surface takes three turns for a call where
	// another takes one). A turn cap given on the command line still wins
	// over it for the cases that are not action cases.
	TurnCap int `yaml:"turn_cap,omitempty"`

	// Line locates the surface in its file; lines the entries of Map.
	Line  int            `yaml:"-"`
	file  string         // the file it was read from
	lines map[string]int // canonical tool -> line of its Map entry
	// turnCapLine is the line of a turn_cap that was written, 0 when none.
	turnCapLine int
}

// SurfaceSearch is the Kind of a search surface.
const SurfaceSearch = "search"

// The tools the harness shows the model on a search surface, over the
// server's own.
const (
	// SearchToolsTool finds the server's tools by words.
	SearchToolsTool = "search_tools"
	// DescribeToolTool gives a tool's description and input schema.
	DescribeToolTool = "describe_tool"
	// CallToolTool calls a tool of the server by name with its arguments.
	CallToolTool = "call_tool"
)

// Search reports whether sf is a search surface.
func (sf *Surface) Search() bool { return sf != nil && sf.Kind == SurfaceSearch }

// SurfaceCall is where a canonical tool lives on a surface: the surface's
// tool, and the fixed arguments that select the action on it.
type SurfaceCall struct {
	// Tool is the surface's tool.
	Tool string `yaml:"tool"`
	// Args are added to the canonical arguments on the way to the surface,
	// and must all be present (with these values) for a surface call to
	// read back as this canonical tool. A key is a dotted path of object
	// keys: "params.action" is the action member of the params argument.
	Args map[string]any `yaml:"args,omitempty"`
	// Under, when set, is the dotted path of the object argument the
	// canonical arguments go into ("params" for a meta-tool taking
	// {action, params: {...}}); empty puts them beside the fixed ones.
	Under string `yaml:"under,omitempty"`
}

// UnmarshalYAML reads a surface and remembers the lines of it and of its
// map's entries.
func (sf *Surface) UnmarshalYAML(n *yaml.Node) error {
	type plain Surface
	if err := n.Load((*plain)(sf), yaml.WithKnownFields()); err != nil {
		return friendlyErr(err, "a surface (want name, description, kind, target, map, turn_cap)", sf)
	}
	sf.Line = n.Line
	if tc := mapValue(n, "turn_cap"); tc != nil {
		sf.turnCapLine = tc.Line
	}
	if m := mapValue(n, "map"); m != nil && m.Kind == yaml.MappingNode {
		sf.lines = map[string]int{}
		for i := 0; i+1 < len(m.Content); i += 2 {
			sf.lines[m.Content[i].Value] = m.Content[i].Line
		}
	}
	return nil
}

// Canonical reports whether sf has no map: its calls name canonical
// tools as they are. That is the canonical surface, whose tools the cases
// name (Suite.CanonicalSurface), and a search surface, whose call_tool
// names them.
func (sf *Surface) Canonical() bool { return len(sf.Map) == 0 }

// Forward returns the call on surface sf of the canonical tool with args:
// the surface's tool, with the canonical arguments under the entry's
// Under path (or at the top) and the map's fixed arguments set at their
// paths. A tool the map does not name, and any tool of the canonical
// surface (or a nil sf), is returned as it is. args is not changed.
func (sf *Surface) Forward(tool string, args map[string]any) (string, map[string]any) {
	if sf == nil {
		return tool, args
	}
	to, ok := sf.Map[tool]
	if !ok {
		return tool, args
	}
	out := maps.Clone(args)
	if out == nil {
		out = map[string]any{}
	}
	if to.Under != "" {
		out = withPath(map[string]any{}, SplitPath(to.Under), out)
	}
	for _, k := range slices.Sorted(maps.Keys(to.Args)) {
		out = withPath(out, SplitPath(k), to.Args[k])
	}
	return to.Tool, out
}

// withPath returns m with val at the path segs, copying every object
// along the path so that m itself is not changed.
func withPath(m map[string]any, segs []string, val any) map[string]any {
	out := maps.Clone(m)
	if out == nil {
		out = map[string]any{}
	}
	if len(segs) == 1 {
		out[segs[0]] = val
		return out
	}
	next, _ := out[segs[0]].(map[string]any)
	out[segs[0]] = withPath(next, segs[1:], val)
	return out
}

// withoutPath returns m without the value at the path segs, copying every
// object along the path, and dropping an object the removal left empty.
func withoutPath(m map[string]any, segs []string) map[string]any {
	next, ok := m[segs[0]]
	if !ok {
		return m
	}
	out := maps.Clone(m)
	if len(segs) == 1 {
		delete(out, segs[0])
		return out
	}
	inner, isObj := next.(map[string]any)
	if !isObj {
		return m
	}
	if rest := withoutPath(inner, segs[1:]); len(rest) > 0 {
		out[segs[0]] = rest
	} else {
		delete(out, segs[0])
	}
	return out
}

// pathValue returns the value at the path segs of m, through objects only.
func pathValue(m map[string]any, segs []string) (any, bool) {
	var cur any = m
	for _, seg := range segs {
		obj, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = obj[seg]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// Back returns the canonical tool a call of tool with args on surface sf
// is, and its canonical arguments (args without the map's fixed ones). ok
// is false when no entry of the map matches: the call is no canonical
// action (a meta-tool called with an action it does not have, say). Of two
// entries that match, the one with more fixed arguments wins. On the
// canonical surface every call is itself.
func (sf *Surface) Back(tool string, args map[string]any) (canonical string, cargs map[string]any, ok bool) {
	if sf == nil || sf.Canonical() {
		return tool, args, true
	}
	best, bestN := "", -1
	for _, c := range sf.sortedCanonical() {
		to := sf.Map[c]
		if to.Tool != tool || len(to.Args) <= bestN {
			continue
		}
		match := true
		for k, v := range to.Args {
			got, has := pathValue(args, SplitPath(k))
			if !has || !SameValue(got, v) {
				match = false
				break
			}
		}
		if match {
			best, bestN = c, len(to.Args)
		}
	}
	if bestN < 0 {
		return tool, args, false
	}
	to := sf.Map[best]
	rest := maps.Clone(args)
	if rest == nil {
		rest = map[string]any{}
	}
	for k := range to.Args {
		rest = withoutPath(rest, SplitPath(k))
	}
	if to.Under == "" {
		return best, rest, true
	}
	// The arguments under the path, with any beside it kept as they are.
	under := SplitPath(to.Under)
	inner, _ := pathValue(rest, under)
	cargs, _ = inner.(map[string]any)
	cargs = maps.Clone(cargs)
	if cargs == nil {
		cargs = map[string]any{}
	}
	for k, v := range withoutPath(rest, under) {
		if _, dup := cargs[k]; !dup {
			cargs[k] = v
		}
	}
	return best, cargs, true
}

// sortedCanonical lists the canonical tools the map names, sorted.
func (sf *Surface) sortedCanonical() []string {
	return slices.Sorted(maps.Keys(sf.Map))
}

// SurfaceTools returns the surface's own tools that stand for canonical
// tools, sorted, each once.
func (sf *Surface) SurfaceTools() []string {
	seen := map[string]bool{}
	var out []string
	for _, c := range sf.Map {
		if !seen[c.Tool] {
			seen[c.Tool] = true
			out = append(out, c.Tool)
		}
	}
	sort.Strings(out)
	return out
}

// Surface returns the suite's surface of the given name, or nil.
func (s *Suite) Surface(name string) *Surface {
	for _, sf := range s.Surfaces {
		if sf.Name == name {
			return sf
		}
	}
	return nil
}

// SurfaceNames lists the suite's surfaces in the order declared.
func (s *Suite) SurfaceNames() []string {
	var names []string
	for _, sf := range s.Surfaces {
		names = append(names, sf.Name)
	}
	return names
}

// CanonicalSurface returns the suite's canonical surface (the one with no
// map that is no search surface), or nil when the suite declares no
// surfaces.
func (s *Suite) CanonicalSurface() *Surface {
	for _, sf := range s.Surfaces {
		if sf.Canonical() && !sf.Search() {
			return sf
		}
	}
	return nil
}

// SurfaceTarget returns the target of surface sf: its own, else, for a
// search surface, the canonical surface's, else the suite's.
func (s *Suite) SurfaceTarget(sf *Surface) Target {
	if sf == nil || (sf.Target.Spec == "" && sf.Target.From == "") {
		if c := s.CanonicalSurface(); sf.Search() && c != nil {
			return s.SurfaceTarget(c)
		}
		return s.Target
	}
	return sf.Target
}

// checkSurfaces checks the suite's surfaces, in the suite settings file
// (data): each named once; exactly one canonical surface when a mapped one
// is declared (at most one beside search surfaces alone); every mapped
// surface with a target of its own and a map whose entries name a tool
// and a canonical tool, at dotted paths of object keys.
func (l *loader) checkSurfaces(s *Suite, file string, data []byte) {
	if len(s.Surfaces) == 0 {
		return
	}
	if len(s.Targets) > 0 {
		l.errorf(file, max(lineOf(data, "surfaces:"), 1), 0, "surfaces and targets: a surface presents the tools of one server, and a suite of several servers names its tools SERVER/TOOL across them; declare surfaces in a suite with one target:, or measure each server's surfaces in a suite of its own")
		return
	}
	seen := map[string]bool{}
	var canonical []string
	mapped := 0
	for i, sf := range s.Surfaces {
		line := sf.Line
		if line == 0 {
			line = max(lineOf(data, "surfaces:"), 1)
		}
		at := func(format string, args ...any) { l.errorf(file, line, 0, format, args...) }
		switch {
		case sf.Name == "":
			at("surface %d has no name: want name: individual, meta, ...", i+1)
		case seen[sf.Name]:
			at("surface %s is declared twice", sf.Name)
		case strings.ContainsAny(sf.Name, " /\\,\t\n"):
			at("surface %q: a name is a word (letters, digits, - and _), as --surface takes it", sf.Name)
		}
		seen[sf.Name] = true
		sf.file = file
		l.checkSurfaceKind(file, line, sf)
		if sf.Search() {
			continue
		}
		if sf.Canonical() {
			canonical = append(canonical, sf.Name)
			continue
		}
		if sf.Target.Spec == "" && sf.Target.From == "" {
			at("surface %s maps tools but has no target of its own: want target: the server presenting it", sf.Name)
		}
		for _, c := range sf.sortedCanonical() {
			to := sf.Map[c]
			eline := sf.lines[c]
			if eline == 0 {
				eline = line
			}
			if strings.TrimSpace(c) == "" {
				l.errorf(file, eline, 0, "surface %s: a map entry names no canonical tool", sf.Name)
			}
			if strings.TrimSpace(to.Tool) == "" {
				l.errorf(file, eline, 0, "surface %s: map entry %s names no tool: want %s: {tool: NAME, args: {...}}", sf.Name, c, c)
			}
			l.checkEntryPaths(file, eline, sf.Name, c, to)
		}
		l.ambiguousEntries(file, sf)
		mapped++
	}
	// Search surfaces alone need no canonical surface: the suite's target
	// is then the canonical one.
	if len(canonical) > 1 || len(canonical) == 0 && mapped > 0 {
		l.errorf(file, max(lineOf(data, "surfaces:"), 1), 0, "surfaces: want exactly one canonical surface (one with no map, whose tools the cases name); have %d (%s)", len(canonical), strings.Join(canonical, ", "))
	}
}

// checkSurfaceKind checks a surface's kind and turn cap: a kind is search
// or none, a search surface has no map, and a turn cap is positive.
func (l *loader) checkSurfaceKind(file string, line int, sf *Surface) {
	switch {
	case sf.Kind != "" && sf.Kind != SurfaceSearch:
		l.errorf(file, line, 0, "surface %s: kind %q: want kind: search, or leave it out for a surface of the server's own tools", sf.Name, sf.Kind)
	case sf.Search() && len(sf.Map) > 0:
		l.errorf(file, line, 0, "surface %s is a search surface and has a map: its call_tool names canonical tools as they are; leave the map out", sf.Name)
	}
	if sf.turnCapLine > 0 && sf.TurnCap <= 0 {
		l.errorf(file, sf.turnCapLine, 0, "surface %s: turn_cap is %d: want a positive number (leave it out for the suite's)", sf.Name, sf.TurnCap)
	}
}

// checkEntryPaths checks the paths of map entry c: each fixed argument's
// key and the entry's under are dotted paths of object keys, and a fixed
// value is no object (a nested argument is named by its path).
func (l *loader) checkEntryPaths(file string, line int, surface, c string, to SurfaceCall) {
	for _, k := range slices.Sorted(maps.Keys(to.Args)) {
		if why := badArgPath(k); why != "" {
			l.errorf(file, line, 0, "surface %s: map entry %s: argument %q %s", surface, c, k, why)
		}
		if _, obj := to.Args[k].(map[string]any); obj {
			l.errorf(file, line, 0, "surface %s: map entry %s: argument %s is an object: name each nested argument by its dotted path, as %s.KEY: VALUE", surface, c, k, k)
		}
	}
	if to.Under != "" {
		if why := badArgPath(to.Under); why != "" {
			l.errorf(file, line, 0, "surface %s: map entry %s: under %q %s", surface, c, to.Under, why)
		}
	}
}

// badArgPath says what is wrong with a dotted path of object keys, or ""
// when nothing is: every segment is a key, not empty, no list index, no
// wildcard and no filter.
func badArgPath(path string) string {
	for _, seg := range SplitPath(path) {
		_, num := strconv.Atoi(seg)
		if seg == "" || seg == "*" || num == nil || strings.ContainsAny(seg, "[]") {
			return "is no dotted path of object keys (as params.action): a segment is empty, a list index, * or a filter"
		}
	}
	return ""
}

// ambiguousEntries reports two canonical tools mapped to the same call: a
// call on the surface could not say which it is.
func (l *loader) ambiguousEntries(file string, sf *Surface) {
	byCall := map[string]string{}
	for _, c := range sf.sortedCanonical() {
		to := sf.Map[c]
		key := to.Tool + "\x00" + to.Under + "\x00" + fmt.Sprint(sortedArgs(to.Args))
		if prev, dup := byCall[key]; dup {
			l.errorf(file, sf.lines[c], 0, "surface %s: %s and %s map to the same call of %s: give each its own fixed arguments", sf.Name, prev, c, to.Tool)
			continue
		}
		byCall[key] = c
	}
}

func sortedArgs(m map[string]any) []string {
	var out []string
	for k, v := range m {
		out = append(out, fmt.Sprintf("%s=%v", k, v))
	}
	sort.Strings(out)
	return out
}

// CheckSurface checks surface sf's map against the live catalogs: every
// canonical tool it names must be one the canonical surface lists
// (canonical), and every tool it maps to one the surface's target lists
// (listed). Each problem is located at its map entry.
func (s *Suite) CheckSurface(sf *Surface, canonical, listed []string) error {
	if sf == nil || sf.Canonical() { // a search surface too: it has no map
		return nil
	}
	can, lis := set(canonical), set(listed)
	file := sf.file
	var errs Errors
	for _, c := range sf.sortedCanonical() {
		line := sf.lines[c]
		if line == 0 {
			line = sf.Line
		}
		if !can[c] {
			errs = append(errs, &Error{File: file, Line: line, Msg: fmt.Sprintf("surface %s maps %s, which is no canonical tool: the canonical surface lists %s", sf.Name, c, strings.Join(canonical, ", "))})
		}
		if to := sf.Map[c].Tool; !lis[to] {
			errs = append(errs, &Error{File: file, Line: line, Msg: fmt.Sprintf("surface %s maps %s to %s, which its target does not list: it lists %s", sf.Name, c, to, strings.Join(listed, ", "))})
		}
	}
	if len(errs) > 0 {
		return errs.sorted()
	}
	return nil
}

// CanonicalNames returns the tools a suite may name on surface sf, given
// the tools its target lists: those, and the canonical tools whose mapped
// tool is listed.
func (sf *Surface) CanonicalNames(listed []string) []string {
	if sf == nil || sf.Canonical() {
		return listed
	}
	lis := set(listed)
	out := append([]string(nil), listed...)
	for _, c := range sf.sortedCanonical() {
		if lis[sf.Map[c].Tool] && !lis[c] {
			out = append(out, c)
		}
	}
	return out
}

func set(names []string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// A suite's tools filters and its cases' tool_choice name canonical
// tools. On a mapped surface they are read through the map: a surface
// tool that stands for canonical tools is shown when the filter shows its
// canonical tools, and a tool_choice naming a canonical tool names the
// surface tool it maps to. A surface shows or hides a tool whole, so a
// filter that shows some of a meta-tool's actions and hides others cannot
// be expressed on the surface: CheckFiltersOn refuses it before a run. A
// surface tool no map entry names is filtered by its own name.

// actionsOf returns the canonical tools the surface's tool stands for,
// sorted; none for a tool the map does not name.
func (sf *Surface) actionsOf(tool string) []string {
	var out []string
	for _, c := range sf.sortedCanonical() {
		if sf.Map[c].Tool == tool {
			out = append(out, c)
		}
	}
	return out
}

// Allows reports whether filter f, written in canonical names, shows the
// surface's tool name: the tool's own name on the canonical surface (or a
// nil sf) and for a tool the map does not name; else whether f shows one
// of the canonical tools it stands for. CheckFiltersOn makes sure that
// then it shows them all.
func (sf *Surface) Allows(f ToolFilter, name string) bool {
	if sf == nil || sf.Canonical() || f.IsZero() {
		return f.Allows(name)
	}
	actions := sf.actionsOf(name)
	if len(actions) == 0 {
		return f.Allows(name)
	}
	for _, a := range actions {
		if f.Allows(a) {
			return true
		}
	}
	return false
}

// ShowsOn reports whether case c's model is shown the tool name on
// surface sf: Shows, with the filters read through the surface's map (see
// Surface.Allows). A nil c stands for the suite alone.
func (s *Suite) ShowsOn(sf *Surface, c *Case, name string) bool {
	if !sf.Allows(s.Tools, name) {
		return false
	}
	return c == nil || sf.Allows(c.Tools.ToolFilter, name)
}

// ChoiceOn returns case c's tool_choice as it goes to surface sf: a choice
// naming a canonical tool names the surface tool it maps to (on a surface
// of meta-tools, the meta-tool, whatever its action). It is nil when c
// sets none.
func (s *Suite) ChoiceOn(sf *Surface, c *Case) *ToolChoice {
	if c == nil || c.ToolChoice == nil {
		return nil
	}
	tc := *c.ToolChoice
	if tc.Mode == ChoiceTool && sf != nil {
		tc.Tool, _ = sf.Forward(tc.Tool, nil)
	}
	return &tc
}

// CheckFiltersOn checks the suite's and its cases' tools filters against
// surface sf, whose target lists the tools listed: a filter must show
// either all or none of the canonical tools each surface tool stands for,
// since the model is shown a surface tool whole. Each problem is located
// at the case, or for the suite's filter at the surface's map entry of a
// tool it hides.
func (s *Suite) CheckFiltersOn(sf *Surface, listed []string) error {
	if sf == nil || sf.Canonical() {
		return nil
	}
	var errs Errors
	for _, tool := range listed {
		actions := sf.actionsOf(tool)
		if len(actions) < 2 {
			continue
		}
		if shown, hidden := split(s.Tools, actions); len(shown) > 0 && len(hidden) > 0 {
			line := sf.lines[hidden[0]]
			if line == 0 {
				line = sf.Line
			}
			errs = append(errs, &Error{File: sf.file, Line: line, Msg: fmt.Sprintf("the suite's tools filter cannot be kept on surface %s: its tool %s serves %s, and the filter shows %s but hides %s; a surface shows a tool whole, so include or exclude all of its actions, or run the suite on another surface", sf.Name, tool, strings.Join(actions, ", "), strings.Join(shown, ", "), strings.Join(hidden, ", "))})
		}
		for _, c := range s.Cases {
			if c.Tools.ToolFilter.IsZero() {
				continue
			}
			if shown, hidden := split(c.Tools.ToolFilter, actions); len(shown) > 0 && len(hidden) > 0 {
				errs = append(errs, &Error{File: c.File, Line: c.Line, Msg: fmt.Sprintf("case %s: its tools filter cannot be kept on surface %s: the surface's tool %s serves %s, and the filter shows %s but hides %s; a surface shows a tool whole, so include or exclude all of its actions, or run the case on another surface", c.ID, sf.Name, tool, strings.Join(actions, ", "), strings.Join(shown, ", "), strings.Join(hidden, ", "))})
			}
		}
	}
	if len(errs) > 0 {
		return errs.sorted()
	}
	return nil
}

// split parts names into those filter f shows and those it hides.
func split(f ToolFilter, names []string) (shown, hidden []string) {
	for _, n := range names {
		if f.Allows(n) {
			shown = append(shown, n)
		} else {
			hidden = append(hidden, n)
		}
	}
	return shown, hidden
}

// A suite's slice names canonical tools too (the case's own, its domains'
// patterns). On a mapped surface it is drawn over the canonical tools the
// surface's tools stand for, and shown as the surface tools they map to:
// each surface shows the same capabilities, and max_tools caps the
// canonical tools, so a surface whose tools each stand for several shows
// fewer.

// CanonicalOf returns the canonical tools the surface's tools listed stand
// for, in their order (each tool's actions sorted), with a tool the map
// does not name as itself. On the canonical surface (or a nil sf) it is
// listed.
func (sf *Surface) CanonicalOf(listed []string) []string {
	if sf == nil || sf.Canonical() {
		return listed
	}
	var out []string
	for _, n := range listed {
		if acts := sf.actionsOf(n); len(acts) > 0 {
			out = append(out, acts...)
		} else {
			out = append(out, n)
		}
	}
	return out
}

// SliceOn returns the tools case c is shown on surface sf under the
// suite's slice, given avail, the surface tools its filters let it see:
// SliceFor over the canonical tools they stand for, each then shown as its
// surface tool, in avail's order.
func (s *Suite) SliceOn(sf *Surface, c *Case, avail []string) ([]string, error) {
	if sf == nil || sf.Canonical() || s.Slice == nil {
		return s.SliceFor(c, avail)
	}
	canon, err := s.SliceFor(c, sf.CanonicalOf(avail))
	if err != nil {
		return nil, err
	}
	in := map[string]bool{}
	for _, n := range canon {
		to, _ := sf.Forward(n, nil)
		in[to] = true
	}
	var out []string
	for _, n := range avail {
		if in[n] {
			out = append(out, n)
		}
	}
	return out, nil
}
