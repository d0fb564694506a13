package audit

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/mcpeval/mcpeval/internal/termsafe"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// SurfaceCoverage is the coverage of one mapped surface of a suite (see
// suite.Surface): each tool the surface lists, the canonical actions its
// map puts behind it, and the cases that reach it through them. The cases
// cover canonical actions (Coverage); a surface adds gaps of its own.
type SurfaceCoverage struct {
	Surface string                `json:"surface"`
	Tools   []SurfaceToolCoverage `json:"tools"`
	// Gaps are a surface tool no canonical action maps to, a value of a
	// selecting argument (action) the map does not name, and a canonical
	// tool the surface does not map.
	Gaps []string `json:"gaps,omitempty"`
}

// SurfaceToolCoverage is one tool of a surface.
type SurfaceToolCoverage struct {
	Tool string `json:"tool"`
	// Actions are the canonical tools mapped to it, sorted.
	Actions []string `json:"actions"`
	// Cases are the cases with a step on one of them, in suite order.
	Cases []string `json:"cases"`
}

// SurfaceCoverageOf returns the coverage of surface sf, whose target lists
// tools, given the canonical coverage of the suite (CoverageOf over the
// canonical surface's tools).
func SurfaceCoverageOf(s *suite.Suite, sf *suite.Surface, canonical *Coverage, tools []record.Tool) *SurfaceCoverage {
	sc := &SurfaceCoverage{Surface: sf.Name, Tools: []SurfaceToolCoverage{}}
	casesOf := map[string][]string{}
	for _, tc := range canonical.Tools {
		casesOf[tc.Tool] = tc.Cases
	}
	behind := map[string][]string{} // surface tool -> canonical tools
	for c, to := range sf.Map {
		behind[to.Tool] = append(behind[to.Tool], c)
	}
	for _, t := range tools {
		acts := behind[t.Name]
		sort.Strings(acts)
		tc := SurfaceToolCoverage{Tool: t.Name, Actions: append([]string{}, acts...), Cases: casesBehind(s, casesOf, acts)}
		sc.Tools = append(sc.Tools, tc)
		if len(acts) == 0 {
			sc.Gaps = append(sc.Gaps, fmt.Sprintf("surface %s: tool %s: no canonical action maps to it", sf.Name, t.Name))
			continue
		}
		sc.Gaps = append(sc.Gaps, unmappedValues(sf, t)...)
	}
	for _, tc := range canonical.Tools {
		if _, ok := sf.Map[tc.Tool]; !ok {
			sc.Gaps = append(sc.Gaps, fmt.Sprintf("surface %s: canonical tool %s: the surface does not map it", sf.Name, tc.Tool))
		}
	}
	return sc
}

// casesBehind are the cases covering any of the canonical tools acts, in
// suite order.
func casesBehind(s *suite.Suite, casesOf map[string][]string, acts []string) []string {
	on := map[string]bool{}
	for _, a := range acts {
		for _, c := range casesOf[a] {
			on[c] = true
		}
	}
	out := []string{}
	for _, c := range s.Cases {
		if on[c.ID] {
			out = append(out, c.ID)
		}
	}
	return out
}

// unmappedValues are the values a surface tool's selecting arguments (the
// fixed arguments of its map entries, such as action) may take by its
// input schema's enum, but that no entry names: actions of the surface no
// case can be about.
func unmappedValues(sf *suite.Surface, t record.Tool) []string {
	named := map[string]map[string]bool{} // argument -> values the map names
	for _, to := range sf.Map {
		if to.Tool != t.Name {
			continue
		}
		for k, v := range to.Args {
			if named[k] == nil {
				named[k] = map[string]bool{}
			}
			named[k][fmt.Sprint(v)] = true
		}
	}
	var schema enumSchema
	json.Unmarshal(t.InputSchema, &schema)
	var gaps []string
	args := slices.Sorted(maps.Keys(named))
	for _, k := range args {
		for _, v := range schema.enumAt(suite.SplitPath(k)) {
			if !named[k][fmt.Sprint(v)] {
				gaps = append(gaps, fmt.Sprintf("surface %s: tool %s %s %v: no canonical action maps to it", sf.Name, t.Name, k, v))
			}
		}
	}
	return gaps
}

// enumSchema is as much of an input schema as unmappedValues reads: each
// property's enum, and its own properties.
type enumSchema struct {
	Enum       []any                  `json:"enum"`
	Properties map[string]*enumSchema `json:"properties"`
}

// enumAt returns the enum of the property at path (a fixed argument
// written op.action is the action property of op's), nil when the schema
// has none there.
func (e *enumSchema) enumAt(path []string) []any {
	for _, p := range path {
		if e == nil {
			return nil
		}
		e = e.Properties[p]
	}
	if e == nil {
		return nil
	}
	return e.Enum
}

// Write prints the surface's tools, each with the canonical actions behind
// it and how many cases reach it, then its gaps.
func (sc *SurfaceCoverage) Write(w io.Writer) error {
	fmt.Fprintf(w, "surface %s\n", termsafe.Line(sc.Surface))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TOOL\tACTIONS\tCASES")
	for _, t := range sc.Tools {
		acts := make([]string, len(t.Actions))
		for i, a := range t.Actions {
			acts[i] = termsafe.Line(a)
		}
		what := strings.Join(acts, ", ")
		if what == "" {
			what = "NONE"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\n", termsafe.Line(t.Tool), what, len(t.Cases))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\n%d tools; %d gaps\n", len(sc.Tools), len(sc.Gaps))
	return err
}
