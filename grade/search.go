package grade

import (
	"fmt"
	"strings"

	"github.com/mcpeval/mcpeval/grade/actions"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// On a search surface (record.Surface Kind "search") the model is shown
// only search_tools, describe_tool and call_tool. A call of a server's
// tool by its own name is an unknown tool there: the grade says so in
// words that name the mistake, and whether the model searched at all.

// directCalls returns the reason an attempt on a search surface that
// failed called the server's tools by name, or "" when it did not: the
// tools it called so, and whether it ever searched or called through
// call_tool.
func directCalls(h *record.Header, a *record.Attempt) string {
	if h == nil || a == nil || h.Surface == nil || h.Surface.Kind != suite.SurfaceSearch {
		return ""
	}
	var direct []string
	searched := false
	for _, c := range a.Calls() {
		switch {
		case c.Kind == record.CallSearch || c.Name == suite.CallToolTool:
			searched = true
		case c.Kind == "" && !c.Shown && !containsName(direct, c.Name):
			direct = append(direct, c.Name)
		}
	}
	if len(direct) == 0 {
		return ""
	}
	names := strings.Join(direct, ", ")
	if !searched {
		return fmt.Sprintf("the model never searched: on search surface %s it called %s by name, and the surface shows only %s, %s and %s, so each call was an unknown tool",
			h.Surface.Name, names, suite.SearchToolsTool, suite.DescribeToolTool, suite.CallToolTool)
	}
	return fmt.Sprintf("on search surface %s the model called %s by name rather than through %s: an unknown tool there", h.Surface.Name, names, suite.CallToolTool)
}

func containsName(names []string, n string) bool {
	for _, x := range names {
		if x == n {
			return true
		}
	}
	return false
}

// withDirectCalls puts why first among the reasons of a failed attempt
// (and of its action row, r, when it has one).
func withDirectCalls(g AttemptGrade, r *actions.Result, why string) AttemptGrade {
	if why == "" || g.Outcome != Fail {
		return g
	}
	g.Reasons = append([]Reason{{CheckTools, why}}, g.Reasons...)
	if r != nil {
		r.Reasons = append([]string{Reason{CheckTools, why}.String()}, r.Reasons...)
	}
	return g
}

// Searches counts what the model did on a search surface: its searches
// (search_tools), its descriptions (describe_tool) and its calls through
// call_tool, and the attempts that made any.
type Searches struct {
	Searches  int `json:"searches"`
	Describes int `json:"describes"`
	Calls     int `json:"calls"`
	Attempts  int `json:"attempts"`
}

// count adds attempt a's searches, descriptions and calls.
func (s *Searches) count(a *record.Attempt) {
	any := false
	for _, c := range a.Calls() {
		switch {
		case c.Kind == record.CallSearch && c.Name == suite.SearchToolsTool:
			s.Searches++
		case c.Kind == record.CallSearch:
			s.Describes++
		case c.Kind == "" && c.Name == suite.CallToolTool:
			s.Calls++
		default:
			continue
		}
		any = true
	}
	if any {
		s.Attempts++
	}
}
