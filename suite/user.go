package suite

import (
	"maps"
	"slices"
	"strings"

	"go.yaml.in/yaml/v4"
)

// UserStop is what a model playing the user answers to end the
// conversation: a message holding it is not sent, and the model's last
// answer is the one graded.
const UserStop = "###STOP###"

// SimUser is a model that plays the user (a simulated user): after each
// answer of the model under test it is asked what the user says next,
// given the conversation as the user saw it, until it ends the
// conversation (UserStop) or has had the case's max_user_turns.
type SimUser struct {
	// Model is the spec of the model that plays the user
	// ("anthropic:claude-haiku-4-5", "fake:user", "script:FILE").
	Model string `yaml:"model"`
	// Instructions say who the user is and what they want.
	Instructions string `yaml:"instructions"`
	// Knows are facts the user reveals only when the model asks for them,
	// by name.
	Knows map[string]string `yaml:"knows,omitempty"`
	// File and Line locate the setting.
	File string `yaml:"-"`
	Line int    `yaml:"-"`
}

// KnownFacts returns the names of what the user knows, sorted.
func (u *SimUser) KnownFacts() []string {
	return slices.Sorted(maps.Keys(u.Knows))
}

// UserModels returns the specs of the models that play a case's user,
// sorted, each once.
func (s *Suite) UserModels() []string {
	seen := map[string]bool{}
	for _, c := range s.Cases {
		if c.User != nil {
			seen[c.User.Model] = true
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// checkSimUser checks a user setting found at node n (the suite's, or a
// case's when id is set); at reports a problem at a line.
func checkSimUser(u *SimUser, n *yaml.Node, at func(line int, format string, args ...any)) {
	line := u.Line
	field := func(key string) int {
		if v := nodeAt(n, key); v != nil {
			return v.Line
		}
		return line
	}
	switch m := strings.TrimSpace(u.Model); {
	case m == "":
		at(line, "user: model is empty: want the spec of the model that plays the user, such as anthropic:claude-haiku-4-5 or fake:user")
	case !strings.Contains(m, ":") || strings.HasPrefix(m, ":"):
		at(field("model"), "user: model %q: want PROVIDER:NAME, such as anthropic:claude-haiku-4-5 or fake:user", u.Model)
	}
	if strings.TrimSpace(u.Instructions) == "" {
		at(field("instructions"), "user: instructions are empty: want who the user is and what they want")
	}
	for _, k := range u.KnownFacts() {
		switch {
		case strings.TrimSpace(k) == "":
			at(field("knows"), "user: knows has an empty name: want a name for each fact")
		case strings.TrimSpace(u.Knows[k]) == "":
			at(field("knows"), "user: knows %q is empty: want the fact's value (leave it out if the user does not know it)", k)
		}
	}
}

// suiteUser checks the suite's user setting, the default of its cases.
func (l *loader) suiteUser(s *Suite, file string, root *yaml.Node) {
	u := s.User
	if u == nil {
		return
	}
	n := mapValue(root, "user")
	u.File, u.Line = file, keyLine(root, "user", 1)
	checkSimUser(u, n, func(line int, format string, args ...any) {
		l.errorf(file, line, 0, format, args...)
	})
}

// caseUser checks a case's user setting, and gives a case with neither
// turns nor a user of its own the suite's user (def, nil for none).
func (l *loader) caseUser(c *Case, n *yaml.Node, def *SimUser) {
	at := func(line int, format string, args ...any) {
		l.errorf(c.File, line, 0, "case %s: "+format, append([]any{c.ID}, args...)...)
	}
	un := mapValue(n, "user")
	if c.User == nil {
		if un != nil {
			at(keyLine(n, "user", un.Line), "user is empty: want model and instructions (leave it out for the suite's)")
		} else if def != nil && len(c.Turns) == 0 && !c.IsToolCall() {
			c.User = def
		}
		return
	}
	c.User.File, c.User.Line = c.File, keyLine(n, "user", un.Line)
	if ts := mapValue(n, "turns"); ts != nil {
		at(ts.Line, "has both turns and user: the user is scripted (turns) or played by a model (user), not both; leave one out")
	}
	if c.IsToolCall() {
		at(c.User.Line, "a tool-call case ends at the model's first calls, so the user never speaks again: user needs mode agent")
	}
	checkSimUser(c.User, un, at)
}

// keyLine is the line of key in mapping n, or def when n does not hold it.
func keyLine(n *yaml.Node, key string, def int) int {
	if n == nil || n.Kind != yaml.MappingNode {
		return def
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i].Line
		}
	}
	return def
}
