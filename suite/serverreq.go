package suite

import (
	"errors"
	"fmt"
	"regexp"

	"github.com/mcpeval/mcpeval/model"
	"go.yaml.in/yaml/v4"
)

// Elicitation is the answer a server's elicitation request
// (elicitation/create, form mode) gets, as a user would give it.
type Elicitation struct {
	// Match, when set, is a regular expression (Go RE2) the server's
	// message must match for this answer to be given; an answer without
	// it answers any message.
	Match string `yaml:"match,omitempty"`
	// Action is "accept", "decline" or "cancel".
	Action string `yaml:"action"`
	// Content is the form an accepted request submits, with the
	// requestedSchema's default for each field it leaves out; it must fit
	// the requestedSchema, or the request is declined and the record says
	// why.
	Content map[string]any `yaml:"content,omitempty"`

	re *regexp.Regexp
}

// Elicitations are the answers a suite or a case gives the server's
// elicitation requests: one answer for every request (written as a
// mapping), or a list answered per request, the first entry whose match
// matches the server's message answering it.
type Elicitations []Elicitation

// UnmarshalYAML reads one answer (a mapping) or a list of them.
func (es *Elicitations) UnmarshalYAML(n *yaml.Node) error {
	const what = "an elicitation answer (want match, action, content)"
	switch n.Kind {
	case yaml.MappingNode:
		var e Elicitation
		if err := n.Load(&e, yaml.WithKnownFields()); err != nil {
			return friendlyErr(err, what, &e)
		}
		*es = Elicitations{e}
	case yaml.SequenceNode:
		var list []Elicitation
		if err := n.Load(&list, yaml.WithKnownFields()); err != nil {
			return friendlyErr(err, what, &Elicitation{})
		}
		if len(list) == 0 {
			return errors.New("elicitation is an empty list: want at least one answer, or leave elicitation out")
		}
		*es = list
	default:
		return errors.New("elicitation is a mapping (one answer for every request) or a list of answers, each with match")
	}
	return nil
}

// For returns the first answer whose match matches message, or nil when
// none does.
func (es Elicitations) For(message string) *Elicitation {
	for i := range es {
		e := &es[i]
		if e.Match == "" {
			return e
		}
		re := e.re
		if re == nil {
			var err error
			if re, err = regexp.Compile(e.Match); err != nil {
				continue
			}
		}
		if re.MatchString(message) {
			return e
		}
	}
	return nil
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

// ElicitationFor returns the answer case c gives an elicitation whose
// message is message: from the case's own answers when it sets any, else
// from the suite's. It is nil when none answers it; set reports whether
// the case or the suite sets any answer at all.
func (s *Suite) ElicitationFor(c *Case, message string) (e *Elicitation, set bool) {
	es := s.Elicitation
	if c != nil && c.Elicitation != nil {
		es = c.Elicitation
	}
	return es.For(message), es != nil
}

// checkElicitation checks the suite's elicitation.
func (l *loader) checkElicitation(s *Suite, file string, data []byte) {
	for i := range s.Elicitation {
		if msg := s.Elicitation.check(i); msg != "" {
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
		for i := range c.Elicitation {
			if msg := c.Elicitation.check(i); msg != "" {
				l.errorf(c.File, c.Line, 0, "case %s: elicitation: %s", c.ID, msg)
			}
		}
	}
}

// check checks answer i, and compiles its match.
func (es Elicitations) check(i int) string {
	e := &es[i]
	at := ""
	if len(es) > 1 {
		at = fmt.Sprintf("answer %d: ", i+1)
	}
	if e.Match != "" {
		re, err := regexp.Compile(e.Match)
		if err != nil {
			return fmt.Sprintf("%smatch %q is not a regular expression (Go RE2 syntax): %v", at, e.Match, err)
		}
		e.re = re
	}
	switch e.Action {
	case ElicitAccept:
	case ElicitDecline, ElicitCancel:
		if len(e.Content) > 0 {
			return at + "content is for action accept only"
		}
	default:
		return fmt.Sprintf("%saction %q: want accept, decline or cancel", at, e.Action)
	}
	return ""
}
