package ingest

import (
	"fmt"
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
)

// Match says how conversations are matched to cases.
type Match struct {
	By string
	// Key is the attribute of ByAttribute (CaseAttribute when empty).
	Key string
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
	} else if m.By != ByAttribute {
		return nil, fmt.Errorf("matching by %q: want %s or %s", m.By, ByPrompt, ByAttribute)
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
