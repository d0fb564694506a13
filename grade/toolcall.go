package grade

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// checkToolCall checks a tool-call case: only the model's first tool call
// is asserted. It must name one of the case's ExpectTools, and every
// argument ExpectArgs lists must equal the call's (compared as Equal does,
// an argument left out read at its schema default); other arguments are
// ignored. Write tools and tools not shown fail as in any case.
func checkToolCall(c *suite.Case, h *record.Header, calls []record.Call) []Reason {
	if len(calls) == 0 {
		return []Reason{{CheckTools, fmt.Sprintf("expected a first tool call of %s; the model made none", orList(c.ExpectTools))}}
	}
	first := calls[0]
	rs := checkTools(&suite.Case{}, h, calls[:1])
	if len(c.ExpectTools) > 0 && !contains(c.ExpectTools, first.Name) {
		rs = append(rs, Reason{CheckTools, fmt.Sprintf("expected a first tool call of %s; the first call was %s", orList(c.ExpectTools), first.Name)})
		return rs
	}
	keys := make([]string, 0, len(c.ExpectArgs))
	for k := range c.ExpectArgs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
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

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
