package fake

import (
	"strings"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/suite"
)

// user is fake:user, a model that plays a case's user (its user:)
// deterministically. The request is the conversation as the user sees it:
// the model under test's answers are its user messages. When the last of
// them puts a question, fake:user answers it with what the case's user
// knows: the facts whose names (an underscore read as a space) the
// question mentions, else every fact, each as "NAME: VALUE", joined with
// "; " in name order; it answers "I don't know." when the user knows
// nothing. An answer without a question ends the conversation
// (suite.UserStop).
func user(c *suite.Case, _ int, req *model.Request) model.Message {
	last := ""
	if n := len(req.Messages); n > 0 && req.Messages[n-1].Role == model.User {
		last = req.Messages[n-1].TextOf()
	}
	if !grade.Asks(last) {
		return Say(suite.UserStop)
	}
	return Say(UserAnswer(c, last))
}

// UserAnswer is what fake:user says to a question of case c's model.
func UserAnswer(c *suite.Case, question string) string {
	if c.User == nil || len(c.User.Knows) == 0 {
		return "I don't know."
	}
	q := strings.ToLower(question)
	var named, all []string
	for _, k := range c.User.KnownFacts() {
		fact := k + ": " + c.User.Knows[k]
		all = append(all, fact)
		if strings.Contains(q, strings.ToLower(strings.ReplaceAll(k, "_", " "))) {
			named = append(named, fact)
		}
	}
	if len(named) == 0 {
		named = all
	}
	return strings.Join(named, "; ")
}
