package corpus

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mcpeval/mcpeval/internal/report/format"
	"github.com/mcpeval/mcpeval/internal/termsafe"
	"github.com/mcpeval/mcpeval/suite"
)

// Corpus describes a suite's cases: each with its prompt, key and kind,
// counted by group, kind and tool, and how many a person has checked.
type Corpus struct {
	Suite string `json:"suite"`
	// Verified counts the cases a person has checked: every case not
	// marked verified: false.
	Verified int    `json:"verified"`
	Total    int    `json:"cases"`
	Cases    []Case `json:"case_list"`
	// Groups, Kinds and Tools count the cases of each group, kind and
	// tool (a case counts once under each tool its key or rules name),
	// sorted by name.
	Groups []Count `json:"groups"`
	Kinds  []Count `json:"kinds"`
	Tools  []Count `json:"tools"`
}

// Case is one case as Describe lists it.
type Case struct {
	ID     string `json:"id"`
	Group  string `json:"group"`
	Kind   string `json:"kind"`
	Prompt string `json:"prompt"`
	// Key lists the tools of the case's key, in order: its key calls, an
	// action case's steps, or a tool-call case's expected tools.
	Key []string `json:"key"`
	// Tools are the tools the case names anywhere (key and rules).
	Tools    []string `json:"tools"`
	Verified bool     `json:"verified"`
	// From says where the case is written: FILE:LINE, a suite file or a
	// file its cases_from names.
	From string `json:"from"`
}

// Count is how many cases share a group, kind or tool, and how many of
// them a person has checked.
type Count struct {
	Name     string `json:"name"`
	Cases    int    `json:"cases"`
	Verified int    `json:"verified"`
}

// Kind says what sort of case c is: "question", "decline", "judged",
// "tool-call", or "action/KIND" for an action case.
func Kind(c *suite.Case) string {
	switch {
	case c.Action != nil:
		return "action/" + c.Action.Kind
	case c.IsToolCall():
		return "tool-call"
	case c.Decline:
		return "decline"
	case c.JudgedOnly():
		return "judged"
	}
	return "question"
}

// Describe lists the cases of s and counts them.
func Describe(s *suite.Suite) *Corpus {
	out := &Corpus{Suite: s.Name, Cases: []Case{}}
	groups, kinds, tools := map[string]*Count{}, map[string]*Count{}, map[string]*Count{}
	add := func(m map[string]*Count, name string, verified bool) {
		n := m[name]
		if n == nil {
			n = &Count{Name: name}
			m[name] = n
		}
		n.Cases++
		if verified {
			n.Verified++
		}
	}
	for _, c := range s.Cases {
		dc := Case{ID: c.ID, Group: c.Group, Kind: Kind(c), Prompt: c.Prompt, Key: keyTools(c), Tools: caseTools(c), Verified: !c.Unverified(), From: from(c)}
		out.Cases = append(out.Cases, dc)
		out.Total++
		if dc.Verified {
			out.Verified++
		}
		add(groups, dc.Group, dc.Verified)
		add(kinds, dc.Kind, dc.Verified)
		for _, t := range dc.Tools {
			add(tools, t, dc.Verified)
		}
	}
	out.Groups, out.Kinds, out.Tools = sorted(groups), sorted(kinds), sorted(tools)
	return out
}

func from(c *suite.Case) string {
	if c.Line > 0 {
		return fmt.Sprintf("%s:%d", c.File, c.Line)
	}
	return c.File
}

func keyTools(c *suite.Case) []string {
	var key []string
	switch {
	case c.Action != nil:
		for _, st := range c.Action.Steps {
			key = append(key, st.Tool)
		}
	case c.IsToolCall():
		key = append(key, c.ExpectTools...)
	default:
		for _, k := range c.Key.Calls {
			key = append(key, k.Tool)
		}
	}
	if key == nil {
		key = []string{}
	}
	return key
}

func caseTools(c *suite.Case) []string {
	set := map[string]bool{}
	for _, t := range keyTools(c) {
		set[t] = true
	}
	for _, ts := range [][]string{c.Tools.Required, c.Tools.Accepted, c.ExpectTools} {
		for _, t := range ts {
			set[t] = true
		}
	}
	out := make([]string, 0, len(set))
	for t := range set {
		out = append(out, t)
	}
	slices.Sort(out)
	return out
}

func sorted(m map[string]*Count) []Count {
	out := make([]Count, 0, len(m))
	for _, c := range m {
		out = append(out, *c)
	}
	slices.SortFunc(out, func(a, b Count) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Share writes the verified share as "V/N checked (P%)".
func (c *Corpus) Share() string {
	if c.Total == 0 {
		return "0/0 checked"
	}
	return fmt.Sprintf("%d/%d checked (%d%%)", c.Verified, c.Total, c.Verified*100/c.Total)
}

// Markdown writes the corpus for a README: the verified share, tables by
// group, kind and tool, then every case; text from the suite is escaped
// so that it stays in its cell.
func (c *Corpus) Markdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# Corpus %s\n\n%d cases, %s by a person.\n", cell(c.Suite), c.Total, c.Share())
	for _, t := range []struct {
		title string
		rows  []Count
	}{{"group", c.Groups}, {"kind", c.Kinds}, {"tool", c.Tools}} {
		fmt.Fprintf(&b, "\n| %s | cases | checked |\n|---|---:|---:|\n", t.title)
		for _, r := range t.rows {
			fmt.Fprintf(&b, "| %s | %d | %d |\n", format.CodeSpanCell(r.Name), r.Cases, r.Verified)
		}
	}
	b.WriteString("\n| case | kind | key | checked | prompt |\n|---|---|---|---|---|\n")
	for _, k := range c.Cases {
		keys := make([]string, len(k.Key))
		for i, t := range k.Key {
			keys[i] = format.CodeSpanCell(t)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", format.CodeSpanCell(k.ID), cell(k.Kind), strings.Join(keys, " → "), yesNo(k.Verified), cell(k.Prompt))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Text writes the corpus for a terminal.
func (c *Corpus) Text(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "suite %s: %d cases, %s\n", termsafe.Line(c.Suite), c.Total, c.Share())
	for _, t := range []struct {
		title string
		rows  []Count
	}{{"group", c.Groups}, {"kind", c.Kinds}, {"tool", c.Tools}} {
		fmt.Fprintf(&b, "\nby %s\n", t.title)
		for _, r := range t.rows {
			fmt.Fprintf(&b, "  %-32s %4d cases  %4d checked\n", termsafe.Line(r.Name), r.Cases, r.Verified)
		}
	}
	b.WriteString("\ncases\n")
	for _, k := range c.Cases {
		mark := ""
		if !k.Verified {
			mark = "  [unverified]"
		}
		fmt.Fprintf(&b, "  %s  (%s)  key: %s%s\n    %s\n", termsafe.Line(k.ID), k.Kind, termsafe.Line(strings.Join(k.Key, " → ")), mark, termsafe.Line(strings.Join(strings.Fields(k.Prompt), " ")))
		if k.From != "" {
			fmt.Fprintf(&b, "    from %s\n", termsafe.Line(k.From))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func yesNo(v bool) string {
	if v {
		return "yes"
	}
	return "no"
}

// cell escapes text for one Markdown table cell.
func cell(s string) string { return format.Markdown(strings.Join(strings.Fields(s), " ")) }
