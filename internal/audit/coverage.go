package audit

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/mcpeval/mcpeval/internal/termsafe"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// Coverage is which cases, action and question cases alike, exercise each
// tool of a target and each of its arguments.
type Coverage struct {
	Tools []ToolCoverage `json:"tools"`
	// Stale are uncovered entries of the suite that name nothing the
	// target lists, or something a case covers after all.
	Stale []string `json:"stale,omitempty"`
}

// ToolCoverage is one tool's row of the matrix.
type ToolCoverage struct {
	Tool string `json:"tool"`
	// Cases are the cases with a step on the tool, in suite order.
	Cases []string `json:"cases"`
	// Uncovered is the reason the suite gives for leaving the tool out.
	Uncovered string        `json:"uncovered,omitempty"`
	Args      []ArgCoverage `json:"args,omitempty"`
}

// ArgCoverage is one argument's row: a leaf of the input schema, written
// as a dotted path with "*" for list elements.
type ArgCoverage struct {
	Arg       string   `json:"arg"`
	Cases     []string `json:"cases"`
	Uncovered string   `json:"uncovered,omitempty"`
}

// CoverageOf returns the coverage matrix of suite s over the tools the
// target lists. An argument is covered by a step that gives it (or a part
// or the whole of it); the approval argument of a destructive tool by any
// step on the tool.
func CoverageOf(s *suite.Suite, tools []record.Tool) *Coverage {
	s = served(s, tools) // SERVER/TOOL names, for several servers
	cov := &Coverage{}
	uncovered := map[[2]string]string{}
	confirm := "confirm"
	if s.Actions != nil {
		for _, u := range s.Actions.Uncovered {
			uncovered[[2]string{u.Tool, u.Arg}] = u.Why
		}
		if s.Actions.Confirm != "" {
			confirm = s.Actions.Confirm
		}
	}
	used := map[[2]string]bool{}
	for _, t := range tools {
		tc := ToolCoverage{Tool: t.Name, Uncovered: uncovered[[2]string{t.Name, ""}]}
		used[[2]string{t.Name, ""}] = true
		var given [][2]string // case, normalized path
		for _, c := range s.Cases {
			if c.Action == nil {
				if args, on := readCaseCovers(c, t.Name); on {
					tc.Cases = append(tc.Cases, c.ID)
					for _, a := range args {
						given = append(given, [2]string{c.ID, normalPath(a)})
					}
				}
				continue
			}
			on := false
			for _, st := range c.Action.Steps {
				if st.Tool != t.Name {
					continue
				}
				on = true
				for p := range st.Args {
					given = append(given, [2]string{c.ID, normalPath(p)})
				}
				if t.Destructive {
					given = append(given, [2]string{c.ID, confirm})
				}
			}
			if on {
				tc.Cases = append(tc.Cases, c.ID)
			}
		}
		for _, leaf := range leaves(t.InputSchema) {
			ac := ArgCoverage{Arg: leaf, Uncovered: uncovered[[2]string{t.Name, leaf}]}
			used[[2]string{t.Name, leaf}] = true
			for _, g := range given {
				if covers(g[1], leaf) && (len(ac.Cases) == 0 || ac.Cases[len(ac.Cases)-1] != g[0]) {
					ac.Cases = append(ac.Cases, g[0])
				}
			}
			tc.Args = append(tc.Args, ac)
		}
		cov.Tools = append(cov.Tools, tc)
	}
	for k, why := range uncovered {
		name := k[0]
		if k[1] != "" {
			name += " " + k[1]
		}
		if !used[k] {
			cov.Stale = append(cov.Stale, fmt.Sprintf("%s is listed as uncovered (%s), but the target has no such tool or argument", name, why))
		}
	}
	for _, tc := range cov.Tools {
		if tc.Uncovered != "" && len(tc.Cases) > 0 {
			cov.Stale = append(cov.Stale, fmt.Sprintf("%s is listed as uncovered, but %s covers it", tc.Tool, strings.Join(tc.Cases, ", ")))
		}
		for _, ac := range tc.Args {
			if ac.Uncovered != "" && len(ac.Cases) > 0 {
				cov.Stale = append(cov.Stale, fmt.Sprintf("%s %s is listed as uncovered, but %s covers it", tc.Tool, ac.Arg, strings.Join(ac.Cases, ", ")))
			}
		}
	}
	sort.Strings(cov.Stale)
	return cov
}

// Gaps returns every tool and argument neither covered nor listed as
// deliberately uncovered, then every stale uncovered entry.
func (c *Coverage) Gaps() []string {
	var gaps []string
	for _, tc := range c.Tools {
		if len(tc.Cases) == 0 && tc.Uncovered == "" {
			gaps = append(gaps, fmt.Sprintf("tool %s: no case has a step on it", tc.Tool))
			continue
		}
		if tc.Uncovered != "" {
			continue
		}
		for _, ac := range tc.Args {
			if len(ac.Cases) == 0 && ac.Uncovered == "" {
				gaps = append(gaps, fmt.Sprintf("tool %s: no case gives argument %s", tc.Tool, ac.Arg))
			}
		}
	}
	return append(gaps, c.Stale...)
}

// Write prints the matrix: one row per tool, indented rows for its
// arguments, each with how many cases cover it and which (or the reason
// it is left out).
func (c *Coverage) Write(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TOOL / ARGUMENT\tCASES\tCOVERED BY")
	row := func(name string, cases []string, why string) {
		// Tool and argument names come from the server, case ids and
		// reasons from suite files: none may steer the terminal.
		name, why = termsafe.Line(name), termsafe.Line(why)
		cases = append([]string(nil), cases...)
		for i := range cases {
			cases[i] = termsafe.Line(cases[i])
		}
		switch {
		case why != "":
			fmt.Fprintf(tw, "%s\t-\tleft out: %s\n", name, why)
		case len(cases) == 0:
			fmt.Fprintf(tw, "%s\t0\tNOT COVERED\n", name)
		default:
			fmt.Fprintf(tw, "%s\t%d\t%s\n", name, len(cases), strings.Join(cases, ", "))
		}
	}
	for _, tc := range c.Tools {
		row(tc.Tool, tc.Cases, tc.Uncovered)
		for _, ac := range tc.Args {
			row("  "+ac.Arg, ac.Cases, ac.Uncovered)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	tools, args, gaps := 0, 0, len(c.Gaps())
	for _, tc := range c.Tools {
		if len(tc.Cases) > 0 {
			tools++
		}
		for _, ac := range tc.Args {
			if len(ac.Cases) > 0 {
				args++
			}
		}
	}
	nargs := 0
	for _, tc := range c.Tools {
		nargs += len(tc.Args)
	}
	_, err := fmt.Fprintf(w, "\n%d of %d tools and %d of %d arguments covered; %d gaps\n", tools, len(c.Tools), args, nargs, gaps)
	return err
}

// normalPath writes list indices of an argument path as "*".
func normalPath(p string) string {
	segs := suite.SplitPath(p)
	for i, s := range segs {
		if _, err := strconv.Atoi(s); err == nil {
			segs[i] = "*"
		}
	}
	return strings.Join(segs, ".")
}

// covers reports whether a step giving argument path given covers the
// schema leaf: the same argument, a part of it, or a whole it is part of.
func covers(given, leaf string) bool {
	return given == leaf || strings.HasPrefix(leaf, given+".") || strings.HasPrefix(given, leaf+".")
}

// leaves returns the leaf arguments of an input schema as dotted paths,
// "*" standing for list elements, in schema order by name.
func leaves(schema json.RawMessage) []string {
	var s map[string]any
	if json.Unmarshal(schema, &s) != nil {
		return nil
	}
	var out []string
	var walk func(s map[string]any, prefix string)
	walk = func(s map[string]any, prefix string) {
		props, _ := s["properties"].(map[string]any)
		names := slices.Sorted(maps.Keys(props))
		for _, n := range names {
			p, _ := props[n].(map[string]any)
			path := prefix + n
			switch {
			case p["properties"] != nil:
				walk(p, path+".")
			case isObjectList(p):
				walk(p["items"].(map[string]any), path+".*.")
			default:
				out = append(out, path)
			}
		}
	}
	walk(s, "")
	return out
}

func isObjectList(p map[string]any) bool {
	items, ok := p["items"].(map[string]any)
	return ok && items["properties"] != nil
}

// readCaseCovers reports whether a case without an action key exercises
// tool (it requires or accepts it, its key or a tool-call expectation
// calls it, or an argument rule names it) and which of the tool's
// arguments it pins (argument rules, the key's arguments, expected
// arguments).
func readCaseCovers(c *suite.Case, tool string) (args []string, on bool) {
	for _, names := range [][]string{c.Tools.Required, c.Tools.Accepted, c.ExpectTools} {
		for _, n := range names {
			if n == tool {
				on = true
			}
		}
	}
	if on && len(c.ExpectTools) > 0 {
		for a := range c.ExpectArgs {
			args = append(args, a)
		}
	}
	for _, r := range c.Args {
		if r.Tool == tool {
			on = true
			args = append(args, r.Arg)
		}
	}
	for _, k := range c.Key.Calls {
		if k.Tool == tool {
			on = true
			for a := range k.Args {
				args = append(args, a)
			}
		}
	}
	sort.Strings(args)
	return args, on
}

// Argument is one leaf argument of a tool's input schema, as coverage
// names it.
type Argument struct {
	// Path is the argument as a dotted path, "*" standing for list
	// elements ("labels", "ports.*.host").
	Path string `json:"path"`
	// Type is the schema's type ("string", "integer", "array of string"),
	// empty when the schema gives none.
	Type string `json:"type,omitempty"`
	// Required is true when the argument, and every object it sits in,
	// is required.
	Required bool `json:"required"`
	// Enum lists the values the schema allows, when it lists them.
	Enum []any `json:"enum,omitempty"`
	// Description is the schema's description of the argument.
	Description string `json:"description,omitempty"`
}

// Arguments returns the leaf arguments of an input schema with their
// types, in the order and with the names coverage uses (Coverage's
// ArgCoverage.Arg).
func Arguments(schema json.RawMessage) []Argument {
	var s map[string]any
	if json.Unmarshal(schema, &s) != nil {
		return nil
	}
	var out []Argument
	var walk func(s map[string]any, prefix string, required bool)
	walk = func(s map[string]any, prefix string, parentRequired bool) {
		props, _ := s["properties"].(map[string]any)
		req := map[string]bool{}
		if rs, ok := s["required"].([]any); ok {
			for _, r := range rs {
				if name, ok := r.(string); ok {
					req[name] = true
				}
			}
		}
		names := slices.Sorted(maps.Keys(props))
		for _, n := range names {
			p, _ := props[n].(map[string]any)
			path := prefix + n
			required := parentRequired && req[n]
			switch {
			case p["properties"] != nil:
				walk(p, path+".", required)
			case isObjectList(p):
				walk(p["items"].(map[string]any), path+".*.", required)
			default:
				a := Argument{Path: path, Type: typeName(p), Required: required}
				a.Enum, _ = p["enum"].([]any)
				a.Description, _ = p["description"].(string)
				out = append(out, a)
			}
		}
	}
	walk(s, "", true)
	return out
}

// typeName says what type a schema gives: its type, "array of" its items'
// type, or the types its anyOf or oneOf allow, joined with "|".
func typeName(p map[string]any) string {
	var types []string
	switch t := p["type"].(type) {
	case string:
		types = []string{t}
	case []any:
		for _, x := range t {
			if s, ok := x.(string); ok {
				types = append(types, s)
			}
		}
	}
	if len(types) == 0 {
		for _, k := range []string{"anyOf", "oneOf"} {
			alts, _ := p[k].([]any)
			for _, a := range alts {
				if m, ok := a.(map[string]any); ok {
					if t := typeName(m); t != "" {
						types = append(types, t)
					}
				}
			}
		}
	}
	for i, t := range types {
		if t == "array" {
			if items, ok := p["items"].(map[string]any); ok {
				if it := typeName(items); it != "" {
					types[i] = "array of " + it
				}
			}
		}
	}
	return strings.Join(types, "|")
}
