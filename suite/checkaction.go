package suite

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

var factNameRE = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

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
	for i, e := range st.LeakExceptions {
		if e.Word == "" || strings.TrimSpace(e.Why) == "" {
			at("leak exception %d: want word and why: the reason the prompt may use it", i+1)
		}
	}
	return errs
}

func checkAction(c *Case) Errors {
	var errs Errors
	a := c.Action
	at := func(line int, format string, args ...any) {
		if line == 0 {
			line = c.Line
		}
		errs = append(errs, &Error{File: c.File, Line: line, Msg: fmt.Sprintf("case %s: ", c.ID) + fmt.Sprintf(format, args...)})
	}
	switch a.Kind {
	case KindRead, KindWrite, KindDestructive:
		if len(a.Steps) == 0 {
			at(0, "a %s case needs steps: the calls a correct agent makes", a.Kind)
		}
	case KindSequence:
		if len(a.Steps) < 2 {
			at(0, "a sequence case needs at least two steps")
		}
	case KindDecline:
		if len(a.Steps) > 0 {
			at(a.Steps[0].Line, "a decline case has no steps: the right answer changes nothing")
		}
	case "":
		at(0, "action has no kind: want kind: read, write, sequence, destructive or decline")
	default:
		at(0, "action kind %q: want read, write, sequence, destructive or decline", a.Kind)
	}
	if len(c.Key.Calls) > 0 || c.Key.Answer != "" || len(c.Figures) > 0 || c.Decline || len(c.Args) > 0 || c.IsToolCall() {
		at(0, "an action case is judged by its steps: key, figures, args, decline and mode tool-call go with figure cases (use action.answer and kind: decline)")
	}
	if a.TurnCap < 0 {
		at(0, "action turn_cap is %d: want a positive number", a.TurnCap)
	}
	// Facts, as the fixtures define them in order.
	facts := map[string]bool{}
	for i, f := range a.Fixtures {
		what := fmt.Sprintf("fixture %d", i+1)
		checkCall(f.Call, what, at, f.Line)
		checkTemplates(f.Args, facts, false, what, at, f.Line)
		if f.Teardown != nil {
			checkCall(*f.Teardown, what+" teardown", at, f.Line)
		}
		for name, paths := range f.Facts {
			if !factNameRE.MatchString(name) {
				at(f.Line, "%s: fact name %q: want lowercase letters, digits and _", what, name)
			}
			if facts[name] {
				at(f.Line, "%s: fact %q is already defined by an earlier fixture", what, name)
			}
			if len(paths) == 0 {
				at(f.Line, "%s: fact %q has no path", what, name)
			}
			facts[name] = true
		}
	}
	for i, f := range a.Fixtures {
		if f.Teardown != nil {
			checkTemplates(f.Teardown.Args, facts, false, fmt.Sprintf("fixture %d teardown", i+1), at, f.Line)
		}
	}
	// The prompt names only the token and defined facts.
	shown := map[string]bool{}
	for _, p := range Placeholders(c.Prompt) {
		switch {
		case p == "token":
		case strings.HasPrefix(p, "fact.") && facts[factName(p)]:
			shown[factName(p)] = true
		default:
			at(0, "the prompt names {{%s}}: want {{token}} or {{fact.NAME}} of a fact a fixture defines", p)
		}
	}
	for i, st := range a.Steps {
		what := fmt.Sprintf("step %d (%s)", i+1, st.Tool)
		if st.Tool == "" {
			at(st.Line, "step %d has no tool", i+1)
		}
		paths := make([]string, 0, len(st.Args))
		for p := range st.Args {
			paths = append(paths, p)
		}
		sort.Strings(paths)
		for _, p := range paths {
			src := st.Args[p]
			set := 0
			if src.Fact != "" {
				set++
				if !facts[src.Fact] {
					at(st.Line, "%s: argument %s: fact %q is defined by no fixture", what, p, src.Fact)
				} else if !shown[src.Fact] {
					at(st.Line, "%s: argument %s: fact %q is never shown in the prompt, so the model cannot know it (show it as {{fact.%s}}, or make the argument produced)", what, p, src.Fact, src.Fact)
				}
			}
			if src.Literal != nil {
				set++
				checkTemplates(src.Literal, facts, false, what+" argument "+p, at, st.Line)
				for _, lit := range literalTexts(src.Literal) {
					if !strings.Contains(strings.ToLower(c.Prompt), strings.ToLower(lit)) {
						at(st.Line, "%s: argument %s: literal %q does not appear in the prompt: a literal is what the prompt states", what, p, lit)
					}
				}
			}
			if len(src.Produced) > 0 {
				set++
				if i == 0 {
					at(st.Line, "%s: argument %s: produced needs an earlier step whose result gives it", what, p)
				}
				for _, pp := range src.Produced {
					checkTemplates(pp, facts, false, what+" argument "+p, at, st.Line)
				}
			}
			if src.Authored != nil {
				if set > 0 {
					at(st.Line, "%s: argument %s: authored text is never compared, so it goes without fact, literal or produced", what, p)
				}
				set++
			}
			if set == 0 {
				at(st.Line, "%s: argument %s: want fact, literal, produced or authored", what, p)
			}
		}
	}
	for i, v := range a.Verify {
		what := fmt.Sprintf("verify %d", i+1)
		checkCall(v.Call, what, at, v.Line)
		checkTemplates(v.Args, facts, false, what, at, v.Line)
		for p, want := range v.Expect {
			checkTemplates([]any{p, want}, facts, false, what, at, v.Line)
		}
		if len(v.Expect) == 0 && !v.Error {
			at(v.Line, "%s checks nothing: want expect: {PATH: VALUE} or error: true", what)
		}
	}
	for i, e := range a.LeakExceptions {
		if e.Word == "" || strings.TrimSpace(e.Why) == "" {
			at(0, "leak exception %d: want word and why: the reason the prompt may use it", i+1)
		}
	}
	return errs
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
