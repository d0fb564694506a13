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

// actionVerdict is the one verdict of an attempt of action case c: its
// action score (package actions), with what only the answer can tell
// folded in: on a decline case, that the answer declines or asks and
// claims no action (the Declined column counts only such a decline), the
// case's answer check, and the expect of the user's turns (checkTurns).
// The attempt's grade and its row of the action columns are both read from
// it, so reports, the action columns, compare and the ledger agree. An
// attempt the score leaves out (an error none of the model's doing) is an
// error.
func actionVerdict(s *suite.Suite, c *suite.Case, h *record.Header, a *record.Attempt) (AttemptGrade, actions.Result) {
	r := actions.Score(c, h, a)
	g := AttemptGrade{Case: a.Case, N: a.N, Reasons: []Reason{}}
	if r.Excluded != "" {
		g.Outcome, g.ErrorKind = Error, r.Excluded
		for _, m := range r.Reasons {
			g.Reasons = append(g.Reasons, Reason{CheckError, m})
		}
		return g, r
	}
	for _, m := range r.Reasons {
		g.Reasons = append(g.Reasons, Reason{CheckAction, m})
	}
	g.ToolErrors = unexpectedErrors(c.Action.ExpectedErrors, a.Calls())
	g.Reasons = append(g.Reasons, checkTurns(s, c, a)...)
	if a.End == record.EndAnswered {
		if c.Action.Kind == suite.KindDecline && r.Columns.Declined.Num > 0 {
			if why := declineProblem(s, a.Answer); why != "" {
				r.Columns.Declined.Num = 0
				g.Reasons = append(g.Reasons, Reason{CheckAction, why})
			}
		}
		g.Reasons = append(g.Reasons, checkAnswer(c, a)...)
	}
	g.Outcome = Pass
	if len(g.Reasons) > 0 {
		g.Outcome = Fail
	}
	r.Reasons = r.Reasons[:0]
	for _, rs := range g.Reasons {
		m := rs.Message
		if rs.Check != CheckAction {
			m = rs.String()
		}
		r.Reasons = append(r.Reasons, m)
	}
	if len(r.Reasons) == 0 {
		r.Reasons = nil
	}
	r.Pass = g.Outcome == Pass
	r.Columns.Pass = actions.Column{Num: 0, Den: 1}
	if r.Pass {
		r.Columns.Pass.Num = 1
	}
	return g, r
}
