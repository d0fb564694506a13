package suite

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcpeval/mcpeval/internal/lazyregexp"
)

// A suite may name several servers instead of one:
//
//	targets:
//	  household: builtin:household
//	  memory: {spec: "stdio:./bin/memory", env: {MEMORY_FILE_PATH: /tmp/m.json}}
//
// The model is shown the tools of all of them together. A tool name that
// more than one server lists is shown as SERVER__TOOL; every other keeps
// its name. A suite names a tool as SERVER/TOOL (that server's tool) or
// by its bare name where only one server lists it.

// targetName is what a server's name in targets may be.
var targetName = lazyregexp.New(`^[a-z0-9_-]+$`)

// TargetNames returns the names of the suite's targets, sorted.
func (s *Suite) TargetNames() []string {
	return slices.Sorted(maps.Keys(s.Targets))
}

// checkTargets checks the suite's targets: not beside a target, each
// named [a-z0-9_-]+, each naming a server.
func (l *loader) checkTargets(s *Suite, file string, data []byte) {
	if s.Targets == nil {
		return
	}
	top := max(topLineOf(data, "targets"), 1)
	if s.Target.Spec != "" || s.Target.From != "" {
		l.errorf(file, top, 0, "target and targets are both given: name one server with target: or several with targets:, not both")
	}
	if len(s.Targets) == 0 {
		l.errorf(file, top, 0, "targets names no server: want targets: {NAME: SPEC, ...}")
	}
	for _, name := range s.TargetNames() {
		t := s.Targets[name]
		line := targetLine(data, top, name)
		switch {
		case !targetName.MatchString(name):
			l.errorf(file, line, 0, "targets: %q: a server's name is lowercase letters, digits, _ and - only (it prefixes the server's tools)", name)
		case strings.Contains(name, "__"):
			l.errorf(file, line, 0, "targets: %q: a server's name may not hold __, which joins it to a tool's name", name)
		}
		switch {
		case t.From == "" && t.Spec == "":
			l.errorf(file, line, 0, "targets: %s names no server: want a spec (builtin:NAME, stdio:COMMAND, an http(s) URL) or from: an mcp.json file", name)
		case t.From == "" && t.Name != "":
			l.errorf(file, line, 0, "targets: %s: name %q goes with from: an mcp.json file", name, t.Name)
		case t.From != "" && (t.Spec != "" || len(t.Env) > 0 || t.Dir != "" || len(t.Headers) > 0):
			l.errorf(file, line, 0, "targets: %s: from %s gives the server's command or URL, env, cwd and headers: want from, name, inherit_env and connect_timeout only", name, t.From)
		}
		if d := t.ConnectTimeout; d < time.Millisecond {
			if n := nodeAt(rootNode(data), "targets", name, "connect_timeout"); n != nil {
				l.errorf(file, n.Line, n.Column, "targets: %s: connect_timeout %s: want a positive duration such as 30s (leave it out for the default, 30s)", name, d)
			}
		}
	}
}

// showsRef reports whether the tools filters may show case c the tool a
// suite names name. A suite of several servers is read leniently before
// their tools are known: SERVER/ is dropped from the name and from the
// filters' patterns when the name as written does not pass, so that
// home/* does not hide a bare get_net_worth that only home may list.
func (s *Suite) showsRef(c *Case, name string) bool {
	if ok := s.Shows(c, name); ok || len(s.Targets) == 0 {
		return ok
	}
	bare := func(n string) string {
		if _, t, ok := strings.Cut(n, "/"); ok {
			return t
		}
		return n
	}
	strip := func(f ToolFilter) ToolFilter {
		return ToolFilter{Include: mapNames(f.Include, bare), Exclude: mapNames(f.Exclude, bare)}
	}
	n := bare(name)
	return strip(s.Tools).Allows(n) && (c == nil || strip(c.Tools.ToolFilter).Allows(n))
}

// targetLine returns the line of server name under the targets key at
// line top, or top when it is not found (a flow mapping, say).
func targetLine(data []byte, top int, name string) int {
	lines := strings.Split(string(data), "\n")
	for i := top; i < len(lines); i++ {
		l := lines[i]
		if strings.TrimSpace(l) == "" || strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		if l[0] != ' ' && l[0] != '\t' {
			break // the next top-level key
		}
		k := strings.TrimSpace(l)
		if strings.HasPrefix(k, name+":") || strings.HasPrefix(k, `"`+name+`":`) || strings.HasPrefix(k, `'`+name+`':`) {
			return i + 1
		}
	}
	return top
}

// ServedTool is one tool of a target made of several servers, as a run
// shows it to the model.
type ServedTool struct {
	// Name is the tool's name as the model is shown it: the server's own
	// name for it, or SERVER__TOOL where more than one server lists it.
	Name string
	// Server names the server that lists it; Tool is its name there.
	Server, Tool string
}

// ResolveTools returns a copy of s in which every tool named SERVER/TOOL
// is named as the model is shown it, given the tools of the servers; a
// SERVER/PATTERN in a tools filter or a slice domain becomes every tool of
// that server it matches. s itself is not changed. The error lists, at
// their file and line, a SERVER that is not one of the servers and a bare
// tool name that more than one server lists (which is ambiguous); the
// copy is returned all the same, with those names left as written. A
// name that matches nothing is left for CheckTools to report.
func (s *Suite) ResolveTools(tools []ServedTool) (*Suite, error) {
	rv := newResolver(tools)
	out := *s
	settings := s.Path
	at := func(file string, line int) func(string) string {
		return func(name string) string { return rv.one(name, file, line) }
	}
	out.Preflight = append([]PreflightCheck(nil), s.Preflight...)
	for i := range out.Preflight {
		out.Preflight[i].Tool = rv.one(out.Preflight[i].Tool, settings, out.Preflight[i].Line)
	}
	out.ReadOnlyTools = mapNames(s.ReadOnlyTools, at(settings, 0))
	out.Tools = rv.filter(s.Tools, settings, 0)
	if s.Slice != nil {
		sl := *s.Slice
		sl.Domains = map[string][]string{}
		for d, pats := range s.Slice.Domains {
			sl.Domains[d] = rv.patterns(pats, settings, 0)
		}
		out.Slice = &sl
	}
	out.Actions = rv.settings(s.Actions, settings)
	out.Cases = make([]*Case, len(s.Cases))
	for i, c := range s.Cases {
		out.Cases[i] = rv.resolveCase(c)
	}
	if len(rv.errs) > 0 {
		return &out, rv.errs.sorted()
	}
	return &out, nil
}

// ToolResolver reads cases against the tools of several servers, as
// ResolveTools does, for many cases in turn: grading makes one per run
// and reads every attempt's case through it. It is safe for concurrent
// use.
type ToolResolver struct {
	mu sync.Mutex
	rv *resolver
}

// NewToolResolver returns a ToolResolver over the tools of several
// servers.
func NewToolResolver(tools []ServedTool) *ToolResolver {
	rv := newResolver(tools)
	rv.quiet = true
	return &ToolResolver{rv: rv}
}

// Case returns a copy of case c with its tool names resolved as
// ResolveTools resolves them; a name that cannot be resolved is left as
// written.
func (tr *ToolResolver) Case(c *Case) *Case {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return tr.rv.resolveCase(c)
}

func newResolver(tools []ServedTool) *resolver {
	rv := &resolver{byName: map[string]bool{}, servers: map[string]bool{}, bare: map[string][]string{},
		own: map[[2]string]string{}, tools: tools}
	for _, t := range tools {
		rv.byName[t.Name] = true
		rv.servers[t.Server] = true
		rv.bare[t.Tool] = append(rv.bare[t.Tool], t.Server)
		if _, dup := rv.own[[2]string{t.Server, t.Tool}]; !dup {
			rv.own[[2]string{t.Server, t.Tool}] = t.Name
		}
	}
	return rv
}

// resolveCase returns a copy of c with its tool names resolved.
func (rv *resolver) resolveCase(c *Case) *Case {
	cc := *c
	one := func(name string) string { return rv.one(name, c.File, c.Line) }
	cc.Tools.Required = mapNames(c.Tools.Required, one)
	cc.Tools.Accepted = mapNames(c.Tools.Accepted, one)
	cc.Tools.Forbidden = mapNames(c.Tools.Forbidden, one)
	cc.Tools.ToolFilter = rv.filter(c.Tools.ToolFilter, c.File, c.Line)
	cc.ExpectedErrors = mapNames(c.ExpectedErrors, one)
	cc.ExpectTools = mapNames(c.ExpectTools, one)
	if c.Args != nil {
		cc.Args = append([]ArgRule(nil), c.Args...)
		for i := range cc.Args {
			cc.Args[i].Tool = one(cc.Args[i].Tool)
		}
	}
	if c.Key.Calls != nil {
		cc.Key.Calls = append([]KeyCall(nil), c.Key.Calls...)
		for i := range cc.Key.Calls {
			cc.Key.Calls[i].Tool = one(cc.Key.Calls[i].Tool)
		}
	}
	if c.ToolChoice != nil && c.ToolChoice.Tool != "" {
		tc := *c.ToolChoice
		tc.Tool = one(tc.Tool)
		cc.ToolChoice = &tc
	}
	if c.Action != nil {
		a := *c.Action
		a.ExpectedErrors = mapNames(a.ExpectedErrors, one)
		a.Steps = append([]Step(nil), a.Steps...)
		for i := range a.Steps {
			a.Steps[i].Tool = rv.one(a.Steps[i].Tool, c.File, a.Steps[i].Line)
		}
		a.Fixtures = append([]Fixture(nil), a.Fixtures...)
		for i := range a.Fixtures {
			f := &a.Fixtures[i]
			f.Tool = rv.one(f.Tool, c.File, f.Line)
			if f.Teardown != nil {
				td := *f.Teardown
				td.Tool = rv.one(td.Tool, c.File, f.Line)
				f.Teardown = &td
			}
		}
		a.Verify = append([]Verify(nil), a.Verify...)
		for i := range a.Verify {
			a.Verify[i].Tool = rv.one(a.Verify[i].Tool, c.File, a.Verify[i].Line)
		}
		a.settings = rv.settings(c.Action.settings, c.File)
		cc.Action = &a
	}
	return &cc
}

// resolver resolves tool names against the tools of several servers.
type resolver struct {
	tools   []ServedTool
	byName  map[string]bool      // names as the model is shown them
	servers map[string]bool      // the servers' names
	bare    map[string][]string  // a tool's own name -> the servers listing it
	own     map[[2]string]string // server and tool's own name -> the name shown
	quiet   bool                 // gathers no errors
	errs    Errors
	done    map[*ActionSettings]*ActionSettings // settings resolved, so cases keep sharing one copy
}

// settings returns a copy of action settings as with their tool names
// resolved, the same copy for the same settings.
func (rv *resolver) settings(as *ActionSettings, file string) *ActionSettings {
	if as == nil {
		return nil
	}
	if done, ok := rv.done[as]; ok {
		return done
	}
	out := *as
	one := func(name string) string { return rv.one(name, file, 0) }
	calls := func(cs []Call) []Call {
		if cs == nil {
			return nil
		}
		out := append([]Call(nil), cs...)
		for i := range out {
			out[i].Tool = one(out[i].Tool)
		}
		return out
	}
	out.Teardown, out.Leftovers = calls(as.Teardown), calls(as.Leftovers)
	out.Inventory = append([]Inventory(nil), as.Inventory...)
	for i := range out.Inventory {
		out.Inventory[i].List.Tool = one(out.Inventory[i].List.Tool)
		out.Inventory[i].Remove.Tool = one(out.Inventory[i].Remove.Tool)
	}
	if as.Stray != nil {
		st := *as.Stray
		st.Tool = one(st.Tool)
		out.Stray = &st
	}
	out.Uncovered = append([]Uncovered(nil), as.Uncovered...)
	for i := range out.Uncovered {
		out.Uncovered[i].Tool = one(out.Uncovered[i].Tool)
	}
	if rv.done == nil {
		rv.done = map[*ActionSettings]*ActionSettings{}
	}
	rv.done[as] = &out
	return &out
}

// one resolves a tool name: SERVER/TOOL to the name the model is shown; a
// bare name stays, and is an error when several servers list it.
func (rv *resolver) one(name, file string, line int) string {
	if name == "" {
		return name
	}
	server, tool, ok := strings.Cut(name, "/")
	if !ok {
		if !rv.byName[name] && len(rv.bare[name]) > 1 {
			rv.errorf(file, line, "tool %s is served by %s: write which, as %s", name, strings.Join(rv.bare[name], " and "), rv.spellings(name))
		}
		return name
	}
	if !rv.servers[server] {
		rv.errorf(file, line, "tool %s names server %s, which is not one of the targets (%s)", name, server, strings.Join(rv.serverNames(), ", "))
		return name
	}
	if shown, ok := rv.own[[2]string{server, tool}]; ok {
		return shown
	}
	return name // CheckTools reports it
}

// patterns resolves tool patterns: SERVER/PATTERN becomes every tool of
// that server it matches (left as written when it matches none).
func (rv *resolver) patterns(pats []string, file string, line int) []string {
	if pats == nil {
		return nil
	}
	out := []string{}
	for _, p := range pats {
		server, pat, ok := strings.Cut(p, "/")
		if !ok || !strings.Contains(pat, "*") {
			out = append(out, rv.one(p, file, line))
			continue
		}
		if !rv.servers[server] {
			rv.errorf(file, line, "tool pattern %s names server %s, which is not one of the targets (%s)", p, server, strings.Join(rv.serverNames(), ", "))
			out = append(out, p)
			continue
		}
		n := len(out)
		for _, t := range rv.tools {
			if t.Server == server && GlobMatch(pat, t.Tool) {
				out = append(out, t.Name)
			}
		}
		if len(out) == n {
			out = append(out, p)
		}
	}
	return out
}

func (rv *resolver) filter(f ToolFilter, file string, line int) ToolFilter {
	return ToolFilter{Include: rv.patterns(f.Include, file, line), Exclude: rv.patterns(f.Exclude, file, line)}
}

func (rv *resolver) serverNames() []string {
	return slices.Sorted(maps.Keys(rv.servers))
}

// spellings lists the SERVER/TOOL names of a tool several servers list.
func (rv *resolver) spellings(tool string) string {
	var out []string
	for _, s := range rv.bare[tool] {
		out = append(out, s+"/"+tool)
	}
	return strings.Join(out, " or ")
}

func (rv *resolver) errorf(file string, line int, format string, args ...any) {
	if rv.quiet {
		return
	}
	e := &Error{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
	for _, o := range rv.errs {
		if *o == *e {
			return
		}
	}
	rv.errs = append(rv.errs, e)
}

func mapNames(names []string, f func(string) string) []string {
	if names == nil {
		return nil
	}
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = f(n)
	}
	return out
}

// ServerOverride reads v, a --target value, as NAME=SPEC replacing one of
// the suite's several servers (targets:): it returns the server's name and
// the spec when v starts with the name of one of them directly followed by
// '=', and ok false otherwise (v is then a spec of its own, which may hold
// '=' itself: "stdio:env A=b ./srv").
func (s *Suite) ServerOverride(v string) (name, spec string, ok bool) {
	name, spec, ok = strings.Cut(v, "=")
	if !ok {
		return "", "", false
	}
	if _, ok := s.Targets[name]; !ok {
		return "", "", false
	}
	return name, spec, true
}
