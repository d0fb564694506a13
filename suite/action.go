package suite

import (
	"errors"
	"fmt"
	"reflect"
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
	// KindDestructive cases make a change that must be approved: every
	// step on a destructive tool needs the approval argument (confirm:
	// true), and a tool that cannot take it makes the case unpassable
	// (validate warns of it).
	KindDestructive = "destructive"
	// KindDecline cases ask for something no tool does, or something too
	// vague to act on safely: the right answer says so and changes nothing.
	KindDecline = "decline"
)

// Kinds lists the action kinds in report order.
var Kinds = []string{KindRead, KindWrite, KindSequence, KindDestructive, KindDecline}

// Action is the part of a case that evaluates actions: what kind of case it
// is, the fixtures it needs, the ordered steps of its key and the state to
// verify after it. See the action suites internal/builtin/ops/suite and internal/builtin/memory for examples.
//
// Strings in fixtures, verify calls, literals, authored examples and the
// prompt may name {{token}} (the attempt's fresh token) and {{fact.NAME}}
// (a value a fixture produced; {{fact.NAME@PATH}} is another spelling of
// it); the prompt is sent rendered, and so are the authored examples
// fake:perfect sends.
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
	// Command is run instead of a tool: argv, not a shell line, in the
	// suite's directory, with the attempt's token in MCPEVAL_TOKEN. Its
	// stdout, when it is JSON, is the result facts are read from.
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
// and Produced may be combined (any of them is right); Authored and Given
// each stand alone.
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
	// sends this example, rendered ({{token}} and {{fact.NAME}} become the
	// attempt's values).
	Authored any `yaml:"authored,omitempty"`
	// Given is a value the user never says and the deployment supplies
	// (a repository path, a workspace id): fake:perfect sends it, rendered
	// as Authored is, and it is never judged: whatever the model sends, or
	// if it sends nothing, the Arguments column does not count it.
	Given any `yaml:"given,omitempty"`
}

// Compared reports whether the argument's value is compared.
func (a ArgSource) Compared() bool { return a.Authored == nil && a.Given == nil }

// Verify is one check of the target's state after an attempt.
type Verify struct {
	Call `yaml:",inline"`
	// Expect maps a dotted path into the result to the value it must have
	// (templates allowed); null means the path must lead nowhere.
	Expect map[string]any `yaml:"expect,omitempty"`
	// Error, when true, expects the call to fail (a thing that should be
	// gone is not found).
	Error bool `yaml:"error,omitempty"`
	// TextCheck checks the result's text: contains, matches, figures.
	TextCheck `yaml:",inline"`
	// Line locates the check in its file.
	Line int `yaml:"-"`
}

// LeakException lets a prompt use a word the leak audit would flag.
type LeakException struct {
	// Word is the word the prompt may use.
	Word string `yaml:"word"`
	// Why says why it is not a leak.
	Why string `yaml:"why"`
}

// ActionSettings are the suite-wide settings of an action suite.
type ActionSettings struct {
	// TurnsPerStep sets the turn cap of an action case: TurnsPerStep turns
	// per declared step, plus TurnsExtra (3 and 4 when zero).
	TurnsPerStep int `yaml:"turns_per_step,omitempty"`
	// TurnsExtra is added to the turn cap of every action case.
	TurnsExtra int `yaml:"turns_extra,omitempty"`
	// Confirm is the approval argument a destructive tool takes, set to
	// true before it acts ("confirm" when empty). A step on a destructive
	// tool needs the approval when the tool's input schema has this
	// argument, or when the case is a destructive case; a destructive tool
	// without it (a file server's write_file) is reached without one in
	// any other case.
	Confirm string `yaml:"confirm,omitempty"`
	// Inventory says how to list what the target holds and remove an item:
	// after each attempt, every item whose name carries the token or that
	// was not there before it is removed, in the order listed.
	Inventory []Inventory `yaml:"inventory,omitempty"`
	// Teardown are calls made after every attempt of an action case, after
	// the fixtures' own teardowns and the inventory's removals, whatever
	// the attempt did: for a server with no tool that lists its items as
	// JSON or deletes them, typically a command that removes whatever
	// carries the token ({{token}}, or MCPEVAL_TOKEN in its environment).
	Teardown []Call `yaml:"teardown,omitempty"`
	// Leftovers are calls made once, when the run's attempts are done: the
	// output of each (a command's stdout, a tool's result) must show
	// nothing carrying the token of any of the run's attempts. Whatever
	// does was left behind, and is reported as a warning of the run. A
	// command finds the tokens in MCPEVAL_TOKENS, separated by spaces.
	Leftovers []Call `yaml:"leftovers,omitempty"`
	// Uncovered lists tools and arguments deliberately left out of every
	// case, each with the reason.
	Uncovered []Uncovered `yaml:"uncovered,omitempty"`
	// LeakExceptions are words every prompt may use although the leak audit
	// would flag them, each with the reason.
	LeakExceptions []LeakException `yaml:"leak_exceptions,omitempty"`
	// AllowTargets names the targets the suite's action cases may change
	// (see TargetAllowed): each a target spec as --target takes it
	// ("builtin:ops", "stdio:CMD ARGS", a URL), or "server:NAME" or
	// "server:NAME@VERSION", matched against the name and version the
	// server reports when it connects. A run refuses any other target
	// before it builds a fixture. Empty: every target is allowed.
	AllowTargets []string `yaml:"allow_targets,omitempty"`
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
	// Tool is the tool left out, or whose argument is.
	Tool string `yaml:"tool"`
	// Arg is a dotted argument path ("*" for list elements); empty for the
	// whole tool.
	Arg string `yaml:"arg,omitempty"`
	// Why says why no case covers it.
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
		return friendlyErr(err, "a step (want tool, args, optional)", s)
	}
	s.Line = n.Line
	return nil
}

// UnmarshalYAML reads a fixture and remembers its line.
func (f *Fixture) UnmarshalYAML(n *yaml.Node) error {
	type plain Fixture
	if err := n.Load((*plain)(f), yaml.WithKnownFields()); err != nil {
		return friendlyErr(err, "a fixture (want tool, args, command, facts, teardown)", f)
	}
	f.Line = n.Line
	return nil
}

// UnmarshalYAML reads a verify check and remembers its line.
func (v *Verify) UnmarshalYAML(n *yaml.Node) error {
	type plain Verify
	if err := n.Load((*plain)(v), yaml.WithKnownFields()); err != nil {
		return friendlyErr(err, "a verify check (want tool, args, command, expect, contains, matches, figures, error)", v)
	}
	v.Line = n.Line
	return nil
}

// friendlyErr names the type an unknown field was found in as a person
// would, and the field of v (a pointer to the type read) meant when the
// unknown one is close to it.
func friendlyErr(err error, what string, v any) error {
	var les *yaml.LoadErrors
	if errors.As(err, &les) {
		for _, e := range les.Errors {
			if f, ok := strings.CutPrefix(strings.TrimPrefix(e.Message, "yaml: "), "field "); ok {
				if name, typ, ok := strings.Cut(f, " not found in type "); ok {
					e.Message = fmt.Sprintf("unknown field %q in %s%s", name, what, didYouMean(name, typ, reflect.TypeOf(v).Elem()))
				}
			}
		}
	}
	return err
}

// Templates.
