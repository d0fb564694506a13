package audit

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/mcpeval/mcpeval/internal/lazyregexp"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// Leak is a prompt that names its own answer.
type Leak struct {
	Case string
	File string
	Line int
	// Found is the text of the prompt that leaks, as written.
	Found string
	// What says what it names: "its tool create_user", "the tool
	// list_users", "the argument display_name of create_user".
	What string
}

// String writes the leak as file:line: what the prompt says and names.
func (l Leak) String() string {
	return fmt.Sprintf("%s:%d: case %s: the prompt says %q, which names %s", l.File, l.Line, l.Case, l.Found, l.What)
}

// term is a name a prompt must not use, with what it names.
type term struct {
	name, what string
}

// Leaks audits the prompt of every case of s against the tools the target
// lists: a prompt must not name its own tools or any tool of the target,
// whether as written (display_name, displayName) or as the phrase it reads
// as ("display name"); an action case's prompt must not name any argument
// (at any depth) of its own tools either. A question case's own tools are
// the ones it requires or accepts, its key calls and its expected tools.
// Words the case or the suite lists as leak exceptions are allowed.
// Placeholders are not searched: a fixture's name is the request, not a
// leak.
func Leaks(s *suite.Suite, tools []record.Tool) []Leak {
	s = served(s, tools) // SERVER/TOOL names, for several servers
	var leaks []Leak
	byName := map[string]record.Tool{}
	for _, t := range tools {
		byName[t.Name] = t
	}
	var global []suite.LeakException
	if s.Actions != nil {
		global = s.Actions.LeakExceptions
	}
	for _, c := range s.Cases {
		own := map[string]bool{}
		var terms []term
		if c.Action == nil {
			for _, name := range questionTools(c) {
				if !own[name] {
					own[name] = true
					terms = append(terms, term{name, "its tool " + name})
				}
			}
			for _, t := range tools {
				if !own[t.Name] {
					terms = append(terms, term{t.Name, "the tool " + t.Name})
				}
			}
			leaks = append(leaks, scan(c, terms, global)...)
			continue
		}
		for _, st := range c.Action.Steps {
			if own[st.Tool] {
				continue
			}
			own[st.Tool] = true
			terms = append(terms, term{st.Tool, "its tool " + st.Tool})
			for _, arg := range argNames(byName[st.Tool].InputSchema) {
				terms = append(terms, term{arg, fmt.Sprintf("the argument %s of %s", arg, st.Tool)})
			}
		}
		for _, t := range tools {
			if !own[t.Name] {
				terms = append(terms, term{t.Name, "the tool " + t.Name})
			}
		}
		leaks = append(leaks, scan(c, terms, append(append([]suite.LeakException{}, global...), c.Action.LeakExceptions...))...)
	}
	return leaks
}

// scan returns the places c's prompt names one of terms, save the allowed
// words.
func scan(c *suite.Case, terms []term, allowed []suite.LeakException) []Leak {
	var leaks []Leak
	text := placeholders.ReplaceAllString(c.Prompt, "X")
	seen := map[string]bool{}
	for _, tm := range terms {
		if exempt(tm.name, allowed) {
			continue
		}
		if found := find(text, tm.name); found != "" && !seen[tm.what] {
			seen[tm.what] = true
			leaks = append(leaks, Leak{Case: c.ID, File: c.File, Line: c.Line, Found: found, What: tm.what})
		}
	}
	return leaks
}

// questionTools returns the tools a question case expects to be called,
// in the order the case names them.
func questionTools(c *suite.Case) []string {
	var names []string
	names = append(names, c.Tools.Required...)
	names = append(names, c.Tools.Accepted...)
	for _, k := range c.Key.Calls {
		names = append(names, k.Tool)
	}
	return append(names, c.ExpectTools...)
}

var placeholders = lazyregexp.New(`\{\{[^{}]*\}\}`)

// exempt reports whether an exception allows name: its word is the name as
// written or as the phrase it reads as.
func exempt(name string, allowed []suite.LeakException) bool {
	for _, e := range allowed {
		w := strings.ToLower(strings.TrimSpace(e.Word))
		if w == strings.ToLower(name) || w == Phrase(name) {
			return true
		}
	}
	return false
}

// find returns the first place text names name, as written or as its
// phrase (words separated by spaces, underscores or hyphens), ignoring
// case and only at word boundaries; empty when it does not.
func find(text, name string) string {
	words := strings.Fields(Phrase(name))
	if len(words) == 0 {
		return ""
	}
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = regexp.QuoteMeta(w)
	}
	pats := []string{regexp.QuoteMeta(name), strings.Join(quoted, `[\s_-]+`)}
	for _, p := range pats {
		re := regexp.MustCompile(`(?i)(?:^|[^\pL\pN_])(` + p + `)(?:$|[^\pL\pN_])`)
		if m := re.FindStringSubmatch(text); m != nil {
			return m[1]
		}
	}
	return ""
}

// Phrase returns how a name reads: snake_case, kebab-case and camelCase
// split into lowercase words ("displayName" and "display_name" are both
// "display name").
func Phrase(name string) string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(name)
	for i, r := range rs {
		switch {
		case r == '_' || r == '-' || r == '.' || unicode.IsSpace(r):
			flush()
		case unicode.IsUpper(r) && len(cur) > 0 && (unicode.IsLower(cur[len(cur)-1]) || (i+1 < len(rs) && unicode.IsLower(rs[i+1]))):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	return strings.Join(words, " ")
}

// argNames returns every property name of an input schema, at any depth
// (the properties of objects in lists too), sorted and without repeats.
func argNames(schema json.RawMessage) []string {
	var s map[string]any
	if json.Unmarshal(schema, &s) != nil {
		return nil
	}
	set := map[string]bool{}
	var walk func(map[string]any)
	walk = func(s map[string]any) {
		if props, ok := s["properties"].(map[string]any); ok {
			for name, p := range props {
				set[name] = true
				if ps, ok := p.(map[string]any); ok {
					walk(ps)
				}
			}
		}
		if items, ok := s["items"].(map[string]any); ok {
			walk(items)
		}
	}
	walk(s)
	return slices.Sorted(maps.Keys(set))
}

// SurfaceLeaks audits the prompt of every case of s against the tools
// mapped surface sf lists, as Leaks audits it against the canonical ones:
// a prompt must not name a tool of the surface either, its own (the one
// its canonical tools are mapped to) or any other, as written or as the
// phrase it reads as. A surface tool named as a canonical tool is left to
// Leaks. The suite's and the case's leak exceptions allow a word here
// too.
func SurfaceLeaks(s *suite.Suite, sf *suite.Surface, tools []record.Tool) []Leak {
	if sf.Canonical() {
		return nil
	}
	var global []suite.LeakException
	if s.Actions != nil {
		global = s.Actions.LeakExceptions
	}
	var leaks []Leak
	for _, c := range s.Cases {
		var canon []string
		allowed := global
		if c.Action == nil {
			canon = questionTools(c)
		} else {
			for _, st := range c.Action.Steps {
				canon = append(canon, st.Tool)
			}
			allowed = append(append([]suite.LeakException{}, global...), c.Action.LeakExceptions...)
		}
		own := map[string]bool{}
		var terms []term
		for _, name := range canon {
			to, ok := sf.Map[name]
			if !ok || own[to.Tool] {
				continue
			}
			own[to.Tool] = true
			if _, canonical := sf.Map[to.Tool]; !canonical {
				terms = append(terms, term{to.Tool, fmt.Sprintf("its tool %s on surface %s", to.Tool, sf.Name)})
			}
		}
		for _, t := range tools {
			if _, canonical := sf.Map[t.Name]; !own[t.Name] && !canonical {
				terms = append(terms, term{t.Name, fmt.Sprintf("the tool %s of surface %s", t.Name, sf.Name)})
			}
		}
		leaks = append(leaks, scan(c, terms, allowed)...)
	}
	return leaks
}
