package audit

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// Key checks the key of every case of s against the tools the target
// lists, and returns every problem found, located (suite.Errors), or nil.
// Each problem makes its case unpassable: a correct agent could not do
// what the key says. For a question case:
//
//   - every call of its key names a tool the target lists, gives only
//     arguments in the tool's input schema, and validates against it;
//   - every argument rule (args:) and expected argument (expect_args:)
//     names an argument its tool has.
//
// For an action case:
//
//   - every step, fixture, verify check, expected error, inventory call and
//     stray change names a tool the target lists;
//   - every argument a step gives is in its tool's input schema, and the
//     call a correct agent would make (literals as written, authored
//     examples, placeholders of the right type for facts and produced
//     values, the approval on destructive tools) validates against it;
//   - a destructive tool takes the approval argument;
//   - a case's kind fits its tools: a read case only reads, a write case
//     makes no destructive step, a destructive case makes at least one.
func Key(s *suite.Suite, tools []record.Tool) error {
	s = served(s, tools) // SERVER/TOOL names, for several servers
	k := &keyChecker{byName: map[string]record.Tool{}}
	for _, t := range tools {
		k.byName[t.Name] = t
		k.names = append(k.names, t.Name)
	}
	sort.Strings(k.names)
	if s.Actions != nil {
		for i, inv := range s.Actions.Inventory {
			for _, c := range []suite.Call{inv.List, inv.Remove} {
				if c.Tool != "" {
					k.known(s.Path, 0, fmt.Sprintf("actions: inventory %d", i+1), c.Tool)
				}
			}
		}
		if st := s.Actions.Stray; st != nil && st.Tool != "" {
			k.known(s.Path, 0, "actions: stray", st.Tool)
		}
	}
	for _, c := range s.Cases {
		if c.Action == nil {
			k.question(c)
		} else {
			k.action(c)
		}
	}
	if len(k.errs) == 0 {
		return nil
	}
	errs := k.errs
	sort.SliceStable(errs, func(i, j int) bool {
		if errs[i].File != errs[j].File {
			return errs[i].File < errs[j].File
		}
		return errs[i].Line < errs[j].Line
	})
	return errs
}

// keyChecker checks keys against the tools a target lists, gathering the
// problems it finds.
type keyChecker struct {
	byName map[string]record.Tool
	names  []string // sorted
	errs   suite.Errors
}

// known reports whether the target lists tool, and records a problem at
// file:line, where saying what names it, when it does not.
func (k *keyChecker) known(file string, line int, where, tool string) bool {
	if _, ok := k.byName[tool]; ok {
		return true
	}
	k.errs = append(k.errs, &suite.Error{File: file, Line: line, Msg: fmt.Sprintf("%s: unknown tool %q: the target lists %s", where, tool, strings.Join(k.names, ", "))})
	return false
}

// schemaOf returns the input schema of tool, decoded (nil when the target
// does not list it).
func (k *keyChecker) schemaOf(tool string) map[string]any {
	var schema map[string]any
	json.Unmarshal(k.byName[tool].InputSchema, &schema)
	return schema
}

// caseProblem returns a function that records a problem of case c at a
// line (0 for the case's own line).
func (k *keyChecker) caseProblem(c *suite.Case) func(line int, format string, args ...any) {
	return func(line int, format string, args ...any) {
		if line == 0 {
			line = c.Line
		}
		k.errs = append(k.errs, &suite.Error{File: c.File, Line: line, Msg: fmt.Sprintf("case %s: ", c.ID) + fmt.Sprintf(format, args...)})
	}
}

// action checks an action case: the tools its fixtures, verify checks,
// expected errors and steps name, each step's call, and that its kind fits
// its tools.
func (k *keyChecker) action(c *suite.Case) {
	a := c.Action
	at := k.caseProblem(c)
	for i, f := range a.Fixtures {
		if f.Tool != "" {
			k.known(c.File, f.Line, fmt.Sprintf("case %s: fixture %d", c.ID, i+1), f.Tool)
		}
	}
	for i, v := range a.Verify {
		if v.Tool != "" {
			k.known(c.File, v.Line, fmt.Sprintf("case %s: verify %d", c.ID, i+1), v.Tool)
		}
	}
	for _, t := range a.ExpectedErrors {
		k.known(c.File, c.Line, fmt.Sprintf("case %s: expected_errors", c.ID), t)
	}
	destructive := 0
	for i, st := range a.Steps {
		if !k.known(c.File, st.Line, fmt.Sprintf("case %s: step %d", c.ID, i+1), st.Tool) {
			continue
		}
		if k.byName[st.Tool].Destructive {
			destructive++
		}
		k.step(c, i, st, at)
	}
	if a.Kind == suite.KindDestructive && destructive == 0 {
		at(0, "a destructive case needs a step on a destructive tool; none of its tools is annotated destructive")
	}
}

// step checks step i of action case c, on a tool the target lists: that
// its tool fits the case's kind and takes the approval where it must, that
// its arguments are in the tool's input schema, and that the call a
// correct agent makes validates against it.
func (k *keyChecker) step(c *suite.Case, i int, st suite.Step, at func(line int, format string, args ...any)) {
	a := c.Action
	confirm := a.Settings().Confirm
	t := k.byName[st.Tool]
	schema := k.schemaOf(st.Tool)
	takesApproval := propAt(schema, confirm) != nil
	// A destructive tool with no approval argument (a file server's
	// write_file) is a write like any other; only a destructive case then
	// cannot be scored, unless its user approves in a turn.
	approvedInTurn := slices.ContainsFunc(c.Turns, func(t suite.UserTurn) bool { return t.Approves })
	if t.Destructive && !takesApproval && a.Kind == suite.KindDestructive && !approvedInTurn {
		at(st.Line, "step %d: %s is destructive but takes no %s argument, so the approval cannot be scored", i+1, st.Tool, confirm)
	}
	switch {
	case a.Kind == suite.KindRead && !t.ReadOnly:
		at(st.Line, "step %d: a read case only reads, but %s is not read-only", i+1, st.Tool)
	case a.Kind == suite.KindWrite && t.Destructive && takesApproval:
		at(st.Line, "step %d: %s is destructive: make the case kind destructive", i+1, st.Tool)
	}
	args := map[string]any{}
	paths := slices.Sorted(maps.Keys(st.Args))
	ok := true
	for _, p := range paths {
		prop := propAt(schema, p)
		if prop == nil {
			at(st.Line, "step %d: argument %s is not in the input schema of %s", i+1, p, st.Tool)
			ok = false
			continue
		}
		suite.SetPath(args, p, example(st.Args[p], prop))
	}
	if !ok {
		return
	}
	if t.Destructive && takesApproval {
		args[confirm] = true
	}
	b, _ := json.Marshal(args)
	if err := Validate(t.InputSchema, b); err != nil {
		at(st.Line, "step %d: the call a correct agent makes, %s %s, fails the input schema of %s: %s", i+1, st.Tool, b, st.Tool, oneLine(err.Error()))
	}
}

// question checks a question case's key calls, argument rules and
// expected arguments against its tools' input schemas. Its unknown tools
// are recorded first, then the other problems.
func (k *keyChecker) question(c *suite.Case) {
	var errs suite.Errors
	at := func(format string, args ...any) {
		errs = append(errs, &suite.Error{File: c.File, Line: c.Line, Msg: fmt.Sprintf("case %s: ", c.ID) + fmt.Sprintf(format, args...)})
	}
	for i, kc := range c.Key.Calls {
		if !k.known(c.File, c.Line, fmt.Sprintf("case %s: key call %d", c.ID, i+1), kc.Tool) {
			continue
		}
		k.keyCall(i, kc, at)
	}
	for _, r := range c.Args {
		if !k.known(c.File, c.Line, fmt.Sprintf("case %s: args", c.ID), r.Tool) {
			continue
		}
		if schema := k.schemaOf(r.Tool); propAt(schema, r.Arg) == nil {
			at("args: %s is not an argument of %s (it has %s), so the rule can never hold", r.Arg, r.Tool, argList(schema))
		}
	}
	if len(c.ExpectArgs) > 0 && len(c.ExpectTools) > 0 {
		for _, a := range slices.Sorted(maps.Keys(c.ExpectArgs)) {
			has := false
			for _, tool := range c.ExpectTools {
				if _, ok := k.byName[tool]; ok && propAt(k.schemaOf(tool), a) != nil {
					has = true
				}
			}
			if !has {
				at("expect_args: %s is not an argument of %s", a, strings.Join(c.ExpectTools, " or "))
			}
		}
	}
	k.errs = append(k.errs, errs...)
}

// keyCall checks key call i of a question case, on a tool the target
// lists: its arguments are in the tool's input schema and validate
// against it.
func (k *keyChecker) keyCall(i int, kc suite.KeyCall, at func(format string, args ...any)) {
	schema := k.schemaOf(kc.Tool)
	ok := true
	for _, p := range slices.Sorted(maps.Keys(kc.Args)) {
		if propAt(schema, p) == nil {
			at("key call %d: argument %s is not in the input schema of %s (it has %s)", i+1, p, kc.Tool, argList(schema))
			ok = false
		}
	}
	if !ok {
		return
	}
	args := kc.Args
	if args == nil {
		args = map[string]any{}
	}
	b, err := json.Marshal(jsonValue(args))
	if err != nil {
		return
	}
	if err := Validate(k.byName[kc.Tool].InputSchema, b); err != nil {
		at("key call %d: %s %s fails the input schema of %s: %s", i+1, kc.Tool, b, kc.Tool, oneLine(err.Error()))
	}
}

// argList names the top-level arguments of a schema, for a message.
func argList(schema map[string]any) string {
	props, _ := schema["properties"].(map[string]any)
	if len(props) == 0 {
		return "no arguments"
	}
	return strings.Join(slices.Sorted(maps.Keys(props)), ", ")
}

// example is the value a correct agent would give an argument, for
// validating the key: a literal (rendered with a sample token and facts) or
// authored example or given value as written, a placeholder of the schema's type for a
// fact or a produced value.
func example(src suite.ArgSource, prop map[string]any) any {
	vars := suite.Vars{Token: "a1b2c3", Facts: map[string]string{}}
	if src.Authored != nil {
		return jsonValue(src.Authored)
	}
	if src.Given != nil {
		return jsonValue(src.Given)
	}
	if src.Literal != nil {
		for _, p := range suite.Placeholders(fmt.Sprint(src.Literal)) {
			if f, ok := strings.CutPrefix(p, "fact."); ok {
				vars.Facts[f] = "fact-value"
			}
		}
		if v, err := suite.RenderValue(src.Literal, vars); err == nil {
			return jsonValue(v)
		}
	}
	switch typeOf(prop) {
	case "integer", "number":
		return 1
	case "boolean":
		return true
	case "array":
		return []any{"value"}
	case "object":
		return map[string]any{}
	}
	return "value"
}

// typeOf returns a schema's type, the first non-null one of a list.
func typeOf(prop map[string]any) string {
	switch t := prop["type"].(type) {
	case string:
		return t
	case []any:
		for _, x := range t {
			if s, ok := x.(string); ok && s != "null" {
				return s
			}
		}
	}
	return ""
}

// jsonValue turns a YAML value into its JSON shape (typed maps and
// integers become what JSON decoding gives).
func jsonValue(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	json.Unmarshal(b, &out)
	return out
}

// propAt returns the schema of the argument at a dotted path ("*" or an
// index for list elements), or nil when the schema has no such argument.
func propAt(schema map[string]any, path string) map[string]any {
	cur := schema
	for _, seg := range suite.SplitPath(path) {
		if cur == nil {
			return nil
		}
		if _, err := strconv.Atoi(seg); err == nil || seg == "*" {
			items, _ := cur["items"].(map[string]any)
			cur = items
			continue
		}
		props, _ := cur["properties"].(map[string]any)
		next, _ := props[seg].(map[string]any)
		cur = next
	}
	return cur
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
