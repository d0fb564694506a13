package grade

import (
	"fmt"

	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// checkTurns runs the expect of each of case c's turns the user was given
// in attempt a on the answer that turn follows: the model's answer the
// user's message responded to. Each reason says which turn it read
// ("turn 2: ..."), counting the case's turns from 1. A turn never said
// checks nothing.
func checkTurns(s *suite.Suite, c *suite.Case, a *record.Attempt) []Reason {
	var rs []Reason
	for _, t := range a.Turns {
		if t.User == nil || t.User.Entry < 1 || t.User.Entry > len(c.Turns) {
			continue
		}
		e := c.Turns[t.User.Entry-1].Expect
		if e == nil {
			continue
		}
		cc := e.Case(c)
		at := *a
		at.Answer = t.Text
		var got []Reason
		got = append(got, checkFigures(s, cc, t.Text)...)
		got = append(got, checkDecline(s, cc, t.Text)...)
		got = append(got, checkAnswer(cc, &at)...)
		for _, r := range got {
			r.Message = fmt.Sprintf("turn %d: %s", t.User.Entry, r.Message)
			rs = append(rs, r)
		}
	}
	return rs
}
