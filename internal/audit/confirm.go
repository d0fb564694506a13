package audit

import (
	"fmt"
	"slices"

	"github.com/mcpeval/mcpeval/grade/actions"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// ConfirmWarnings returns a warning, located ("file:line: case ID: ..."),
// for every step of a destructive case on a destructive tool that has no
// way to take the approval: its input schema has no argument named by the
// suite's actions.confirm ("confirm" by default). A destructive case asks
// that the change be approved, and scoring measures the approval on such a
// step (see actions.NeedsApproval), so no attempt can reach it: the case
// is better written as a write or sequence case, or actions.confirm should
// name the argument the tool does take. A case with a user turn that
// approves is not warned: the user's turn gives the approval. Steps on
// tools the target does not list are left to Key.
//
// These are warnings, not errors: the suite loads and runs, and the
// Confirmation column shows what the warning says.
func ConfirmWarnings(s *suite.Suite, tools []record.Tool) []string {
	s = served(s, tools) // SERVER/TOOL names, for several servers
	byName := map[string]record.Tool{}
	for _, t := range tools {
		byName[t.Name] = t
	}
	var out []string
	for _, c := range s.Cases {
		a := c.Action
		if a == nil || a.Kind != suite.KindDestructive {
			continue
		}
		if slices.ContainsFunc(c.Turns, func(t suite.UserTurn) bool { return t.Approves }) {
			continue // the user's turn gives the approval
		}
		confirm := a.Settings().Confirm
		for i, st := range a.Steps {
			t, ok := byName[st.Tool]
			if !ok || !t.Destructive || actions.TakesArg(t.InputSchema, confirm) {
				continue
			}
			line := st.Line
			if line == 0 {
				line = c.Line
			}
			out = append(out, fmt.Sprintf("%s:%d: case %s: step %d: %s is destructive but takes no %s argument, so the approval a destructive case asks for cannot be given and the step can never be reached: make the case a write or sequence case, give it a turn that approves, or set actions.confirm to the argument %s takes", c.File, line, c.ID, i+1, st.Tool, confirm, st.Tool))
		}
	}
	return out
}
