package suite

import (
	"fmt"
	"strings"
)

// ToolFilter decides which of a target's tools the model is shown. A name
// may hold * for any run of characters ("get_*").
//
// With Include empty every tool passes it; otherwise a tool must match one
// of its names. A tool matching a name of Exclude is never shown.
//
// The filter decides only what the model sees: the harness's own calls
// (preflight, fixtures, verify, teardown) may use any tool the target
// lists, so a delete tool can clean up after cases whose model never sees
// it. Every name must match some tool of the target (checked against the
// live catalog, by validate and before a run).
type ToolFilter struct {
	// Include lists the tools the model is shown; all when empty.
	Include []string `yaml:"include,omitempty"`
	// Exclude lists tools the model is not shown.
	Exclude []string `yaml:"exclude,omitempty"`
}

// IsZero reports whether f shows every tool.
func (f ToolFilter) IsZero() bool { return len(f.Include) == 0 && len(f.Exclude) == 0 }

// Allows reports whether f lets the model see tool name.
func (f ToolFilter) Allows(name string) bool {
	if len(f.Include) > 0 && !matchAny(f.Include, name) {
		return false
	}
	return !matchAny(f.Exclude, name)
}

// Shows reports whether case c's model is shown tool name: the suite's
// tools filter and then the case's narrow what the target lists. A nil c
// stands for the suite alone.
func (s *Suite) Shows(c *Case, name string) bool {
	if !s.Tools.Allows(name) {
		return false
	}
	return c == nil || c.Tools.ToolFilter.Allows(name)
}

// GlobMatch reports whether name matches pattern, in which * stands for
// any run of characters and every other character for itself.
func GlobMatch(pattern, name string) bool {
	parts := strings.Split(pattern, "*")
	if len(parts) == 1 {
		return pattern == name
	}
	if !strings.HasPrefix(name, parts[0]) {
		return false
	}
	name = name[len(parts[0]):]
	last := parts[len(parts)-1]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(name, p)
		if i < 0 {
			return false
		}
		name = name[i+len(p):]
	}
	return len(name) >= len(last) && strings.HasSuffix(name, last)
}

func matchAny(patterns []string, name string) bool {
	for _, p := range patterns {
		if GlobMatch(p, name) {
			return true
		}
	}
	return false
}

// checkFilter reports empty names and names both included and excluded in
// f, written at what ("tools", "case x: tools").
func checkFilter(f ToolFilter, what string, at func(string, ...any)) {
	for _, list := range []struct {
		key   string
		names []string
	}{{"include", f.Include}, {"exclude", f.Exclude}} {
		for i, n := range list.names {
			if strings.TrimSpace(n) == "" {
				at("%s.%s %d is empty: want a tool name, * matching any characters", what, list.key, i+1)
			}
		}
	}
	for _, in := range f.Include {
		for _, ex := range f.Exclude {
			if in == ex && in != "" {
				at("%s: %q is both included and excluded", what, in)
			}
		}
	}
}

// suiteToolFilter checks the suite's tools filter, in the suite settings
// file (data).
func (l *loader) suiteToolFilter(s *Suite, file string, data []byte) {
	line := max(topLineOf(data, "tools"), 1)
	checkFilter(s.Tools, "tools", func(format string, args ...any) {
		l.errorf(file, line, 0, format, args...)
	})
}

// checkToolFilters checks every case's tools filter, and that a case is
// shown every tool it requires, accepts, expects or has in its key.
func (l *loader) checkToolFilters(s *Suite) {
	for _, c := range s.Cases {
		at := func(format string, args ...any) {
			l.errorf(c.File, c.Line, 0, "case %s: "+format, append([]any{c.ID}, args...)...)
		}
		checkFilter(c.Tools.ToolFilter, "tools", at)
		for _, in := range c.Tools.Include {
			if !strings.Contains(in, "*") && !s.Tools.Allows(in) {
				at("tools.include names %s, which the suite's tools filter hides", in)
			}
		}
		hidden := map[string]bool{}
		for _, r := range caseToolRefs(c) {
			if r.name == "" || hidden[r.name] || s.showsRef(c, r.name) {
				continue
			}
			hidden[r.name] = true
			at("%s names %s, but the tools filter (include/exclude) hides it from the model", r.where, r.name)
		}
	}
}

// caseToolRefs returns the tools case c needs the model to be shown.
func caseToolRefs(c *Case) []toolRef {
	var refs []toolRef
	add := func(what string, names ...string) {
		for _, n := range names {
			refs = append(refs, toolRef{n, c.File, c.Line, what})
		}
	}
	add("tools.required", c.Tools.Required...)
	add("tools.accepted", c.Tools.Accepted...)
	add("expect_tools", c.ExpectTools...)
	for _, k := range c.Key.Calls {
		add("key", k.Tool)
	}
	if c.Action != nil {
		for _, st := range c.Action.Steps {
			add("action step", st.Tool)
		}
	}
	return refs
}

// filterRefs returns the patterns of the suite's and cases' tools filters,
// each of which must match some tool the target lists.
func (s *Suite) filterRefs() []toolRef {
	var refs []toolRef
	add := func(file string, line int, where string, f ToolFilter) {
		for _, n := range f.Include {
			refs = append(refs, toolRef{n, file, line, where + "tools.include"})
		}
		for _, n := range f.Exclude {
			refs = append(refs, toolRef{n, file, line, where + "tools.exclude"})
		}
	}
	add(s.Path, 0, "", s.Tools)
	for _, c := range s.Cases {
		add(c.File, c.Line, "case "+c.ID+": ", c.Tools.ToolFilter)
	}
	return refs
}

// checkFilterRefs reports filter patterns that match none of known.
func (s *Suite) checkFilterRefs(known []string) Errors {
	var errs Errors
	for _, r := range s.filterRefs() {
		if !anyMatches(r.name, known) {
			errs = append(errs, &Error{File: r.file, Line: r.line, Msg: fmt.Sprintf("%s: %q matches no tool: the target lists %s", r.where, r.name, strings.Join(known, ", "))})
		}
	}
	return errs
}

func anyMatches(pattern string, names []string) bool {
	for _, n := range names {
		if GlobMatch(pattern, n) {
			return true
		}
	}
	return false
}

// topLineOf returns the line of top-level key in a YAML file, or 0.
func topLineOf(data []byte, key string) int {
	for i, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, key+":") {
			return i + 1
		}
	}
	return 0
}
