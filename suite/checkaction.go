package suite

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcpeval/mcpeval/internal/lazyregexp"
)

var factNameRE = lazyregexp.New(`^[a-z][a-z0-9_]*$`)

// checkActions checks the action cases and settings of s and hands each
// action the suite's settings.
func checkActions(s *Suite) Errors {
	var errs Errors
	settings := (&ActionSettings{}).withDefaults()
	if s.Actions != nil {
		settings = s.Actions.withDefaults()
		errs = append(errs, checkSettings(s, settings)...)
	}
	for _, c := range s.Cases {
		if c.Action == nil {
			continue
		}
		c.Action.settings = settings
		errs = append(errs, checkAction(c)...)
	}
	return errs
}

func checkSettings(s *Suite, st *ActionSettings) Errors {
	var errs Errors
	at := func(format string, args ...any) {
		errs = append(errs, &Error{File: s.Path, Msg: "actions: " + fmt.Sprintf(format, args...)})
	}
	if st.TurnsPerStep < 0 || st.TurnsExtra < 0 {
		at("turns_per_step and turns_extra must not be negative")
	}
	for i, inv := range st.Inventory {
		if inv.List.Tool == "" || inv.Items == "" || inv.Key == "" || (inv.Remove.Tool == "" && len(inv.Remove.Command) == 0) {
			at("inventory %d: want list: {tool: ...}, items: PATH, key: TEMPLATE and remove: {tool: ...}", i+1)
		}
	}
	for i, u := range st.Uncovered {
		if u.Tool == "" || strings.TrimSpace(u.Why) == "" {
			at("uncovered %d: want tool (and arg) with why: the reason it is left out", i+1)
		}
	}
	for i, t := range st.AllowTargets {
		if msg := allowTargetProblem(t); msg != "" {
			at("allow_targets %d: %s", i+1, msg)
		}
	}
	for i, e := range st.LeakExceptions {
		if e.Word == "" || strings.TrimSpace(e.Why) == "" {
			at("leak exception %d: want word and why: the reason the prompt may use it", i+1)
		}
	}
	return errs
}

func checkAction(c *Case) Errors {
	ck := &actionCheck{c: c, a: c.Action, facts: map[string]bool{}, shown: map[string]bool{}}
	ck.kind()
	if len(c.Key.Calls) > 0 || c.Key.Answer != "" || len(c.Figures) > 0 || c.Decline || len(c.Args) > 0 || c.IsToolCall() {
		ck.at(0, "an action case is judged by its steps: key, figures, args, decline and mode tool-call go with figure cases (use action.answer and kind: decline)")
	}
	if ck.a.TurnCap < 0 {
		ck.at(0, "action turn_cap is %d: want a positive number", ck.a.TurnCap)
	}
	ck.fixtures()
	ck.prompt()
	for i, st := range ck.a.Steps {
		ck.step(i, st)
	}
	ck.verify()
	for i, e := range ck.a.LeakExceptions {
		if e.Word == "" || strings.TrimSpace(e.Why) == "" {
			ck.at(0, "leak exception %d: want word and why: the reason the prompt may use it", i+1)
		}
	}
	return ck.errs
}

// actionCheck checks one action case, in the order a reader meets its
// parts, and gathers what is wrong, located in the case's file.
type actionCheck struct {
	c     *Case
	a     *Action
	errs  Errors
	facts map[string]bool // defined by the fixtures so far
	shown map[string]bool // facts the prompt shows
}

// at records an error at line of the case's file (its first line when 0).
func (ck *actionCheck) at(line int, format string, args ...any) {
	if line == 0 {
		line = ck.c.Line
	}
	ck.errs = append(ck.errs, &Error{File: ck.c.File, Line: line, Msg: fmt.Sprintf("case %s: ", ck.c.ID) + fmt.Sprintf(format, args...)})
}

// kind checks the case's kind against its number of steps.
func (ck *actionCheck) kind() {
	a := ck.a
	switch a.Kind {
	case KindRead, KindWrite, KindDestructive:
		if len(a.Steps) == 0 {
			ck.at(0, "a %s case needs steps: the calls a correct agent makes", a.Kind)
		}
	case KindSequence:
		if len(a.Steps) < 2 {
			ck.at(0, "a sequence case needs at least two steps")
		}
	case KindDecline:
		if len(a.Steps) > 0 {
			ck.at(a.Steps[0].Line, "a decline case has no steps: the right answer changes nothing")
		}
	case "":
		ck.at(0, "action has no kind: want kind: read, write, sequence, destructive or decline")
	default:
		ck.at(0, "action kind %q: want read, write, sequence, destructive or decline", a.Kind)
	}
}

// fixtures checks the fixtures and collects the facts they define, in
// order: a fixture's arguments may use only the facts of earlier ones, and
// teardowns any of them.
func (ck *actionCheck) fixtures() {
	for i, f := range ck.a.Fixtures {
		what := fmt.Sprintf("fixture %d", i+1)
		checkCall(f.Call, what, ck.at, f.Line)
		checkTemplates(f.Args, ck.facts, false, what, ck.at, f.Line)
		if f.Teardown != nil {
			checkCall(*f.Teardown, what+" teardown", ck.at, f.Line)
		}
		for name, paths := range f.Facts {
			ck.fact(what, name, paths, f.Line)
		}
	}
	for i, f := range ck.a.Fixtures {
		if f.Teardown != nil {
			checkTemplates(f.Teardown.Args, ck.facts, false, fmt.Sprintf("fixture %d teardown", i+1), ck.at, f.Line)
		}
	}
}

func (ck *actionCheck) fact(what, name string, paths []string, line int) {
	if !factNameRE.MatchString(name) {
		ck.at(line, "%s: fact name %q: want lowercase letters, digits and _", what, name)
	}
	if ck.facts[name] {
		ck.at(line, "%s: fact %q is already defined by an earlier fixture", what, name)
	}
	if len(paths) == 0 {
		ck.at(line, "%s: fact %q has no path", what, name)
	}
	ck.facts[name] = true
}

// prompt checks that the prompt names only the token and defined facts,
// and notes the facts it shows.
func (ck *actionCheck) prompt() {
	for _, p := range Placeholders(ck.c.Prompt) {
		switch {
		case p == "token":
		case strings.HasPrefix(p, "fact.") && ck.facts[factName(p)]:
			ck.shown[factName(p)] = true
		default:
			ck.at(0, "the prompt names {{%s}}: want {{token}} or {{fact.NAME}} of a fact a fixture defines", p)
		}
	}
}

// step checks the i-th step and the sources of its arguments.
func (ck *actionCheck) step(i int, st Step) {
	what := fmt.Sprintf("step %d (%s)", i+1, st.Tool)
	if st.Tool == "" {
		ck.at(st.Line, "step %d has no tool", i+1)
	}
	paths := slices.Sorted(maps.Keys(st.Args))
	for _, p := range paths {
		ck.arg(i, what, p, st.Args[p], st.Line)
	}
}

// arg checks where the i-th step's argument comes from: exactly one of a
// fact the prompt shows, a literal the prompt states, a value an earlier
// step produced, or authored text.
func (ck *actionCheck) arg(i int, step, p string, src ArgSource, line int) {
	what, tmpl := step+": argument "+p, step+" argument "+p
	set := 0
	if src.Fact != "" {
		set++
		if !ck.facts[src.Fact] {
			ck.at(line, "%s: fact %q is defined by no fixture", what, src.Fact)
		} else if !ck.shown[src.Fact] {
			ck.at(line, "%s: fact %q is never shown in the prompt, so the model cannot know it (show it as {{fact.%s}}, or make the argument produced)", what, src.Fact, src.Fact)
		}
	}
	if src.Literal != nil {
		set++
		checkTemplates(src.Literal, ck.facts, false, tmpl, ck.at, line)
		for _, lit := range literalTexts(src.Literal) {
			if !strings.Contains(strings.ToLower(ck.c.Prompt), strings.ToLower(lit)) {
				ck.at(line, "%s: literal %q does not appear in the prompt: a literal is what the prompt states", what, lit)
			}
		}
	}
	if len(src.Produced) > 0 {
		set++
		if i == 0 {
			ck.at(line, "%s: produced needs an earlier step whose result gives it", what)
		}
		for _, pp := range src.Produced {
			checkTemplates(pp, ck.facts, false, tmpl, ck.at, line)
		}
	}
	if src.Authored != nil {
		if set > 0 {
			ck.at(line, "%s: authored text is never compared, so it goes without fact, literal or produced", what)
		}
		set++
	}
	if src.Given != nil {
		if set > 0 {
			ck.at(line, "%s: a given value is never judged, so it goes without fact, literal, produced or authored", what)
		}
		checkTemplates(src.Given, ck.facts, false, tmpl, ck.at, line)
		set++
	}
	if set == 0 {
		ck.at(line, "%s: want fact, literal, produced, authored or given", what)
	}
}

// verify checks the verify calls: each must check something.
func (ck *actionCheck) verify() {
	for i, v := range ck.a.Verify {
		what := fmt.Sprintf("verify %d", i+1)
		checkCall(v.Call, what, ck.at, v.Line)
		checkTemplates(v.Args, ck.facts, false, what, ck.at, v.Line)
		for p, want := range v.Expect {
			checkTemplates([]any{p, want}, ck.facts, false, what, ck.at, v.Line)
		}
		for _, c := range v.Contains {
			checkTemplates(c, ck.facts, false, what, ck.at, v.Line)
		}
		if len(v.Expect) == 0 && !v.Error && !v.TextCheck.Checks() {
			ck.at(v.Line, "%s checks nothing: want expect: {PATH: VALUE}, contains: TEXT, matches: REGEXP, figures: [...] or error: true", what)
		}
		if v.Error && v.TextCheck.Checks() {
			ck.at(v.Line, "%s expects the call to fail: its result has no text to check (leave contains, matches and figures out)", what)
		}
		ck.a.Verify[i].TextCheck.compile(func(format string, args ...any) { ck.at(v.Line, "%s: %s", what, fmt.Sprintf(format, args...)) })
	}
}

func checkCall(c Call, what string, at func(int, string, ...any), line int) {
	switch {
	case c.Tool == "" && len(c.Command) == 0:
		at(line, "%s: want tool (with args) or command", what)
	case c.Tool != "" && len(c.Command) > 0:
		at(line, "%s: want tool or command, not both", what)
	case len(c.Command) > 0 && len(c.Args) > 0:
		at(line, "%s: a command takes no args (put them in the command)", what)
	}
}

// checkTemplates checks the placeholders in every string of x: {{token}},
// {{fact.NAME}} of a defined fact, and {{item.PATH}} where items are
// allowed.
func checkTemplates(x any, facts map[string]bool, items bool, what string, at func(int, string, ...any), line int) {
	var walk func(any)
	walk = func(x any) {
		switch x := x.(type) {
		case string:
			for _, p := range Placeholders(x) {
				switch {
				case p == "token":
				case strings.HasPrefix(p, "fact.") && facts[factName(p)]:
				case items && strings.HasPrefix(p, "item."):
				default:
					at(line, "%s names {{%s}}: want {{token}} or {{fact.NAME}} of a fact an earlier fixture defines", what, p)
				}
			}
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(x)
}
