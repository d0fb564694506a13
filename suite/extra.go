package suite

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v4"
)

// Action kinds.
const (
	// KindRead cases only read: every step calls a read-only tool.
	KindRead = "read"
	// KindWrite cases make one non-destructive change.
	KindWrite = "write"
	// KindSequence cases take several steps in order, typically finding an
	// id the prompt does not give and then acting on it.
	KindSequence = "sequence"
	// KindDestructive cases make a change the server refuses without the
	// approval argument (confirm: true).
	KindDestructive = "destructive"
	// KindDecline cases ask for something no tool does, or something too
	// vague to act on safely: the right answer says so and changes nothing.
	KindDecline = "decline"
)

// Kinds lists the action kinds in report order.
var Kinds = []string{KindRead, KindWrite, KindSequence, KindDestructive, KindDecline}

// Action is the part of a case that evaluates actions: what kind of case it
// is, the fixtures it needs, the ordered steps of its key and the state to
// verify after it. See the action suites internal/builtin/ops/suite and internal/corpus/memory for examples.
//
// Strings in fixtures, verify calls, literals and the prompt may name
// {{token}} (the attempt's fresh token) and {{fact.NAME}} (a value a
// fixture produced; {{fact.NAME@PATH}} is another spelling of it); the
// prompt is sent rendered.
type Action struct {
	// Kind is "read", "write", "sequence", "destructive" or "decline".
	Kind string `yaml:"kind"`
	// Fixtures are built before each attempt, in order, under names
	// carrying the attempt's token.
	Fixtures []Fixture `yaml:"fixtures,omitempty"`
	// Steps are the key: the ordered steps a correct agent takes. A decline
	// case has none.
	Steps []Step `yaml:"steps,omitempty"`
	// Verify are calls made after the attempt to check the target's state;
	// a failed check is noted for a person, it does not change the score.
	Verify []Verify `yaml:"verify,omitempty"`
	// ExpectedErrors lists tools allowed to fail on purpose in this case;
	// any other tool error counts against it.
	ExpectedErrors []string `yaml:"expected_errors,omitempty"`
	// Answer is the final answer fake:perfect gives (a default when empty).
	Answer string `yaml:"answer,omitempty"`
	// LeakExceptions are words the prompt may use although the leak audit
	// would flag them, each with the reason.
	LeakExceptions []LeakException `yaml:"leak_exceptions,omitempty"`
	// TurnCap overrides the case's turn cap (see Suite.ActionTurnCap).
	TurnCap int `yaml:"turn_cap,omitempty"`

	settings *ActionSettings
}

// Settings returns the suite's action settings with their defaults filled
// in. It is set when the suite is loaded.
func (a *Action) Settings() *ActionSettings {
	if a.settings == nil {
		return (&ActionSettings{}).withDefaults()
	}
	return a.settings
}

// Call is a call the harness makes itself (to build a fixture, verify
// state, or tear down): a tool with arguments, or a command.
type Call struct {
	// Tool is the target's tool to call, with Args.
	Tool string         `yaml:"tool,omitempty"`
	Args map[string]any `yaml:"args,omitempty"`
	// Command is run instead of a tool: argv, not a shell line. Its stdout,
	// when it is JSON, is the result facts are read from.
	Command []string `yaml:"command,omitempty"`
}

// What describes the call for messages.
func (c Call) What() string {
	if len(c.Command) > 0 {
		return "command " + strings.Join(c.Command, " ")
	}
	return c.Tool
}

// Fixture is one thing built before an attempt.
type Fixture struct {
	Call `yaml:",inline"`
	// Facts name values of the call's result for the prompt and the key:
	// each fact is a dotted path into the result, or a list of paths whose
	// first is the spelling the prompt shows and the rest other spellings
	// an argument may use (a name, a full id, a short id).
	Facts map[string]Paths `yaml:"facts,omitempty"`
	// Teardown, when set, undoes the fixture after the attempt. Fixtures
	// the suite's inventory finds (by token) need none.
	Teardown *Call `yaml:"teardown,omitempty"`
	// Line locates the fixture in its file.
	Line int `yaml:"-"`
}

// Paths is one dotted path or a list of them.
type Paths []string

// UnmarshalYAML reads a path or a list of paths.
func (p *Paths) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		*p = Paths{n.Value}
		return nil
	}
	var l []string
	if err := n.Load(&l); err != nil {
		return err
	}
	*p = l
	return nil
}

// Step is one step of an action key.
type Step struct {
	// Tool is the tool the step calls.
	Tool string `yaml:"tool"`
	// Args maps each argument given by the key, as a dotted path into the
	// call's arguments ("name", "entities.0.name"; "*" for any element),
	// to where its truth comes from.
	Args map[string]ArgSource `yaml:"args,omitempty"`
	// Optional steps may be skipped; reached, they count like any other.
	Optional bool `yaml:"optional,omitempty"`
	// Line locates the step in its file.
	Line int `yaml:"-"`
}

// ArgSource says where an argument's true value comes from. Fact, Literal
// and Produced may be combined (any of them is right); Authored stands
// alone.
type ArgSource struct {
	// Fact names a value the fixtures built; every spelling of it is right.
	Fact string `yaml:"fact,omitempty"`
	// Literal is a value the prompt states; it must appear in the prompt.
	Literal any `yaml:"literal,omitempty"`
	// Produced is a dotted path (or a list of them) into the results of
	// the earlier steps; any value one leads to is right. A segment may
	// filter a list: "users[username={{fact.user}}].id".
	Produced Paths `yaml:"produced,omitempty"`
	// Authored is free text the model writes, never compared; fake:perfect
	// sends this example.
	Authored any `yaml:"authored,omitempty"`
}

// Compared reports whether the argument's value is compared.
func (a ArgSource) Compared() bool { return a.Authored == nil }

// Verify is one check of the target's state after an attempt.
type Verify struct {
	Call `yaml:",inline"`
	// Expect maps a dotted path into the result to the value it must have
	// (templates allowed); null means the path must lead nowhere.
	Expect map[string]any `yaml:"expect,omitempty"`
	// Error, when true, expects the call to fail (a thing that should be
	// gone is not found).
	Error bool `yaml:"error,omitempty"`
	// Line locates the check in its file.
	Line int `yaml:"-"`
}

// LeakException lets a prompt use a word the leak audit would flag.
type LeakException struct {
	Word string `yaml:"word"`
	Why  string `yaml:"why"`
}

// ActionSettings are the suite-wide settings of an action suite.
type ActionSettings struct {
	// TurnsPerStep sets the turn cap of an action case: TurnsPerStep turns
	// per declared step, plus TurnsExtra (3 and 4 when zero).
	TurnsPerStep int `yaml:"turns_per_step,omitempty"`
	TurnsExtra   int `yaml:"turns_extra,omitempty"`
	// Confirm is the argument a destructive tool needs set to true before
	// it acts ("confirm" when empty).
	Confirm string `yaml:"confirm,omitempty"`
	// Inventory says how to list what the target holds and remove an item:
	// after each attempt, every item whose name carries the token or that
	// was not there before it is removed, in the order listed.
	Inventory []Inventory `yaml:"inventory,omitempty"`
	// Uncovered lists tools and arguments deliberately left out of every
	// case, each with the reason.
	Uncovered []Uncovered `yaml:"uncovered,omitempty"`
	// LeakExceptions are words every prompt may use although the leak audit
	// would flag them, each with the reason.
	LeakExceptions []LeakException `yaml:"leak_exceptions,omitempty"`
	// Stray is a harmless change no case asks for, which fake:extra-change
	// makes after a case's steps to prove the Clean column; its strings may
	// name {{token}} (a token of the fake's own). When it is not set the
	// fake builds one of the case's fixtures again.
	Stray *Call `yaml:"stray,omitempty"`
}

func (s *ActionSettings) withDefaults() *ActionSettings {
	c := *s
	if c.TurnsPerStep <= 0 {
		c.TurnsPerStep = 3
	}
	if c.TurnsExtra <= 0 {
		c.TurnsExtra = 4
	}
	if c.Confirm == "" {
		c.Confirm = "confirm"
	}
	return &c
}

// Inventory is one kind of thing the target holds.
type Inventory struct {
	// List is the read call listing the items.
	List Call `yaml:"list"`
	// Items is the dotted path to the list of items in its result.
	Items string `yaml:"items"`
	// Key is a template naming one item uniquely ("{{item.id}}").
	Key string `yaml:"key"`
	// Name is a template of the item's name, searched for the token (Key
	// when empty).
	Name string `yaml:"name,omitempty"`
	// Remove removes one item; its strings may name {{item.PATH}}.
	Remove Call `yaml:"remove"`
}

// Uncovered is a tool, or an argument of one, deliberately left out of the
// corpus.
type Uncovered struct {
	Tool string `yaml:"tool"`
	// Arg is a dotted argument path ("*" for list elements); empty for the
	// whole tool.
	Arg string `yaml:"arg,omitempty"`
	Why string `yaml:"why"`
}

// extraChecks counts the checks a case declares beyond those of the read
// cases.
func (c *Case) extraChecks() int {
	if c.Action == nil {
		return 0
	}
	return len(c.Action.Steps) + 1
}

// ActionTurnCap returns the turn cap of action case c: its own TurnCap, else
// TurnsPerStep turns per declared step plus TurnsExtra. It is 0 for a case
// that is not an action case.
func (s *Suite) ActionTurnCap(c *Case) int {
	if c.Action == nil {
		return 0
	}
	if c.Action.TurnCap > 0 {
		return c.Action.TurnCap
	}
	st := c.Action.Settings()
	return st.TurnsPerStep*len(c.Action.Steps) + st.TurnsExtra
}

// UnmarshalYAML reads a step and remembers its line.
func (s *Step) UnmarshalYAML(n *yaml.Node) error {
	type plain Step
	if err := n.Load((*plain)(s), yaml.WithKnownFields()); err != nil {
		return friendlyErr(err, "a step (want tool, args, optional)")
	}
	s.Line = n.Line
	return nil
}

// UnmarshalYAML reads a fixture and remembers its line.
func (f *Fixture) UnmarshalYAML(n *yaml.Node) error {
	type plain Fixture
	if err := n.Load((*plain)(f), yaml.WithKnownFields()); err != nil {
		return friendlyErr(err, "a fixture (want tool, args, command, facts, teardown)")
	}
	f.Line = n.Line
	return nil
}

// UnmarshalYAML reads a verify check and remembers its line.
func (v *Verify) UnmarshalYAML(n *yaml.Node) error {
	type plain Verify
	if err := n.Load((*plain)(v), yaml.WithKnownFields()); err != nil {
		return friendlyErr(err, "a verify check (want tool, args, command, expect, error)")
	}
	v.Line = n.Line
	return nil
}

// friendlyErr names the type an unknown field was found in as a person
// would.
func friendlyErr(err error, what string) error {
	var les *yaml.LoadErrors
	if errors.As(err, &les) {
		for _, e := range les.Errors {
			if f, ok := strings.CutPrefix(strings.TrimPrefix(e.Message, "yaml: "), "field "); ok {
				if name, _, ok := strings.Cut(f, " not found in type "); ok {
					e.Message = fmt.Sprintf("unknown field %q in %s", name, what)
				}
			}
		}
	}
	return err
}

// Templates.

var placeholderRE = regexp.MustCompile(`\{\{\s*([^{}\s]+)\s*\}\}`)

// Vars are the values a template may name: {{token}}, {{fact.NAME}} and
// {{item.PATH}}.
type Vars struct {
	Token string
	Facts map[string]string
	Item  any
}

func (v Vars) value(name string) (any, bool) {
	switch {
	case name == "token":
		return v.Token, v.Token != ""
	case strings.HasPrefix(name, "fact."):
		f, ok := v.Facts[strings.TrimPrefix(name, "fact.")]
		return f, ok
	case strings.HasPrefix(name, "item.") && v.Item != nil:
		got := Lookup(v.Item, strings.TrimPrefix(name, "item."))
		if len(got) == 0 {
			return nil, false
		}
		return got[0], true
	}
	return nil, false
}

// Placeholders returns the names of the placeholders in s, in order.
func Placeholders(s string) []string {
	var names []string
	for _, m := range placeholderRE.FindAllStringSubmatch(s, -1) {
		names = append(names, m[1])
	}
	return names
}

// Render replaces every placeholder in s with its value; a placeholder with
// no value is an error.
func Render(s string, v Vars) (string, error) {
	var missing []string
	out := placeholderRE.ReplaceAllStringFunc(s, func(m string) string {
		name := placeholderRE.FindStringSubmatch(m)[1]
		x, ok := v.value(name)
		if !ok {
			missing = append(missing, "{{"+name+"}}")
			return m
		}
		return scalarText(x)
	})
	if len(missing) > 0 {
		return out, fmt.Errorf("no value for %s", strings.Join(missing, ", "))
	}
	return out, nil
}

// RenderValue renders every string in x (through maps and lists). A string
// that is exactly one placeholder takes the value's own type.
func RenderValue(x any, v Vars) (any, error) {
	switch x := x.(type) {
	case string:
		if m := placeholderRE.FindStringSubmatch(x); m != nil && m[0] == x {
			val, ok := v.value(m[1])
			if !ok {
				return x, fmt.Errorf("no value for {{%s}}", m[1])
			}
			return val, nil
		}
		return Render(x, v)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			r, err := RenderValue(e, v)
			if err != nil {
				return nil, err
			}
			out[k] = r
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			r, err := RenderValue(e, v)
			if err != nil {
				return nil, err
			}
			out[i] = r
		}
		return out, nil
	}
	return x, nil
}

func scalarText(x any) string {
	switch x := x.(type) {
	case string:
		return x
	case nil:
		return ""
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	if f, ok := number(x); ok {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	b, err := json.Marshal(x)
	if err != nil {
		return fmt.Sprint(x)
	}
	return string(b)
}

// Paths into values.

// SplitPath splits a dotted path into its segments; dots inside a
// [field=value] filter do not split.
func SplitPath(path string) []string {
	var segs []string
	depth, start := 0, 0
	for i := 0; i < len(path); i++ {
		switch path[i] {
		case '[':
			depth++
		case ']':
			depth--
		case '.':
			if depth == 0 {
				segs = append(segs, path[start:i])
				start = i + 1
			}
		}
	}
	return append(segs, path[start:])
}

// Lookup returns every value path leads to in v (decoded JSON or YAML). A
// segment is a map key, a list index, "*" (every element), or any of these
// followed by [field=value], which keeps the list elements whose field
// (a dotted path) has that value or is a list holding it. The empty path
// is v itself.
func Lookup(v any, path string) []any {
	if path == "" {
		return []any{v}
	}
	cur := []any{v}
	for _, seg := range SplitPath(path) {
		key, filter := seg, ""
		if i := strings.IndexByte(seg, '['); i >= 0 && strings.HasSuffix(seg, "]") {
			key, filter = seg[:i], seg[i+1:len(seg)-1]
		}
		var next []any
		for _, x := range cur {
			if key != "" {
				next = append(next, step(x, key)...)
			} else {
				next = append(next, x)
			}
		}
		if filter != "" {
			field, want, _ := strings.Cut(filter, "=")
			var kept []any
			for _, x := range next {
				for _, e := range elements(x) {
					if hasValue(Lookup(e, field), want) {
						kept = append(kept, e)
					}
				}
			}
			next = kept
		}
		cur = next
	}
	return cur
}

// hasValue reports whether one of got is want, or is a list holding it.
func hasValue(got []any, want string) bool {
	for _, g := range got {
		if SameValue(g, want) {
			return true
		}
		if l, ok := g.([]any); ok && hasValue(l, want) {
			return true
		}
	}
	return false
}

// step follows one plain segment.
func step(x any, key string) []any {
	switch x := x.(type) {
	case map[string]any:
		if key == "*" {
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			var out []any
			for _, k := range keys {
				out = append(out, x[k])
			}
			return out
		}
		if e, ok := x[key]; ok {
			return []any{e}
		}
	case []any:
		if key == "*" {
			return x
		}
		if i, err := strconv.Atoi(key); err == nil && i >= 0 && i < len(x) {
			return []any{x[i]}
		}
	}
	return nil
}

func elements(x any) []any {
	if l, ok := x.([]any); ok {
		return l
	}
	return []any{x}
}

// SetPath sets the value at a dotted path in root, making the maps and
// lists on the way; "*" and indices address list elements ("*" the first).
func SetPath(root map[string]any, path string, val any) {
	segs := SplitPath(path)
	var set func(cur any, i int) any
	set = func(cur any, i int) any {
		if i == len(segs) {
			return val
		}
		seg := segs[i]
		idx, err := strconv.Atoi(seg)
		if seg == "*" {
			idx, err = 0, nil
		}
		if err == nil {
			l, _ := cur.([]any)
			for len(l) <= idx {
				l = append(l, nil)
			}
			l[idx] = set(l[idx], i+1)
			return l
		}
		m, _ := cur.(map[string]any)
		if m == nil {
			m = map[string]any{}
		}
		m[seg] = set(m[seg], i+1)
		return m
	}
	set(root, 0)
}

// Values.

// SameValue reports whether a and b are the same value as arguments are
// compared: numbers by value whether written as numbers or strings (42,
// "42" and 42.0 are equal), null the same as absent, lists and objects
// element by element.
func SameValue(a, b any) bool {
	a, b = normal(a), normal(b)
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	if fa, ok := number(a); ok {
		fb, ok := number(b)
		return ok && math.Abs(fa-fb) <= 1e-9*math.Max(1, math.Abs(fa))
	}
	switch a := a.(type) {
	case []any:
		bl, ok := b.([]any)
		if !ok || len(a) != len(bl) {
			return false
		}
		for i := range a {
			if !SameValue(a[i], bl[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok {
			return false
		}
		for k := range a {
			if !SameValue(a[k], bm[k]) {
				return false
			}
		}
		for k := range bm {
			if _, ok := a[k]; !ok && normal(bm[k]) != nil {
				return false
			}
		}
		return true
	}
	if _, ok := number(b); ok {
		return false
	}
	return scalarText(a) == scalarText(b)
}

// normal turns YAML's and JSON's shapes into one: numeric strings into
// numbers, typed lists and maps into []any and map[string]any.
func normal(x any) any {
	switch v := x.(type) {
	case string:
		if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			return f
		}
		return v
	case json.Number:
		if f, err := v.Float64(); err == nil {
			return f
		}
		return v.String()
	case []string:
		l := make([]any, len(v))
		for i, s := range v {
			l[i] = s
		}
		return l
	case map[string]string:
		m := make(map[string]any, len(v))
		for k, s := range v {
			m[k] = s
		}
		return m
	}
	return x
}

func number(x any) (float64, bool) {
	switch v := x.(type) {
	case float64:
		return v, true
	case float32:
		return float64(v), true
	case int:
		return float64(v), true
	case int64:
		return float64(v), true
	case int32:
		return float64(v), true
	case uint64:
		return float64(v), true
	case uint:
		return float64(v), true
	}
	return 0, false
}

// Checking.

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

// factName returns the fact a placeholder "fact.NAME" or "fact.NAME@PATH"
// (another spelling of it) names.
func factName(placeholder string) string {
	name, _, _ := strings.Cut(strings.TrimPrefix(placeholder, "fact."), SpellingSep)
	return name
}

// literalTexts returns the texts of a literal that must appear in the
// prompt: its strings and numbers (booleans cannot be quoted), with
// placeholders kept as written.
func literalTexts(x any) []string {
	switch x := x.(type) {
	case string:
		return []string{x}
	case bool, nil:
		return nil
	case []any:
		var out []string
		for _, e := range x {
			out = append(out, literalTexts(e)...)
		}
		return out
	case map[string]any:
		var out []string
		for _, e := range x {
			out = append(out, literalTexts(e)...)
		}
		return out
	}
	return []string{scalarText(x)}
}

// SpellingSep separates a fact's name from the path of another spelling of
// it in a fixture record's facts: "container" holds the spelling the prompt
// shows, "container@id" and "container@short_id" the others.
const SpellingSep = "@"

// FactSpellings returns every recorded spelling of fact name, the one the
// prompt shows first.
func FactSpellings(facts map[string]string, name string) []string {
	var out []string
	if v, ok := facts[name]; ok {
		out = append(out, v)
	}
	var keys []string
	for k := range facts {
		if strings.HasPrefix(k, name+SpellingSep) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		out = append(out, facts[k])
	}
	return out
}

// MatchTemplate returns the values the placeholders of template tmpl take
// in s, a rendering of it ("token" and "fact.NAME" as keys), and whether s
// is a rendering of tmpl at all. A placeholder named twice keeps its first
// value.
func MatchTemplate(tmpl, s string) (map[string]string, bool) {
	locs := placeholderRE.FindAllStringSubmatchIndex(tmpl, -1)
	var re strings.Builder
	re.WriteString(`(?s)^`)
	var names []string
	last := 0
	for _, l := range locs {
		re.WriteString(regexp.QuoteMeta(tmpl[last:l[0]]))
		re.WriteString(`(.+?)`)
		names = append(names, tmpl[l[2]:l[3]])
		last = l[1]
	}
	re.WriteString(regexp.QuoteMeta(tmpl[last:]))
	re.WriteString(`$`)
	m := regexp.MustCompile(re.String()).FindStringSubmatch(s)
	if m == nil {
		return nil, false
	}
	vals := map[string]string{}
	for i, n := range names {
		if _, seen := vals[n]; !seen {
			vals[n] = m[i+1]
		}
	}
	return vals, true
}
