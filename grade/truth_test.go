package grade_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/builtin"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// The grader-truth corpus lives in testdata/truth: one YAML file per suite,
// each entry a model's answer to one case of that suite and the verdict a
// person reading the case's prompt and working would give it. See
// testdata/truth/README.md.
const truthDir = "testdata/truth"

// Each class of entry, and whether its entries are right answers (pass)
// or wrong ones (fail). An entry's want must agree with its class.
var truthClasses = map[string]string{
	// Right answers.
	"plain":             "pass", // the figure as most answers write it
	"format-space":      "pass", // grouping with a space, no-break space, thin space or narrow no-break space
	"format-apostrophe": "pass", // grouping with an apostrophe, straight or curly
	"format-dot":        "pass", // dot grouping, with or without a decimal comma
	"format-comma":      "pass", // a decimal comma with a percent, currency or scale attached
	"format-currency":   "pass", // a currency symbol or code before or after the number
	"format-scale":      "pass", // 2.39M, 2.4 million, 37.8k, 1.2 bn
	"context":           "pass", // comparisons, earlier values, breakdowns and other periods named as such
	"rounding":          "pass", // rounded as a person would accept
	"markdown":          "pass", // bold, tables, bullets, headings
	"decline-ok":        "pass", // a proper decline or a clarifying question
	"expected-error":    "pass", // a tool error the case provokes on purpose
	// Wrong answers.
	"unit":            "fail", // the expected number counts something else ("the last 3 months")
	"hedge":           "fail", // hedges between candidates, or vouches for none
	"elsewhere":       "fail", // the right value credited to another period or quantity
	"comparison":      "fail", // the wrong value asserted, the right one only as the comparison
	"negated":         "fail", // the right value only denied
	"operand":         "fail", // the right value only as a term of a calculation with another result
	"competitor":      "fail", // the right value stated, and a competing one for the same thing
	"wrong-value":     "fail", // a neighbouring month, the wrong currency, off by more than tolerance, the wrong sign
	"ambiguous":       "fail", // a form that reads two ways, in a suite that does not say which
	"decline-claim":   "fail", // a decline action case answered with a claim of having acted
	"decline-figures": "fail", // a decline question case answered with figures
	"tool-error":      "fail", // a call the tool refused, on a tool the case does not expect an error from
}

// truthFloors are the least number of entries of each class the corpus
// must hold, and of right and wrong answers in all.
var truthFloors = map[string]int{
	"unit": 5, "hedge": 5, "elsewhere": 5, "comparison": 5, "competitor": 5, "wrong-value": 5,
	"decline-claim": 5, "tool-error": 5, "decline-figures": 5,
	"format-space": 5, "format-apostrophe": 5, "format-dot": 5, "format-comma": 5, "format-currency": 5,
	"format-scale": 5, "context": 5, "rounding": 5, "markdown": 5, "decline-ok": 5,
}

const (
	truthMinPass = 300
	truthMinFail = 150
)

// truthFile is one file of the corpus.
type truthFile struct {
	// Suite is the suite the entries are graded against: builtin:NAME
	// for an embedded suite, else a directory or file relative to the
	// truth file.
	Suite string `yaml:"suite"`
	// Server is a directory, relative to the truth file, holding the
	// server's tools (tools.json) and the results its calls returned
	// (results.json), as captured from the real server.
	Server  string      `yaml:"server"`
	Entries []yaml.Node `yaml:"entries"`
}

// truthEntry is one answer and its verdict.
type truthEntry struct {
	Case   string `yaml:"case"`
	Answer string `yaml:"answer"`
	Want   string `yaml:"want"`
	Class  string `yaml:"class"`
	// Reason is a substring the failure reasons of a wrong answer must
	// contain.
	Reason string `yaml:"reason,omitempty"`
	// Calls replace the tool calls of the case's key.
	Calls *[]truthCall `yaml:"calls,omitempty"`
	// Fixture gives an action case's token and facts.
	Fixture *truthFixture `yaml:"fixture,omitempty"`
	// Note says, for a person, why the verdict is what it is.
	Note string `yaml:"note,omitempty"`
	// Known marks a verdict the grader is known to get wrong, and says
	// why: the entry is reported, not failed, and not counted towards the
	// floors; once the grader agrees, the test fails until the mark goes.
	Known string `yaml:"known,omitempty"`

	file string
	line int
}

type truthCall struct {
	Tool string         `yaml:"tool"`
	Args map[string]any `yaml:"args,omitempty"`
	// IsError marks a call the tool refused; Rejected one the server
	// refused before it reached the tool (its arguments failed the
	// schema), as the runner records a JSON-RPC invalid-params error.
	IsError  bool `yaml:"is_error,omitempty"`
	Rejected bool `yaml:"rejected,omitempty"`
	// Result replaces the captured result.
	Result *string `yaml:"result,omitempty"`
}

type truthFixture struct {
	Token string            `yaml:"token"`
	Facts map[string]string `yaml:"facts,omitempty"`
}

// captured is a result the real server returned.
type captured struct {
	Text       string          `json:"text"`
	Structured json.RawMessage `json:"structured"`
	IsError    bool            `json:"is_error"`
	Rejected   bool            `json:"rejected"`
}

// truthServer is a server's captured tools and results.
type truthServer struct {
	tools   []record.Tool
	results map[string]captured
}

// truthSet is a loaded truth file.
type truthSet struct {
	file    string
	suite   *suite.Suite
	server  *truthServer
	entries []*truthEntry
}

// TestTruth grades every entry of the grader-truth corpus and checks that
// the grader's verdict is the person's: each right answer passes, each
// wrong one fails with the reason it names. It also holds the corpus to
// its floors: enough right and wrong answers, and enough of each class.
func TestTruth(t *testing.T) {
	sets := loadTruth(t)
	counts := map[string][2]int{} // class → {entries, disagreements}
	var pass, fail, disagree int
	var known []string
	for _, set := range sets {
		for _, e := range set.entries {
			if e.Known != "" {
				if msg := gradeTruth(t, set, e); msg == "" {
					t.Errorf("%s:%d: case %s: the grader now agrees; remove its known: mark", e.file, e.line, e.Case)
				} else {
					known = append(known, fmt.Sprintf("%s:%d: %s: %s", e.file, e.line, e.Case, e.Known))
				}
				continue
			}
			if e.Want == "pass" {
				pass++
			} else {
				fail++
			}
			n := counts[e.Class]
			n[0]++
			if msg := gradeTruth(t, set, e); msg != "" {
				n[1]++
				disagree++
				t.Errorf("%s:%d: case %s: %s", e.file, e.line, e.Case, msg)
			}
			counts[e.Class] = n
		}
	}
	classes := make([]string, 0, len(counts))
	for c := range counts {
		classes = append(classes, c)
	}
	sort.Slice(classes, func(i, j int) bool {
		if truthClasses[classes[i]] != truthClasses[classes[j]] {
			return truthClasses[classes[i]] > truthClasses[classes[j]]
		}
		return classes[i] < classes[j]
	})
	var b strings.Builder
	fmt.Fprintf(&b, "%d right answers, %d wrong answers, %d disagree with the grader\n", pass, fail, disagree)
	for _, c := range classes {
		fmt.Fprintf(&b, "  %-4s %-18s %3d entries, %3d disagree\n", truthClasses[c], c, counts[c][0], counts[c][1])
	}
	if len(known) > 0 {
		fmt.Fprintf(&b, "%d known gaps, not counted:\n", len(known))
		for _, k := range known {
			fmt.Fprintf(&b, "  %s\n", k)
		}
	}
	t.Log("\n" + b.String())
	if pass < truthMinPass {
		t.Errorf("the corpus has %d right answers (want: pass), want at least %d", pass, truthMinPass)
	}
	if fail < truthMinFail {
		t.Errorf("the corpus has %d wrong answers (want: fail), want at least %d", fail, truthMinFail)
	}
	floors := make([]string, 0, len(truthFloors))
	for c := range truthFloors {
		floors = append(floors, c)
	}
	sort.Strings(floors)
	for _, c := range floors {
		if n := counts[c][0]; n < truthFloors[c] {
			t.Errorf("the corpus has %d entries of class %s, want at least %d", n, c, truthFloors[c])
		}
	}
}

// TestTruthEntryProblems checks that a malformed entry is refused, not
// graded: an unknown case or class, a want that is neither pass nor fail
// or that its class contradicts, an empty answer, a reason on a right
// answer.
func TestTruthEntryProblems(t *testing.T) {
	s, err := builtin.LoadSuite("household")
	if err != nil {
		t.Fatal(err)
	}
	good := truthEntry{Case: "single-tool/net-worth-now", Want: "fail", Class: "hedge", Answer: "Either SGD 2,394,755 or SGD 2,261,924."}
	if msg := good.problem(s); msg != "" {
		t.Fatalf("a well-formed entry: %s", msg)
	}
	for want, edit := range map[string]func(*truthEntry){
		`no case "single-tool/nope"`:      func(e *truthEntry) { e.Case = "single-tool/nope" },
		`want "maybe": want pass or fail`: func(e *truthEntry) { e.Want = "maybe" },
		`unknown class "hedges"`:          func(e *truthEntry) { e.Class = "hedges" },
		"class hedge holds fail entries":  func(e *truthEntry) { e.Want = "pass" },
		"no answer":                       func(e *truthEntry) { e.Answer = " " },
		"a reason on a right answer":      func(e *truthEntry) { e.Class, e.Want, e.Reason = "plain", "pass", "x" },
	} {
		e := good
		edit(&e)
		if msg := e.problem(s); !strings.Contains(msg, want) {
			t.Errorf("problem = %q, want it to say %q", msg, want)
		}
	}
}

// gradeTruth grades entry e and says how the verdict disagrees with the
// entry's, or "" when it agrees.
func gradeTruth(t *testing.T, set *truthSet, e *truthEntry) string {
	t.Helper()
	c := set.suite.Case(e.Case)
	a, err := set.attempt(c, e)
	if err != nil {
		return err.Error()
	}
	h := set.header(c)
	g := grade.Attempt(set.suite, c, h, a)
	var reasons []string
	for _, r := range g.Reasons {
		reasons = append(reasons, r.String())
	}
	got := string(g.Outcome)
	switch {
	case got != e.Want:
		if len(reasons) == 0 {
			return fmt.Sprintf("want %s, got %s", e.Want, got)
		}
		return fmt.Sprintf("want %s, got %s (reasons: %s)", e.Want, got, strings.Join(reasons, "; "))
	case e.Want == "fail" && e.Reason != "" && !strings.Contains(strings.Join(reasons, "\n"), e.Reason):
		return fmt.Sprintf("want fail saying %q, got fail (reasons: %s)", e.Reason, strings.Join(reasons, "; "))
	}
	return ""
}

// loadTruth reads every file of the corpus, failing the test on anything
// malformed: an unknown case or class, a want that is neither pass nor
// fail or disagrees with its class, an entry with no answer.
func loadTruth(t *testing.T) []*truthSet {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(truthDir, "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no truth files in %s", truthDir)
	}
	var sets []*truthSet
	servers := map[string]*truthServer{}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var tf truthFile
		if err := yaml.Load(data, &tf, yaml.WithKnownFields()); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		set := &truthSet{file: file, suite: truthSuite(t, file, tf.Suite)}
		dir := filepath.Join(filepath.Dir(file), tf.Server)
		if servers[dir] == nil {
			servers[dir] = loadTruthServer(t, dir)
		}
		set.server = servers[dir]
		for i := range tf.Entries {
			n := &tf.Entries[i]
			e := &truthEntry{file: file, line: n.Line}
			if err := n.Load(e, yaml.WithKnownFields()); err != nil {
				t.Errorf("%s:%d: %v", file, n.Line, err)
				continue
			}
			if msg := e.problem(set.suite); msg != "" {
				t.Errorf("%s:%d: %s", file, n.Line, msg)
				continue
			}
			set.entries = append(set.entries, e)
		}
		sets = append(sets, set)
	}
	if t.Failed() {
		t.FailNow()
	}
	return sets
}

// problem says what is wrong with entry e as written, or "".
func (e *truthEntry) problem(s *suite.Suite) string {
	dir, ok := truthClasses[e.Class]
	switch {
	case s.Case(e.Case) == nil:
		return fmt.Sprintf("no case %q in suite %s", e.Case, s.Name)
	case e.Want != "pass" && e.Want != "fail":
		return fmt.Sprintf("case %s: want %q: want pass or fail", e.Case, e.Want)
	case !ok:
		return fmt.Sprintf("case %s: unknown class %q", e.Case, e.Class)
	case dir != e.Want:
		return fmt.Sprintf("case %s: class %s holds %s entries, but this one wants %s", e.Case, e.Class, dir, e.Want)
	case strings.TrimSpace(e.Answer) == "":
		return fmt.Sprintf("case %s: no answer", e.Case)
	case e.Reason != "" && e.Want == "pass":
		return fmt.Sprintf("case %s: a reason on a right answer", e.Case)
	}
	return ""
}

// truthSuite loads the suite a truth file names.
func truthSuite(t *testing.T, file, name string) *suite.Suite {
	t.Helper()
	var s *suite.Suite
	var err error
	if b, ok := strings.CutPrefix(name, "builtin:"); ok {
		s, err = builtin.LoadSuite(b)
	} else {
		s, err = suite.Load(filepath.Join(filepath.Dir(file), name))
	}
	if err != nil {
		t.Fatalf("%s: loading suite %s: %v", file, name, err)
	}
	return s
}

// loadTruthServer reads a server's captured tools and results.
func loadTruthServer(t *testing.T, dir string) *truthServer {
	t.Helper()
	srv := &truthServer{}
	for name, v := range map[string]any{"tools.json": &srv.tools, "results.json": &srv.results} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatalf("%s: %v", filepath.Join(dir, name), err)
		}
	}
	return srv
}

// header is a valid run's header: the server's read-only tools for a
// question case, every tool for an action case.
func (set *truthSet) header(c *suite.Case) *record.Header {
	h := &record.Header{Format: record.Format, RunID: "truth", Preflight: record.Preflight{Valid: true}, Attempts: 1}
	for _, tl := range set.server.tools {
		if tl.ReadOnly || c.Action != nil {
			h.Tools = append(h.Tools, tl)
		}
	}
	return h
}

// attempt builds the answered attempt of entry e on case c: its calls
// (the key's unless it gives its own), one turn each, then the answer.
func (set *truthSet) attempt(c *suite.Case, e *truthEntry) (*record.Attempt, error) {
	a := &record.Attempt{Case: c.ID, N: 1, Prompt: c.Prompt, End: record.EndAnswered, Answer: e.Answer}
	if e.Fixture != nil {
		a.Fixture = &record.Fixture{Token: e.Fixture.Token, Facts: e.Fixture.Facts}
		if p, err := suite.Render(c.Prompt, suite.Vars{Token: e.Fixture.Token, Facts: e.Fixture.Facts}); err == nil {
			a.Prompt = p
		}
	}
	var calls []truthCall
	if e.Calls != nil {
		calls = *e.Calls
	} else {
		for _, k := range c.Key.Calls {
			calls = append(calls, truthCall{Tool: k.Tool, Args: k.Args})
		}
		if c.Action != nil {
			steps, err := stepCalls(c, a.Fixture)
			if err != nil {
				return nil, err
			}
			calls = append(calls, steps...)
		}
	}
	for i, tc := range calls {
		call, err := set.call(i, tc)
		if err != nil {
			return nil, err
		}
		a.Turns = append(a.Turns, record.Turn{Calls: []record.Call{call}})
	}
	a.Turns = append(a.Turns, record.Turn{Text: e.Answer})
	return a, nil
}

// call makes call i of an attempt, answered with its own result or else
// the server's captured one.
func (set *truthSet) call(i int, tc truthCall) (record.Call, error) {
	args := []byte("{}")
	if len(tc.Args) > 0 {
		var err error
		if args, err = json.Marshal(tc.Args); err != nil {
			return record.Call{}, fmt.Errorf("call %d (%s): arguments: %v", i+1, tc.Tool, err)
		}
	}
	call := record.Call{ID: "call-" + strconv.Itoa(i+1), Name: tc.Tool, Args: args, Shown: true, IsError: tc.IsError}
	if tc.Result != nil {
		call.Result = *tc.Result
		if tc.Rejected {
			call.Rejected = call.Result
		}
		return call, nil
	}
	r, ok := set.server.result(tc.Tool, tc.Args, args)
	if !ok {
		return record.Call{}, fmt.Errorf("call %d: no captured result for %s %s: give one (result:)", i+1, tc.Tool, args)
	}
	call.Result, call.Structured, call.IsError = r.Text, r.Structured, r.IsError || tc.IsError
	if r.Rejected || tc.Rejected {
		call.Rejected = r.Text
	}
	return call, nil
}

// result finds a captured result: by the tool and its arguments ("tool
// {json}"), else as the household captures key them ("tool?months=N"),
// else by the tool alone when it was called with no arguments or only
// months.
func (srv *truthServer) result(tool string, args map[string]any, raw []byte) (captured, bool) {
	if r, ok := srv.results[tool+" "+string(raw)]; ok {
		return r, true
	}
	var other []string
	for k := range args {
		if k != "months" {
			other = append(other, k)
		}
	}
	if len(other) > 0 {
		return captured{}, false
	}
	if m, ok := args["months"]; ok {
		if r, ok := srv.results[fmt.Sprintf("%s?months=%v", tool, m)]; ok {
			return r, true
		}
	}
	r, ok := srv.results[tool]
	return r, ok
}

// stepCalls are the calls of action case c's steps, their arguments the
// literals the key gives and the facts of fixture f. A step with an
// argument of another kind (produced by an earlier step, authored, or a
// path into an object) cannot be made up here: its entry gives its calls.
func stepCalls(c *suite.Case, f *record.Fixture) ([]truthCall, error) {
	var vars suite.Vars
	if f != nil {
		vars = suite.Vars{Token: f.Token, Facts: f.Facts}
	}
	var calls []truthCall
	for _, st := range c.Action.Steps {
		args := map[string]any{}
		for path, src := range st.Args {
			switch {
			case strings.Contains(path, "."):
			case src.Literal != nil:
				v, err := suite.RenderValue(src.Literal, vars)
				if err != nil {
					return nil, fmt.Errorf("step %s: argument %s: %v", st.Tool, path, err)
				}
				args[path] = v
				continue
			case src.Fact != "" && vars.Facts[src.Fact] != "":
				args[path] = vars.Facts[src.Fact]
				continue
			}
			return nil, fmt.Errorf("step %s: argument %s is neither a literal nor a fixture fact: give the entry's calls", st.Tool, path)
		}
		calls = append(calls, truthCall{Tool: st.Tool, Args: args})
	}
	return calls, nil
}
