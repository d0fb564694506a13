package ingest

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// How conversations are matched to cases (Match.By).
const (
	// ByPrompt matches a conversation to the case whose prompt is its
	// prompt, both trimmed of surrounding space.
	ByPrompt = "prompt"
	// ByAttribute matches a conversation to the case its attribute
	// Match.Key names (mcpeval.case.id by default).
	ByAttribute = "attribute"
	// ByRules matches a conversation to the case of the Match.Rules that
	// hold of it: unmatched when none holds, or rules of several cases do.
	ByRules = "rules"
)

// Match says how conversations are matched to cases.
type Match struct {
	By string
	// Key is the attribute of ByAttribute (CaseAttribute when empty).
	Key string
	// Rules are the rules of ByRules, as a suite's import: settings
	// write them.
	Rules []suite.ImportRule
}

// SuiteMatch is the matching a suite's import: settings say, and false
// when it says none.
func SuiteMatch(s *suite.Suite) (Match, bool) {
	if s.Import == nil || s.Import.Match == "" {
		return Match{}, false
	}
	return Match{By: s.Import.Match, Key: s.Import.Attribute, Rules: s.Import.Rules}, true
}

// Unmatched is a conversation no case took, with why.
type Unmatched struct {
	From    string         `json:"from"`
	Why     string         `json:"why"`
	Prompt  string         `json:"prompt"`
	Attempt record.Attempt `json:"attempt"`
}

// Result is what matching made of the conversations.
type Result struct {
	// Attempts are the matched conversations, each with its case and its
	// number within the case (from 1, in the order they started).
	Attempts []record.Attempt
	// Unmatched are the others, in the order they came.
	Unmatched []Unmatched
}

// Apply matches convs to the cases of s.
func (m Match) Apply(s *suite.Suite, convs []Conversation) (*Result, error) {
	key := m.Key
	if key == "" {
		key = CaseAttribute
	}
	byPrompt := map[string][]string{}
	if m.By == ByPrompt {
		for _, c := range s.Cases {
			p := strings.TrimSpace(c.Prompt)
			byPrompt[p] = append(byPrompt[p], c.ID)
		}
	} else if m.By != ByAttribute && m.By != ByRules {
		return nil, fmt.Errorf("matching by %q: want %s, %s or %s", m.By, ByPrompt, ByAttribute, ByRules)
	}
	rules, err := compileRules(s, m.Rules)
	if err != nil {
		return nil, err
	}
	res := &Result{}
	n := map[string]int{}
	for _, cv := range convs {
		id, why := "", ""
		switch m.By {
		case ByPrompt:
			p := strings.TrimSpace(cv.Attempt.Prompt)
			switch ids := byPrompt[p]; {
			case p == "":
				why = "no prompt (was the traffic exported with its content?)"
			case len(ids) == 0:
				why = "no case has this prompt"
			case len(ids) > 1:
				why = "the prompt of several cases (" + strings.Join(ids, ", ") + ")"
			default:
				id = ids[0]
			}
		case ByAttribute:
			v, ok := cv.Attrs[key]
			switch {
			case !ok || v == "":
				why = "no attribute " + key
			case s.Case(v) == nil:
				why = fmt.Sprintf("%s names %q, which the suite has no case of", key, v)
			default:
				id = v
			}
		case ByRules:
			id, why = rules.match(cv)
		}
		if id == "" {
			res.Unmatched = append(res.Unmatched, Unmatched{From: cv.From, Why: why, Prompt: cv.Attempt.Prompt, Attempt: cv.Attempt})
			continue
		}
		a := cv.Attempt
		n[id]++
		a.Case, a.N = id, n[id]
		res.Attempts = append(res.Attempts, a)
	}
	// In suite order then by number, as a run's record is read.
	order := map[string]int{}
	for i, c := range s.Cases {
		order[c.ID] = i
	}
	sort.SliceStable(res.Attempts, func(i, j int) bool {
		a, b := res.Attempts[i], res.Attempts[j]
		if order[a.Case] != order[b.Case] {
			return order[a.Case] < order[b.Case]
		}
		return a.N < b.N
	})
	return res, nil
}

// rule is an import rule ready to test conversations with.
type rule struct {
	suite.ImportRule
	re *regexp.Regexp
}

type ruleSet []rule

func compileRules(s *suite.Suite, in []suite.ImportRule) (ruleSet, error) {
	out := make(ruleSet, 0, len(in))
	for i, r := range in {
		if s.Case(r.Case) == nil {
			return nil, fmt.Errorf("import rule %d: no case %s in suite %s", i+1, r.Case, s.Name)
		}
		var re *regexp.Regexp
		if r.PromptRegex != "" {
			var err error
			if re, err = regexp.Compile(r.PromptRegex); err != nil {
				return nil, fmt.Errorf("import rule %d: prompt_regex: %w", i+1, err)
			}
		}
		out = append(out, rule{r, re})
	}
	return out, nil
}

// match returns the case whose rules hold of cv, or why none is taken.
func (rs ruleSet) match(cv Conversation) (id, why string) {
	var ids []string
	for _, r := range rs {
		holds := false
		if r.re != nil {
			holds = r.re.MatchString(cv.Attempt.Prompt)
		} else {
			v, ok := cv.Attrs[r.Attribute]
			holds = ok && v == r.Equals
		}
		if holds && !slices.Contains(ids, r.Case) {
			ids = append(ids, r.Case)
		}
	}
	switch len(ids) {
	case 0:
		if strings.TrimSpace(cv.Attempt.Prompt) == "" {
			return "", "no rule holds, and it has no prompt (was the traffic exported with its content?)"
		}
		return "", "no import rule holds"
	case 1:
		return ids[0], ""
	}
	return "", "import rules of several cases hold (" + strings.Join(ids, ", ") + ")"
}
