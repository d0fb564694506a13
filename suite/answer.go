package suite

import (
	"errors"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v4"
)

// AnswerCheck says what a case's final answer must and must not say, for
// answers that are names rather than figures (a file, a ticket, a person).
//
// Matching is case-insensitive (by Unicode case folding, so "straße"
// matches "STRASSE") unless CaseSensitive is set. It is done on the
// normalised answer: Markdown marks * and ` dropped, Unicode NFKC, curly
// quotes and dashes as ASCII, runs of white space one space. Strings
// may name {{token}} and {{fact.NAME}} of an action case's fixtures; they
// are rendered with the attempt's values before matching.
type AnswerCheck struct {
	// Contains lists strings that must all appear in the answer.
	Contains []string `yaml:"contains,omitempty"`
	// AnyOf lists strings of which at least one must appear.
	AnyOf []string `yaml:"any_of,omitempty"`
	// NotContains lists strings none of which may appear.
	NotContains []string `yaml:"not_contains,omitempty"`
	// Matches is a regular expression (Go RE2 syntax) the answer must
	// match somewhere; a {{placeholder}} in it stands for its value
	// literally.
	Matches string `yaml:"matches,omitempty"`
	// CaseSensitive makes every comparison respect letter case.
	CaseSensitive bool `yaml:"case_sensitive,omitempty"`
	// Line locates the check in its file.
	Line int `yaml:"-"`
}

// UnmarshalYAML reads an answer check and remembers its line.
func (a *AnswerCheck) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.MappingNode {
		return errors.New("answer is a mapping: want contains, any_of, not_contains, matches (and case_sensitive)")
	}
	type plain AnswerCheck
	if err := n.Load((*plain)(a), yaml.WithKnownFields()); err != nil {
		return friendlyErr(err, "answer (want contains, any_of, not_contains, matches, case_sensitive)", a)
	}
	a.Line = n.Line
	return nil
}

// answerLists names the list keys of an answer check, in the order they
// are checked.
var answerLists = []string{"contains", "any_of", "not_contains"}

// answerChecks reports what is wrong with case c's answer check, reading
// node n (the case's mapping) for the lines of empty lists and strings.
func (l *loader) answerChecks(c *Case, n *yaml.Node) {
	if c.Answer == nil {
		return
	}
	at := func(line int, format string, args ...any) {
		if line == 0 {
			line = c.Answer.Line
		}
		l.errorf(c.File, line, 0, "case %s: answer: "+format, append([]any{c.ID}, args...)...)
	}
	an := mapValue(n, "answer")
	if an == nil || an.Kind != yaml.MappingNode {
		return
	}
	if k := mapKey(n, "answer"); k != nil {
		c.Answer.Line = k.Line
	}
	checks := 0
	for _, key := range answerLists {
		v := mapValue(an, key)
		if v == nil {
			continue
		}
		if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
			at(v.Line, "%s is empty: want a list of strings, or leave %s out", key, key)
			continue
		}
		checks++
		for i, s := range v.Content {
			if strings.TrimSpace(s.Value) == "" {
				at(s.Line, "%s %d is empty: an empty string is in every answer", key, i+1)
			}
		}
	}
	if v := mapValue(an, "matches"); v != nil {
		checks++
		if strings.TrimSpace(v.Value) == "" {
			at(v.Line, "matches is empty: want a regular expression, or leave matches out")
		} else if _, err := regexp.Compile(answerSyntax(c.Answer.Matches)); err != nil {
			at(v.Line, "matches: bad regular expression: %v", err)
		}
	}
	if checks == 0 {
		at(0, "checks nothing: want contains, any_of, not_contains or matches")
	}
	if c.Mode == ModeToolCall {
		at(0, "a tool-call case asserts its first tool call only and has no answer: answer needs mode agent")
	}
	for _, s := range c.Answer.Contains {
		for _, t := range c.Answer.NotContains {
			if strings.EqualFold(strings.TrimSpace(s), strings.TrimSpace(t)) {
				at(0, "%q is both in contains and in not_contains: no answer can pass", s)
			}
		}
	}
	l.answerPlaceholders(c, at)
}

// answerPlaceholders checks the placeholders of c's answer check: an action
// case may name its token and the facts its fixtures define; a case
// without fixtures has nothing to name.
func (l *loader) answerPlaceholders(c *Case, at func(int, string, ...any)) {
	a := c.Answer
	var strs []string
	strs = append(strs, a.Contains...)
	strs = append(strs, a.AnyOf...)
	strs = append(strs, a.NotContains...)
	strs = append(strs, a.Matches)
	facts := map[string]bool{}
	fixtures := false
	if c.Action != nil {
		for _, f := range c.Action.Fixtures {
			fixtures = true
			for name := range f.Facts {
				facts[name] = true
			}
		}
	}
	for _, s := range strs {
		for _, p := range Placeholders(s) {
			switch {
			case !fixtures:
				at(0, "names {{%s}}, but only a case with fixtures (action.fixtures) has a token and facts", p)
			case p == "token":
			case strings.HasPrefix(p, "fact.") && facts[factName(p)]:
			default:
				at(0, "names {{%s}}: want {{token}} or {{fact.NAME}} of a fact a fixture defines", p)
			}
		}
	}
}

// AnswerPattern renders the regular expression of an answer check with
// v: each placeholder stands for its value, quoted so that it matches
// literally. A placeholder with no value is an error.
func AnswerPattern(expr string, v Vars) (string, error) {
	q := Vars{Token: regexp.QuoteMeta(v.Token), Facts: map[string]string{}}
	for k, f := range v.Facts {
		q.Facts[k] = regexp.QuoteMeta(f)
	}
	return Render(expr, q)
}

// answerSyntax readies expr for a syntax check at load, when the values
// of its placeholders are not known: each stands for a plain word.
func answerSyntax(expr string) string {
	return placeholderRE.ReplaceAllString(expr, "x")
}

// mapKey returns the key node of key in mapping n, or nil.
func mapKey(n *yaml.Node, key string) *yaml.Node {
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i]
		}
	}
	return nil
}
