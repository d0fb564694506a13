package grade

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// checkToolCall checks a tool-call case: only the model's first tool call
// is asserted. It must name one of the case's ExpectTools, and every
// argument ExpectArgs lists must equal the call's (compared as Equal does,
// an argument left out read at its schema default); other arguments are
// ignored. A tool the run did not show fails as in any case; a write tool
// does not: nothing executes in a tool-call case (the runner sends no
// call), so a write tool is just the expected first call.
func checkToolCall(c *suite.Case, h *record.Header, calls []record.Call) []Reason {
	if len(calls) == 0 {
		return []Reason{{CheckTools, fmt.Sprintf("expected a first tool call of %s; the model made none", orList(c.ExpectTools))}}
	}
	first := calls[0]
	var rs []Reason
	if !shown(h, first) {
		rs = append(rs, Reason{CheckTools, fmt.Sprintf("called %s, a tool the run did not show the model: fails outright", first.Name)})
	}
	if len(c.ExpectTools) > 0 && !slices.Contains(c.ExpectTools, first.Name) {
		rs = append(rs, Reason{CheckTools, fmt.Sprintf("expected a first tool call of %s; the first call was %s", orList(c.ExpectTools), first.Name)})
		return rs
	}
	keys := slices.Sorted(maps.Keys(c.ExpectArgs))
	var bad []string
	for _, k := range keys {
		v, how := argValue(h, first, k)
		if (how == "" || how == "default") && Equal(v, c.ExpectArgs[k]) {
			continue
		}
		bad = append(bad, fmt.Sprintf("%s: want %s, got %s", k, showValue(c.ExpectArgs[k]), describeArg(v, how)))
	}
	if len(bad) > 0 {
		rs = append(rs, Reason{CheckArgs, fmt.Sprintf("first call of %s: %s", first.Name, strings.Join(bad, "; "))})
	}
	return rs
}

// shown reports whether call named a tool the run showed the model.
func shown(h *record.Header, call record.Call) bool {
	if !call.Shown {
		return false
	}
	if len(h.Tools) == 0 {
		return true
	}
	for _, t := range h.Tools {
		if t.Name == call.Name {
			return true
		}
	}
	return false
}
