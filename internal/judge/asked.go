package judge

import (
	"fmt"
	"strings"

	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// Reads reports whether Ask puts attempt a of a run of suite s to j: an
// answered attempt of a decline case or, when j is a RubricJudge, of a
// case with a rubric. Those are the only attempts a run handed to Ask or
// Resume needs to hold (each as Question keeps it); a run read as a
// stream keeps them alone.
func Reads(j Judge, s *suite.Suite, a *record.Attempt) bool {
	c := s.Case(a.Case)
	return c != nil && a.End == record.EndAnswered && (c.Decline || rules(j, c))
}

// rules reports whether j reads the answers of case c against its rubric.
func rules(j Judge, c *suite.Case) bool {
	_, ok := j.(RubricJudge)
	return ok && c.Judge != nil
}

// Question is attempt a as Ask reads it: its case, number and end, the
// request put to the model, what the model answered and the user said
// back when the user spoke again (Conversation), and its answer. The rest
// (tool calls, usage) the judge never reads, and is not kept.
func Question(a *record.Attempt) record.Attempt {
	q := record.Attempt{Case: a.Case, N: a.N, End: a.End, Prompt: a.Prompt, Answer: a.Answer}
	for _, t := range a.Turns {
		if said(t.User) {
			q.Turns = append(q.Turns, record.Turn{Text: t.Text, User: &record.UserTurn{Text: t.User.Text}})
		}
	}
	return q
}

// said reports whether the user said u to the model: a scripted entry, or
// a simulated user's message that did not end the conversation.
func said(u *record.UserTurn) bool { return u != nil && !u.Stop && u.Error == "" }

// Conversation is the request the judge reads for attempt a: its prompt
// and, when the user spoke again, each answer of the model the user
// answered and what the user said, in order. The answer judged is the
// last, which ended the conversation. Without user turns it is the
// prompt alone, as it always was.
func Conversation(a *record.Attempt) string {
	var b strings.Builder
	b.WriteString(a.Prompt)
	for _, t := range a.Turns {
		if !said(t.User) {
			continue
		}
		fmt.Fprintf(&b, "\n\n<assistant>\n%s\n</assistant>\n\n<user>\n%s\n</user>", strings.TrimSpace(t.Text), strings.TrimSpace(t.User.Text))
	}
	return b.String()
}
