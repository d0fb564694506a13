package audit

import (
	"fmt"

	"github.com/mcpeval/mcpeval/internal/report/format"
	"github.com/mcpeval/mcpeval/suite"
)

// CleanupWarnings says, before a run, which action cases of s may leave
// something behind that nothing will remove: a case that changes the
// target (write, sequence, destructive) or builds fixtures, in a suite with
// no inventory to list and remove items and no teardown, or a fixture
// with no teardown of its own. A fresh target (fresh_target) needs no
// cleanup. It also flags cleanup calls that name neither a tool nor a
// command.
func CleanupWarnings(s *suite.Suite) []string {
	var st *suite.ActionSettings
	for _, c := range s.Cases {
		if c.Action != nil {
			st = c.Action.Settings()
			break
		}
	}
	if st == nil {
		return nil
	}
	var warnings []string
	for i, c := range st.Teardown {
		if c.Tool == "" && len(c.Command) == 0 {
			warnings = append(warnings, fmt.Sprintf("actions: teardown %d names neither a tool nor a command", i+1))
		}
	}
	for i, c := range st.Leftovers {
		if c.Tool == "" && len(c.Command) == 0 {
			warnings = append(warnings, fmt.Sprintf("actions: leftovers %d names neither a tool nor a command", i+1))
		}
	}
	if s.FreshTarget || len(st.Inventory) > 0 || len(st.Teardown) > 0 {
		return warnings
	}
	for _, c := range s.Cases {
		a := c.Action
		if a == nil {
			continue
		}
		changes := a.Kind == suite.KindWrite || a.Kind == suite.KindSequence || a.Kind == suite.KindDestructive
		bare := 0
		for _, fx := range a.Fixtures {
			if fx.Teardown == nil {
				bare++
			}
		}
		switch {
		case changes:
			warnings = append(warnings, fmt.Sprintf("%s:%d: case %s (%s) changes the target, and nothing removes what it makes: the suite has no actions.inventory and no actions.teardown", c.File, c.Line, c.ID, a.Kind))
		case bare > 0:
			warnings = append(warnings, fmt.Sprintf("%s:%d: case %s builds %d fixture%s with no teardown, and the suite has no actions.inventory and no actions.teardown to remove them", c.File, c.Line, c.ID, bare, format.S(bare)))
		}
	}
	return warnings
}
