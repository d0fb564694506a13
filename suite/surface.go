package suite

import (
	"fmt"
	"maps"
	"slices"
	"sort"
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

	// Line locates the surface in its file; lines the entries of Map.
	Line  int            `yaml:"-"`
	file  string         // the file it was read from
	lines map[string]int // canonical tool -> line of its Map entry
}

// SurfaceCall is where a canonical tool lives on a surface: the surface's
// tool, and the fixed arguments that select the action on it.
type SurfaceCall struct {
	// Tool is the surface's tool.
	Tool string `yaml:"tool"`
	// Args are added to the canonical arguments on the way to the surface,
	// and must all be present (with these values) for a surface call to
	// read back as this canonical tool.
	Args map[string]any `yaml:"args,omitempty"`
}

// UnmarshalYAML reads a surface and remembers the lines of it and of its
// map's entries.
func (sf *Surface) UnmarshalYAML(n *yaml.Node) error {
	type plain Surface
	if err := n.Load((*plain)(sf), yaml.WithKnownFields()); err != nil {
		return friendlyErr(err, "a surface (want name, description, target, map)", sf)
	}
	sf.Line = n.Line
	if m := mapValue(n, "map"); m != nil && m.Kind == yaml.MappingNode {
		sf.lines = map[string]int{}
		for i := 0; i+1 < len(m.Content); i += 2 {
			sf.lines[m.Content[i].Value] = m.Content[i].Line
		}
	}
	return nil
}

// Canonical reports whether sf is the canonical surface: the one whose
// tools the cases name.
func (sf *Surface) Canonical() bool { return len(sf.Map) == 0 }

// Forward returns the call on surface sf of the canonical tool with args:
// the surface's tool, with the map's fixed arguments added. A tool the map
// does not name, and any tool of the canonical surface (or a nil sf), is
// returned as it is. args is not changed.
func (sf *Surface) Forward(tool string, args map[string]any) (string, map[string]any) {
	if sf == nil {
		return tool, args
	}
	to, ok := sf.Map[tool]
	if !ok {
		return tool, args
	}
	out := make(map[string]any, len(args)+len(to.Args))
	for k, v := range args {
		out[k] = v
	}
	for k, v := range to.Args {
		out[k] = v
	}
	return to.Tool, out
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
			got, has := args[k]
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
	cargs = make(map[string]any, len(args))
	for k, v := range args {
		if _, fixed := sf.Map[best].Args[k]; !fixed {
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
// map), or nil when the suite declares no surfaces.
func (s *Suite) CanonicalSurface() *Surface {
	for _, sf := range s.Surfaces {
		if sf.Canonical() {
			return sf
		}
	}
	return nil
}

// SurfaceTarget returns the target of surface sf: its own, else the
// suite's.
func (s *Suite) SurfaceTarget(sf *Surface) Target {
	if sf == nil || (sf.Target.Spec == "" && sf.Target.From == "") {
		return s.Target
	}
	return sf.Target
}

// checkSurfaces checks the suite's surfaces, in the suite settings file
// (data): each named once; exactly one canonical surface when any is
// declared; every other with a target of its own and a map whose entries
// name a tool and a canonical tool.
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
		}
		l.ambiguousEntries(file, sf)
	}
	if len(canonical) != 1 {
		l.errorf(file, max(lineOf(data, "surfaces:"), 1), 0, "surfaces: want exactly one canonical surface (one with no map, whose tools the cases name); have %d (%s)", len(canonical), strings.Join(canonical, ", "))
	}
}

// ambiguousEntries reports two canonical tools mapped to the same call: a
// call on the surface could not say which it is.
func (l *loader) ambiguousEntries(file string, sf *Surface) {
	byCall := map[string]string{}
	for _, c := range sf.sortedCanonical() {
		to := sf.Map[c]
		key := to.Tool + "\x00" + fmt.Sprint(sortedArgs(to.Args))
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
	if sf == nil || sf.Canonical() {
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
