package suite

import (
	"fmt"

	"github.com/mcpeval/mcpeval/model"
)

// Elicitation is the answer a server's elicitation request
// (elicitation/create, form mode) gets, as a user would give it.
type Elicitation struct {
	// Action is "accept", "decline" or "cancel".
	Action string `yaml:"action"`
	// Content is the form an accepted request submits, with the
	// requestedSchema's default for each field it leaves out; it must fit
	// the requestedSchema, or the request is declined and the record says
	// why.
	Content map[string]any `yaml:"content,omitempty"`
}

// Sampling says which model answers a server's sampling requests
// (sampling/createMessage) made during a tool call.
type Sampling struct {
	// Model is the spec of the model that answers ("provider:name",
	// options after semicolons, as --model takes), opened once for the
	// run; a paid one needs --spend as the model under test does.
	Model string `yaml:"model"`
}

// The actions of an Elicitation.
const (
	ElicitAccept  = "accept"
	ElicitDecline = "decline"
	ElicitCancel  = "cancel"
)

// ElicitationFor returns the answer case c gives an elicitation: the
// case's own, else the suite's, else nil (declined, with a note).
func (s *Suite) ElicitationFor(c *Case) *Elicitation {
	if c != nil && c.Elicitation != nil {
		return c.Elicitation
	}
	return s.Elicitation
}

// checkElicitation checks the suite's elicitation.
func (l *loader) checkElicitation(s *Suite, file string, data []byte) {
	if e := s.Elicitation; e != nil {
		if msg := e.check(); msg != "" {
			l.errorf(file, lineOf(data, "elicitation:"), 0, "elicitation: %s", msg)
		}
	}
}

// checkSampling checks the suite's sampling setting: a model spec of the
// form provider:name. Whether the provider exists is checked when the
// run opens it.
func (l *loader) checkSampling(s *Suite, file string, data []byte) {
	if s.Sampling == nil {
		return
	}
	line, col := lineOf(data, "sampling:"), 0
	if n := nodeAt(rootNode(data), "sampling", "model"); n != nil {
		line, col = n.Line, n.Column
	}
	if s.Sampling.Model == "" {
		l.errorf(file, line, col, "sampling: model is empty: want a model spec such as fake:perfect (leave sampling out for the model under test)")
		return
	}
	if _, err := model.ParseSpec(s.Sampling.Model); err != nil {
		l.errorf(file, line, col, "sampling: %v", err)
	}
}

// checkCaseElicitations checks every case's elicitation.
func (l *loader) checkCaseElicitations(s *Suite) {
	for _, c := range s.Cases {
		if e := c.Elicitation; e != nil {
			if msg := e.check(); msg != "" {
				l.errorf(c.File, c.Line, 0, "case %s: elicitation: %s", c.ID, msg)
			}
		}
	}
}

func (e *Elicitation) check() string {
	switch e.Action {
	case ElicitAccept:
	case ElicitDecline, ElicitCancel:
		if len(e.Content) > 0 {
			return "content is for action accept only"
		}
	default:
		return fmt.Sprintf("action %q: want accept, decline or cancel", e.Action)
	}
	return ""
}
