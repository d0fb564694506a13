package grade

import (
	"fmt"
	"slices"

	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// CheckToolErrors names the reasons of a question case failed by a tool
// error it does not expect.
const CheckToolErrors = "tool_errors"

// toolErrored reports whether a call reached the server and failed there:
// the tool refused it (isError) or the server rejected it.
func toolErrored(c record.Call) bool {
	return c.Shown && !c.NotSent && (c.IsError || c.Rejected != "")
}

// unexpectedErrors counts the calls that failed at the server (see
// toolErrored) of tools not listed in expected: errors the case did not
// provoke on purpose. A call a later one retried still counts.
func unexpectedErrors(expected []string, calls []record.Call) int {
	n := 0
	for _, c := range calls {
		if toolErrored(c) && !slices.Contains(expected, c.Name) {
			n++
		}
	}
	return n
}

// checkToolErrors fails a question case on each tool error it does not
// expect, unless suite s only notes them (tool_errors: note). A model that
// retried and then succeeded still fails: the error was its doing.
func checkToolErrors(s *suite.Suite, c *suite.Case, calls []record.Call) []Reason {
	if !s.FailsOnToolErrors() {
		return nil
	}
	var rs []Reason
	for i, call := range calls {
		if !toolErrored(call) || slices.Contains(c.ExpectedErrors, call.Name) {
			continue
		}
		what := "returned an error"
		if call.Rejected != "" {
			what = "was rejected by the server"
		}
		rs = append(rs, Reason{CheckToolErrors, fmt.Sprintf("call %d (%s) %s, and the case does not expect one (list the tool in expected_errors if the case provokes it, or set tool_errors: note): %s",
			i+1, call.Name, what, clip(errorOf(call), 160))})
	}
	return rs
}

// errorOf is the message of a failed call.
func errorOf(c record.Call) string {
	if c.Rejected != "" {
		return c.Rejected
	}
	if c.Result == "" {
		return "no message"
	}
	return c.Result
}
