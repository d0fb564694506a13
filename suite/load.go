package suite

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/mcpeval/mcpeval/internal/yamlloc"
	"go.yaml.in/yaml/v4"
)

// MaxFileSize is the largest suite file read; a larger one is refused
// rather than parsed.
const MaxFileSize = 8 << 20

// Error is one problem in a suite file, located.
type Error struct {
	File string
	Line int
	Col  int
	Msg  string
}

func (e *Error) Error() string {
	switch {
	case e.Line > 0 && e.Col > 0:
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	default:
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
}

// Errors is every problem found in a suite, in file and line order.
type Errors []*Error

func (es Errors) Error() string {
	var b strings.Builder
	for i, e := range es {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

func (es Errors) sorted() Errors {
	sort.SliceStable(es, func(i, j int) bool {
		if es[i].File != es[j].File {
			return es[i].File < es[j].File
		}
		return es[i].Line < es[j].Line
	})
	return es
}

// Load reads the suite at p: a YAML file, or a directory holding suite.yaml
// and further *.yaml case files. Problems come back as Errors.
func Load(p string) (*Suite, error) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, fmt.Errorf("loading suite: %w", err)
	}
	if st.IsDir() {
		return LoadFS(os.DirFS(p), ".", p)
	}
	return LoadFS(os.DirFS(filepath.Dir(p)), filepath.Base(p), p)
}

// LoadFS reads the suite at name in fsys; display is how its files are named
// in errors and in Suite.Path.
func LoadFS(fsys fs.FS, name, display string) (*Suite, error) {
	files, err := suiteFiles(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("loading suite %s: %w", display, err)
	}
	l := &loader{fsys: fsys, hash: sha256.New()}
	s := &Suite{Path: display}
	first := ""
	for i, f := range files {
		shown := display
		if len(files) > 1 || f != name {
			shown = path.Join(display, strings.TrimPrefix(f, name+"/"))
			if name == "." {
				shown = filepath.Join(display, f)
			}
		}
		if i == 0 {
			first = shown
		}
		l.file(s, f, shown, i == 0)
	}
	l.casesFrom(s, files[0], first)
	s.Path = display // a file stays a file; a directory stays the directory
	l.check(s)
	l.checkImportCases(s, first)
	l.csvColumns()
	if len(l.errs) > 0 {
		return nil, l.errs.sorted()
	}
	s.Hash = hex.EncodeToString(l.hash.Sum(nil))
	return s, nil
}

func suiteFiles(fsys fs.FS, name string) ([]string, error) {
	st, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return []string{name}, nil
	}
	entries, err := fs.ReadDir(fsys, name)
	if err != nil {
		return nil, err
	}
	main := path.Join(name, "suite.yaml")
	if _, err := fs.Stat(fsys, main); err != nil {
		return nil, fmt.Errorf("a suite directory needs a suite.yaml")
	}
	files := []string{main}
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || n == "suite.yaml" || !(strings.HasSuffix(n, ".yaml") || strings.HasSuffix(n, ".yml")) {
			continue
		}
		files = append(files, path.Join(name, n))
	}
	return files, nil
}

type loader struct {
	fsys fs.FS
	errs Errors
	hash hash.Hash
	data []byte // the file being read, to place errors that carry no line
	// csvCols holds the header of each CSV file of cases read, by the
	// file's name in errors: a problem at column N names the column.
	csvCols map[string][]string
}

func (l *loader) errorf(file string, line, col int, format string, args ...any) {
	// A message quoting the file may hold a newline: keep it on its line.
	msg := strings.ReplaceAll(fmt.Sprintf(format, args...), "\n", `\n`)
	l.errs = append(l.errs, &Error{File: file, Line: line, Col: col, Msg: msg})
}

// yamlErr turns a YAML error into located Errors.
func (l *loader) yamlErr(file string, err error) {
	ps := yamlloc.Problems(l.data, err)
	for _, p := range ps {
		l.errorf(file, p.Line, p.Col, "%s", cleanYAMLMsg(p.Msg))
	}
	if ps == nil {
		l.errorf(file, 1, 0, "%v", err)
	}
}

func cleanYAMLMsg(m string) string {
	m = strings.TrimPrefix(m, "yaml: ")
	if v, ok := strings.CutPrefix(m, "cannot construct !!str "); ok {
		if v, ok := strings.CutSuffix(v, " into []string"); ok {
			return fmt.Sprintf("%s is one value where a list is wanted: write [%s]", v, strings.Trim(v, "`"))
		}
	}
	if f, ok := strings.CutPrefix(m, "field "); ok {
		if name, typ, ok := strings.Cut(f, " not found in type "); ok {
			return fmt.Sprintf("unknown field %q in %s%s", name, friendlyType(typ), didYouMean(name, typ, nil))
		}
	}
	return m
}

func friendlyType(t string) string {
	switch strings.TrimPrefix(t, "suite.") {
	case "Case":
		return "a case"
	case "caseFile":
		return "a file of cases (want cases: only; settings go in suite.yaml)"
	case "fileHead", "Suite":
		return "the suite settings"
	case "Figure", "figureYAML":
		return "a figure"
	case "ToolRules":
		return "tools (want required, accepted, forbidden, include, exclude)"
	case "ToolFilter":
		return "tools (want include, exclude)"
	case "ArgRule":
		return "an argument rule (want tool, arg, equals, min, max, why)"
	case "Key":
		return "a key (want calls, answer, asks)"
	case "KeyCall":
		return "a key call (want tool, args)"
	case "PreflightCheck":
		return "a preflight check (want tool, args, command, expect, contains, matches, figures)"
	case "Tolerances":
		return "tolerances (want money, percent)"
	case "UserTurn":
		return "a turn (want say, when, approves)"
	case "TurnWhen":
		return "a turn's when (want asked, called, matches)"
	case "SimUser":
		return "a user (want model, instructions, knows)"
	case "Import":
		return "import (want match, attribute, rules)"
	case "ImportRule":
		return "an import rule (want case, prompt_regex, attribute, equals)"
	}
	return t
}

// fileHead is the top level of a suite file: settings (only in the first
// file) and cases.
type fileHead struct {
	Suite `yaml:",inline"`
	Cases []yaml.Node `yaml:"cases"`
}

// caseFile is the top level of a further case file.
type caseFile struct {
	Cases []yaml.Node `yaml:"cases"`
}

func (l *loader) file(s *Suite, name, shown string, first bool) {
	data, err := fs.ReadFile(l.fsys, name)
	if err != nil {
		l.errorf(shown, 0, 0, "reading: %v", err)
		return
	}
	if len(data) > MaxFileSize {
		l.errorf(shown, 0, 0, "file is %d bytes, more than the %d a suite file may have", len(data), MaxFileSize)
		return
	}
	if line := yamlloc.InvalidUTF8Line(data); line > 0 {
		l.errorf(shown, line, 0, "not valid UTF-8: a suite is UTF-8 text")
		return
	}
	if len(bytes.TrimSpace(data)) == 0 {
		l.errorf(shown, 0, 0, "file is empty: want suite settings and cases")
		return
	}
	l.data = data
	var nodes []yaml.Node
	if first {
		var h fileHead
		if err := yaml.Load(data, &h, yaml.WithKnownFields()); err != nil {
			l.yamlErr(shown, err)
			return
		}
		cases := h.Cases
		*s = h.Suite
		nodes = cases
		l.head(s, shown, data)
	} else {
		if !l.caseFileShape(shown, data) {
			return
		}
		var cf caseFile
		if err := yaml.Load(data, &cf, yaml.WithKnownFields()); err != nil {
			l.yamlErr(shown, err)
			return
		}
		nodes = cf.Cases
	}
	hashed := withoutVerification(data, nodes)
	fmt.Fprintf(l.hash, "%s\x00%d\x00", path.Base(name), len(hashed))
	l.hash.Write(hashed)
	for i := range nodes {
		l.caseNode(s, &nodes[i], shown)
	}
}

// caseNode loads one case from its node in file, checks what the node
// tells, and adds it to s.
func (l *loader) caseNode(s *Suite, n *yaml.Node, file string) {
	c := new(Case)
	if err := n.Load(c, yaml.WithKnownFields()); err != nil {
		l.yamlErr(file, err)
		return
	}
	c.File, c.Line = file, n.Line
	l.figureValues(c, n)
	if a := mapValue(n, "attempts"); a != nil && c.Attempts == 0 {
		l.errorf(c.File, a.Line, a.Column, "case %s: attempts is 0: want a positive number (leave it out for the suite's)", c.ID)
	}
	if tc := nodeAt(n, "action", "turn_cap"); tc != nil && c.Action != nil && c.Action.TurnCap == 0 {
		l.errorf(c.File, tc.Line, tc.Column, "case %s: action turn_cap is 0: want a positive number (leave it out for the default)", c.ID)
	}
	l.answerChecks(c, n)
	l.caseUser(c, n, s.User)
	l.userTurns(c, n)
	s.Cases = append(s.Cases, c)
}

// head checks the suite settings.
func (l *loader) head(s *Suite, file string, data []byte) {
	if strings.TrimSpace(s.Name) == "" {
		l.errorf(file, 1, 0, "the suite has no name: want name: ...")
	}
	if s.Attempts < 0 {
		l.errorf(file, lineOf(data, "attempts:"), 0, "attempts is %d: want a positive number", s.Attempts)
	}
	root := rootNode(data)
	if t := s.Target.ConnectTimeout; t < time.Millisecond {
		if n := nodeAt(root, "target", "connect_timeout"); n != nil {
			l.errorf(file, n.Line, n.Column, "target: connect_timeout %s: want a positive duration such as 30s (leave it out for the default, 30s)", t)
		}
	}
	if line := topLevelLine(data, "attempts:"); s.Attempts == 0 && line > 0 {
		l.errorf(file, line, 0, "attempts is 0: want a positive number (leave it out for the default, 3)")
	}
	switch s.ToolResults {
	case "", "text", "text+structured":
	default:
		l.errorf(file, lineOf(data, "tool_results:"), 0, "tool_results %q: want text or text+structured", s.ToolResults)
	}
	l.checkElicitation(s, file, data)
	l.suiteUser(s, file, root)
	l.checkSampling(s, file, data)
	switch s.ToolErrors {
	case "", ToolErrorsFail, ToolErrorsNote:
	default:
		l.errorf(file, lineOf(data, "tool_errors:"), 0, "tool_errors %q: want fail or note", s.ToolErrors)
	}
	for i, p := range s.DeclinePhrases {
		if strings.TrimSpace(p) == "" {
			l.errorf(file, lineOf(data, "decline_phrases:"), 0, "decline_phrases %d is empty: want a phrase such as \"not permitted\"", i+1)
		}
	}
	l.checkNotify(s, file, data)
	l.suiteToolFilter(s, file, data)
	l.checkTargetFrom(s, file, data)
	l.checkTargets(s, file, data)
	l.checkSlice(s, file, data)
	l.checkSurfaces(s, file, data)
	l.checkReplay(s, file, data) // replay.go
	l.checkImport(s, file, root) // importrule.go
	if n := nodeAt(root, "turn_cap"); n != nil && s.TurnCap <= 0 {
		l.errorf(file, n.Line, n.Column, "turn_cap is %d: want a positive number (leave it out for the default, 8)", s.TurnCap)
	}
	if line := topLevelLine(data, "concurrency:"); line > 0 && s.Concurrency < 1 {
		l.errorf(file, line, 0, "concurrency is %d: want a positive number (leave it out for no bound)", s.Concurrency)
	}
	if line := topLevelLine(data, "concurrency:"); s.Serial && s.Concurrency > 1 {
		l.errorf(file, line, 0, "concurrency is %d but serial is true: serial runs one attempt at a time; leave one of them out", s.Concurrency)
	}
	if s.JudgeAsks < 0 {
		l.errorf(file, lineOf(data, "judge_asks:"), 0, "judge_asks is %d: want a positive number", s.JudgeAsks)
	}
	if seq := nodeAt(root, "preflight"); seq != nil && seq.Kind == yaml.SequenceNode {
		for i, n := range seq.Content {
			if i < len(s.Preflight) {
				s.Preflight[i].Line = n.Line
			}
		}
	}
	if seq := nodeAt(root, "read_only_tools"); seq != nil && seq.Kind == yaml.SequenceNode {
		for _, n := range seq.Content {
			s.ReadOnlyLines = append(s.ReadOnlyLines, n.Line)
		}
	}
	for i := range s.Preflight {
		p := &s.Preflight[i]
		line := p.Line
		if line == 0 {
			line = lineOf(data, "preflight:")
		}
		what := fmt.Sprintf("preflight check %d", i+1)
		at := func(format string, args ...any) {
			l.errorf(file, line, 0, "%s: %s", what, fmt.Sprintf(format, args...))
		}
		switch {
		case p.Tool == "" && len(p.Command) == 0:
			l.errorf(file, line, 0, "%s has no tool: want tool (with args) or command", what)
		case p.Tool != "" && len(p.Command) > 0:
			at("want tool or command, not both")
		case len(p.Command) > 0 && len(p.Args) > 0:
			at("a command takes no args (put them in the command)")
		}
		if len(p.Expect) == 0 && !p.TextCheck.Checks() {
			l.errorf(file, line, 0, "%s (%s) checks nothing: want expect: {PATH: VALUE}, contains: TEXT, matches: REGEXP or figures: [...]", what, p.What())
		}
		p.TextCheck.compile(at)
	}
}

// figureValues reports figures written without a value: a zero would
// otherwise be expected silently.
func (l *loader) figureValues(c *Case, n *yaml.Node) {
	figs := mapValue(n, "figures")
	if figs == nil || figs.Kind != yaml.SequenceNode {
		return
	}
	for i, f := range figs.Content {
		if f.Kind == yaml.MappingNode && mapValue(f, "value") == nil {
			l.errorf(c.File, f.Line, f.Column, "case %s: figure %d has no value: want value: <number>", c.ID, i+1)
		}
	}
}

// rootNode returns the top mapping of a YAML file (nil when it has none).
func rootNode(data []byte) *yaml.Node {
	var root yaml.Node
	if err := yaml.Load(data, &root); err != nil {
		return nil
	}
	n := &root
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	return n
}

// nodeAt returns the value at the path of keys under n, or nil when n is
// nil or the path is absent.
func nodeAt(n *yaml.Node, keys ...string) *yaml.Node {
	for _, k := range keys {
		if n == nil {
			return nil
		}
		n = mapValue(n, k)
	}
	return n
}

func mapValue(n *yaml.Node, key string) *yaml.Node {
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// topLevelLine is the line of data that starts, unindented, with prefix
// (0 when none does).
func topLevelLine(data []byte, prefix string) int {
	for i, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, prefix) {
			return i + 1
		}
	}
	return 0
}

func lineOf(data []byte, prefix string) int {
	for i, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), prefix) {
			return i + 1
		}
	}
	return 0
}

// checkFigures checks the kind and tolerance of a case's figures.
func checkFigures(c *Case, at func(string, ...any)) {
	for i, f := range c.Figures {
		if math.IsInf(f.Value, 0) || math.IsNaN(f.Value) {
			at("figure %d: value %v: want a finite number (an infinite one passes every answer, NaN none)", i+1, f.Value)
		}
		switch f.Kind {
		case "", Money, Percent, Count:
		default:
			at("figure %d: kind %q: want money, percent or count", i+1, f.Kind)
		}
		if f.Kind == Count && f.Tolerance.Set && (f.Tolerance.Relative != 0 || f.Tolerance.Absolute != 0) {
			at("figure %d: a count is compared exactly and takes no tolerance", i+1)
		}
	}
}

// checkArgRules checks a case's argument rules and its key's calls.
func checkArgRules(c *Case, at func(string, ...any)) {
	for i, a := range c.Args {
		if a.Tool == "" || a.Arg == "" {
			at("argument rule %d: want tool and arg", i+1)
		}
		if a.Equals == nil && a.Min == nil && a.Max == nil {
			at("argument rule %d (%s.%s): want equals, min or max", i+1, a.Tool, a.Arg)
		}
		for _, b := range []*float64{a.Min, a.Max} {
			if b != nil && (math.IsInf(*b, 0) || math.IsNaN(*b)) {
				at("argument rule %d (%s.%s): bound %v: want a finite number", i+1, a.Tool, a.Arg, *b)
			}
		}
		if a.Min != nil && a.Max != nil && *a.Min > *a.Max {
			at("argument rule %d (%s.%s): min %v is above max %v: no value passes", i+1, a.Tool, a.Arg, *a.Min, *a.Max)
		}
	}
	for i, k := range c.Key.Calls {
		if k.Tool == "" {
			at("key call %d has no tool", i+1)
		}
	}
}

// checkMode checks a case's mode against what it asserts.
func checkMode(c *Case, at func(string, ...any)) {
	switch c.Mode {
	case "", ModeAgent:
	case ModeToolCall:
		if len(c.ExpectTools) == 0 {
			at("a tool-call case needs expect_tools: the tools its first call may name")
		}
		if len(c.Figures) > 0 || c.Decline || c.NoInventedFigures {
			at("a tool-call case asserts its first tool call only: figures, decline and no_invented_figures need mode agent")
		}
	default:
		at("mode %q: want agent or tool-call", c.Mode)
	}
}

// check validates the cases against each other and themselves.
func (l *loader) check(s *Suite) {
	seen := map[string]*Case{}
	for _, c := range s.Cases {
		at := func(format string, args ...any) {
			l.errorf(c.File, c.Line, 0, "case %s: "+format, append([]any{c.ID}, args...)...)
		}
		if c.ID == "" {
			l.errorf(c.File, c.Line, 0, "a case has no id: want id: group/slug")
			continue
		}
		if prev, dup := seen[c.ID]; dup {
			at("duplicate id: first defined at %s:%d", prev.File, prev.Line)
		}
		seen[c.ID] = c
		if c.Group == "" {
			if g, rest, ok := strings.Cut(c.ID, "/"); ok {
				// An id of the form <dataset>/<group>/<slug> (pr/get_x/now):
				// the dataset prefix is not the group.
				if g2, _, ok2 := strings.Cut(rest, "/"); ok2 && g == s.DatasetOf(c) {
					g = g2
				}
				c.Group = g
			}
			if c.Group == "" {
				at("no group: want group: NAME, or an id of the form group/slug")
			}
		}
		if strings.TrimSpace(c.Prompt) == "" {
			at("no prompt: want prompt: the question as the model is asked it")
		}
		if c.Attempts < 0 {
			at("attempts is %d: want a positive number", c.Attempts)
		}
		checkVerified(c, at)
		checkFigures(c, at)
		checkArgRules(c, at)
		checkMode(c, at)
		if c.Mode != ModeToolCall && (len(c.ExpectTools) > 0 || len(c.ExpectArgs) > 0) {
			at("expect_tools and expect_args go with mode: tool-call")
		}
		checkJudge(c, at, func(line int, format string, args ...any) {
			l.errorf(c.File, line, 0, "case %s: "+format, append([]any{c.ID}, args...)...)
		})
		if len(c.Tools.Required)+len(c.Tools.Accepted)+len(c.Tools.Forbidden)+len(c.Args)+len(c.Figures)+len(c.ExpectTools)+c.extraChecks() == 0 && !c.NoInventedFigures && !c.Decline && c.Answer == nil && !c.JudgedOnly() {
			at("declares no check: want tools, args, figures, answer, no_invented_figures or decline (or a judge rubric with graded_by: judge)")
		}
		if len(c.Figures) > 0 && c.Decline {
			at("both expects figures and expects a decline: want one or the other")
		}
	}
	l.checkToolFilters(s)
	l.checkToolChoices(s)
	l.checkCaseElicitations(s)
	l.checkCaseSlices(s)
	l.expectedErrors(s)
	l.errs = append(l.errs, checkActions(s)...)
}

// expectedErrors checks each case's expected_errors and adds those of an
// action case to its action's, where its score reads them.
func (l *loader) expectedErrors(s *Suite) {
	for _, c := range s.Cases {
		for i, t := range c.ExpectedErrors {
			if strings.TrimSpace(t) == "" {
				l.errorf(c.File, c.Line, 0, "case %s: expected_errors %d is empty: want a tool name", c.ID, i+1)
			}
		}
		if c.IsToolCall() && len(c.ExpectedErrors) > 0 {
			l.errorf(c.File, c.Line, 0, "case %s: a tool-call case sends no call to the server, so no tool can fail: expected_errors needs mode agent", c.ID)
		}
		if c.Action != nil && len(c.ExpectedErrors) > 0 {
			c.Action.ExpectedErrors = append(c.Action.ExpectedErrors, c.ExpectedErrors...)
		}
	}
}

// caseFileShape reports whether a further file of a suite folder is a
// file of cases: a mapping with a cases key. Otherwise it says, at the
// file's first line of content, which files a suite folder reads.
func (l *loader) caseFileShape(file string, data []byte) bool {
	var root yaml.Node
	if err := yaml.Load(data, &root); err != nil {
		l.yamlErr(file, err)
		return false
	}
	n := &root
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	if n.Kind == yaml.MappingNode && mapValue(n, "cases") != nil {
		return true
	}
	line := n.Line
	if line == 0 {
		line = 1
	}
	what := "has no cases: key"
	if n.Kind != yaml.MappingNode {
		what = "is not a mapping"
	}
	l.errorf(file, line, 0, "not a file of cases (it %s): a suite folder reads suite.yaml (settings and cases) and every other .yaml or .yml file in it as a file of cases (cases: [...]); move other YAML files out of the folder", what)
	return false
}

// toolRefs returns every tool name the suite's cases and preflight name,
// with where each is named.
func (s *Suite) toolRefs() []toolRef {
	var refs []toolRef
	for _, p := range s.Preflight {
		if p.Tool != "" { // else a command
			refs = append(refs, toolRef{p.Tool, s.Path, p.Line, "preflight"})
		}
	}
	for _, c := range s.Cases {
		add := func(name, what string) {
			refs = append(refs, toolRef{name, c.File, c.Line, "case " + c.ID + ": " + what})
		}
		for _, t := range c.Tools.Required {
			add(t, "tools.required")
		}
		for _, t := range c.Tools.Accepted {
			add(t, "tools.accepted")
		}
		for _, t := range c.Tools.Forbidden {
			add(t, "tools.forbidden")
		}
		for _, a := range c.Args {
			add(a.Tool, "args")
		}
		for _, k := range c.Key.Calls {
			add(k.Tool, "key")
		}
		for _, t := range c.ExpectTools {
			add(t, "expect_tools")
		}
		for _, t := range c.ExpectedErrors {
			add(t, "expected_errors")
		}
		for _, t := range c.Turns {
			if t.When != nil && t.When.Called != "" {
				refs = append(refs, toolRef{t.When.Called, c.File, t.Line, "case " + c.ID + ": turns when.called"})
			}
		}
	}
	for i, t := range s.ReadOnlyTools {
		line := 0
		if i < len(s.ReadOnlyLines) {
			line = s.ReadOnlyLines[i]
		}
		refs = append(refs, toolRef{t, s.Path, line, "read_only_tools"})
	}
	return refs
}

type toolRef struct {
	name, file string
	line       int
	where      string
}

// CheckTools checks every tool the suite names against the tools a target
// lists (shown or not), returning located errors for unknown ones.
func (s *Suite) CheckTools(known []string) error {
	set := map[string]bool{}
	for _, k := range known {
		set[k] = true
	}
	var errs Errors
	for _, r := range s.toolRefs() {
		if !set[r.name] {
			errs = append(errs, &Error{File: r.file, Line: r.line, Msg: fmt.Sprintf("%s: unknown tool %q: the target lists %s", r.where, r.name, strings.Join(known, ", "))})
		}
	}
	errs = append(errs, s.checkFilterRefs(known)...)
	if len(errs) > 0 {
		return errs.sorted()
	}
	return nil
}
