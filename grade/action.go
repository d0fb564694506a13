package grade

import (
	"github.com/mcpeval/mcpeval/grade/actions"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// CheckAction names the reasons of an action case: a step not reached, an
// argument wrong, a change or a tool error the case did not ask for, an
// attempt that did not finish or did not decline (see package actions).
const CheckAction = "action"

// actionAttempt grades an attempt of an action case by its action score:
// it passes when the score passes, and an attempt the score leaves out (an
// error none of the model's doing) is an error.
func actionAttempt(c *suite.Case, h *record.Header, a *record.Attempt) AttemptGrade {
	r := actions.Score(c, h, a)
	g := AttemptGrade{Case: a.Case, N: a.N, Reasons: []Reason{}}
	switch {
	case r.Excluded != "":
		g.Outcome, g.ErrorKind = Error, r.Excluded
		for _, m := range r.Reasons {
			g.Reasons = append(g.Reasons, Reason{CheckError, m})
		}
	case r.Pass:
		g.Outcome = Pass
	default:
		g.Outcome = Fail
		for _, m := range r.Reasons {
			g.Reasons = append(g.Reasons, Reason{CheckAction, m})
		}
	}
	return withAnswer(g, c, a)
}
