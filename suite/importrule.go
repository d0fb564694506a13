package suite

import (
	"fmt"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v4"
)

// Import says how mcpeval import matches each conversation of imported
// traffic to a case of this suite, so that the suite keeps its own
// matching; the command's --match overrides it.
type Import struct {
	// Match is "prompt" (the case whose prompt is the conversation's
	// first user message), "attribute" (the case the attribute Attribute
	// names) or "rules" (the case of the rules that hold).
	Match string `yaml:"match"`
	// Attribute is the attribute of match: attribute (mcpeval.case.id
	// when empty).
	Attribute string `yaml:"attribute,omitempty"`
	// Rules are the rules of match: rules, each naming a case and what of
	// a conversation picks it.
	Rules []ImportRule `yaml:"rules,omitempty"`
}

// How Import.Match matches.
const (
	ImportByPrompt    = "prompt"
	ImportByAttribute = "attribute"
	ImportByRules     = "rules"
)

// ImportRule picks Case for a conversation whose prompt PromptRegex
// matches, or whose attribute Attribute is Equals: one or the other.
type ImportRule struct {
	// Case is the id of the case the rule picks.
	Case string `yaml:"case"`
	// PromptRegex is a Go regular expression the conversation's first
	// user message must match (anywhere: anchor it with ^ and $ for the
	// whole).
	PromptRegex string `yaml:"prompt_regex,omitempty"`
	// Attribute and Equals: the conversation's attribute Attribute must
	// read Equals exactly.
	Attribute string `yaml:"attribute,omitempty"`
	Equals    string `yaml:"equals,omitempty"`
	// Line locates the rule in its file.
	Line int `yaml:"-"`
}

// checkImport checks the import: settings, each rule at its line; the
// cases the rules name are checked once every case is read.
func (l *loader) checkImport(s *Suite, file string, root *yaml.Node) {
	im := s.Import
	if im == nil {
		return
	}
	n := nodeAt(root, "import")
	line := 0
	if n != nil {
		line = n.Line
	}
	at := func(line int, format string, args ...any) {
		l.errorf(file, line, 0, "import: %s", fmt.Sprintf(format, args...))
	}
	switch im.Match {
	case ImportByPrompt, ImportByAttribute, ImportByRules:
	case "":
		at(line, "no match: want match: prompt, attribute or rules")
	default:
		at(line, "match %q: want prompt, attribute or rules", im.Match)
	}
	if im.Attribute != "" && im.Match != ImportByAttribute {
		at(line, "attribute goes with match: attribute (a rule names its own attribute)")
	}
	if len(im.Rules) > 0 && im.Match != ImportByRules {
		at(line, "rules go with match: rules")
	}
	if im.Match == ImportByRules && len(im.Rules) == 0 {
		at(line, "match: rules needs rules: [{case: ID, prompt_regex: ...} or {case: ID, attribute: KEY, equals: VALUE}]")
	}
	if seq := nodeAt(n, "rules"); seq != nil && seq.Kind == yaml.SequenceNode {
		for i, r := range seq.Content {
			if i < len(im.Rules) {
				im.Rules[i].Line = r.Line
			}
		}
	}
	for i, r := range im.Rules {
		rat := func(format string, args ...any) {
			at(r.Line, "rule %d: %s", i+1, fmt.Sprintf(format, args...))
		}
		if strings.TrimSpace(r.Case) == "" {
			rat("no case: want case: ID")
		}
		byAttr := r.Attribute != "" || r.Equals != ""
		switch {
		case r.PromptRegex != "" && byAttr:
			rat("want prompt_regex, or attribute with equals, not both")
		case r.PromptRegex == "" && !byAttr:
			rat("picks nothing: want prompt_regex, or attribute with equals")
		case byAttr && (r.Attribute == "" || r.Equals == ""):
			rat("want attribute and equals together")
		}
		if r.PromptRegex != "" {
			if re, err := regexp.Compile(r.PromptRegex); err != nil {
				rat("prompt_regex: %v", err)
			} else if re.MatchString("") {
				rat("prompt_regex %q matches the empty string, so it would take every conversation", r.PromptRegex)
			}
		}
	}
}

// checkImportCases reports rules naming a case the suite does not have.
func (l *loader) checkImportCases(s *Suite, file string) {
	if s.Import == nil {
		return
	}
	for i, r := range s.Import.Rules {
		if r.Case != "" && s.Case(r.Case) == nil {
			l.errorf(file, r.Line, 0, "import: rule %d: no case %s in the suite", i+1, r.Case)
		}
	}
}
