package suite

import (
	"strings"
	"testing"
	"testing/fstest"
)

const answerGood = `name: search
tools: {exclude: [write_*, delete_file]}
cases:
  - id: search/csv
    prompt: Which CSV files are there?
    tools: {required: [search_files], include: [search_*, read_file]}
    answer:
      contains: [data.csv]
      any_of: [sales.csv, "sales 2026.csv"]
      not_contains: [no CSV files]
      matches: '\b\d+ files?\b'
  - id: search/missing
    prompt: Open notes.txt.
    tools: {required: [read_file]}
    expected_errors: [read_file]
    answer: {any_of: [not found, does not exist], case_sensitive: true}
`

func TestLoadAnswerAndTools(t *testing.T) {
	s, err := loadString(answerGood)
	if err != nil {
		t.Fatal(err)
	}
	c := s.Case("search/csv")
	a := c.Answer
	if a == nil || len(a.Contains) != 1 || len(a.AnyOf) != 2 || len(a.NotContains) != 1 || a.Matches != `\b\d+ files?\b` || a.Line != 7 {
		t.Fatalf("answer %+v", a)
	}
	if c.Tools.Include[0] != "search_*" || len(s.Tools.Exclude) != 2 {
		t.Errorf("filters: case %+v, suite %+v", c.Tools, s.Tools)
	}
	m := s.Case("search/missing")
	if !m.Answer.CaseSensitive || len(m.ExpectedErrors) != 1 {
		t.Errorf("case %+v", m)
	}
	for _, tc := range []struct {
		c    *Case
		tool string
		want bool
	}{
		{nil, "search_files", true},
		{nil, "write_file", false},
		{nil, "delete_file", false},
		{nil, "move_file", true},
		{c, "search_files", true},
		{c, "read_file", true},
		{c, "move_file", false}, // not in the case's include
		{m, "move_file", true},
		{m, "write_file", false}, // the suite's exclude holds for every case
	} {
		if got := s.Shows(tc.c, tc.tool); got != tc.want {
			id := "suite"
			if tc.c != nil {
				id = tc.c.ID
			}
			t.Errorf("%s shows %s = %v, want %v", id, tc.tool, got, tc.want)
		}
	}
	known := []string{"search_files", "read_file", "write_file", "delete_file", "move_file"}
	if err := s.CheckTools(known); err != nil {
		t.Errorf("CheckTools: %v", err)
	}
	err = s.CheckTools([]string{"search_files", "read_file", "delete_file"})
	if err == nil || !strings.Contains(err.Error(), `tools.exclude: "write_*" matches no tool`) {
		t.Errorf("CheckTools with no write_ tool: %v", err)
	}
}

func TestGlobMatch(t *testing.T) {
	for _, tc := range []struct {
		pattern, name string
		want          bool
	}{
		{"read_file", "read_file", true},
		{"read_file", "read_files", false},
		{"read_*", "read_file", true},
		{"read_*", "read_", true},
		{"read_*", "write_file", false},
		{"*_file", "read_file", true},
		{"*_file", "read_files", false},
		{"*", "anything", true},
		{"a*b*c", "axxbyyc", true},
		{"a*b*c", "axxcyyb", false},
		{"a*a", "a", false},
		{"get.?", "getx", false}, // only * is special
		{"get.?", "get.?", true},
	} {
		if got := GlobMatch(tc.pattern, tc.name); got != tc.want {
			t.Errorf("GlobMatch(%q, %q) = %v, want %v", tc.pattern, tc.name, got, tc.want)
		}
	}
}

func TestLoadAnswerAndToolsErrors(t *testing.T) {
	head := "name: x\ncases:\n  - id: a/b\n    prompt: p\n"
	for _, tc := range []struct {
		name, body string
		want       []string
	}{
		{"unknown answer key", head + "    answer: {contain: [x]}\n", []string{`s.yaml:5:`, `unknown field "contain" in answer (want contains, any_of, not_contains, matches, case_sensitive)`}},
		{"empty list", head + "    answer:\n      contains: []\n", []string{`s.yaml:6: case a/b: answer: contains is empty`}},
		{"empty string", head + "    answer:\n      not_contains:\n        - ok\n        - \"  \"\n", []string{`s.yaml:8: case a/b: answer: not_contains 2 is empty`}},
		{"checks nothing", head + "    answer: {case_sensitive: true}\n", []string{`s.yaml:5: case a/b: answer: checks nothing`}},
		{"bad regexp", head + "    answer:\n      matches: 'files (\\d+'\n", []string{`s.yaml:6: case a/b: answer: matches: bad regular expression: error parsing regexp: missing closing )`}},
		{"empty regexp", head + "    answer: {matches: ''}\n", []string{`s.yaml:5: case a/b: answer: matches is empty`}},
		{"contradiction", head + "    answer: {contains: [Done], not_contains: [done]}\n", []string{`case a/b: answer: "Done" is both in contains and in not_contains`}},
		{"placeholder without fixtures", head + "    answer: {contains: [\"{{token}}\"]}\n", []string{`case a/b: answer: names {{token}}, but only a case with fixtures`}},
		{"unknown tools key", head + "    tools: {includes: [x]}\n", []string{`s.yaml:5:`, `unknown field "includes" in tools (want required, accepted, forbidden, include, exclude)`}},
		{"empty include", head + "    decline: true\n    tools: {include: [\"\"]}\n", []string{`s.yaml:3: case a/b: tools.include 1 is empty`}},
		{"include and exclude", head + "    decline: true\n    tools: {include: [a, b], exclude: [b]}\n", []string{`case a/b: tools: "b" is both included and excluded`}},
		{"suite include and exclude", "name: x\ntools:\n  include: [a]\n  exclude: [a]\n", []string{`s.yaml:2: tools: "a" is both included and excluded`}},
		{"suite unknown tools key", "name: x\ntools: {required: [a]}\n", []string{`s.yaml:2:`, `unknown field "required" in tools (want include, exclude)`}},
		{"required tool hidden", head + "    tools: {required: [read_file], include: [search_*]}\n", []string{`case a/b: tools.required names read_file, but the tools filter (include/exclude) hides it`}},
		{"key tool hidden by suite", "name: x\ntools: {exclude: [write_*]}\ncases:\n  - id: a/b\n    prompt: p\n    decline: true\n    key: {calls: [{tool: write_file}]}\n", []string{`case a/b: key names write_file, but the tools filter`}},
		{"case includes what the suite excludes", "name: x\ntools: {exclude: [write_file]}\ncases:\n  - id: a/b\n    prompt: p\n    decline: true\n    tools: {include: [write_file]}\n", []string{`case a/b: tools.include names write_file, which the suite's tools filter hides`}},
		{"not a mapping", head + "    answer: data.csv\n", []string{`s.yaml:5:13: answer is a mapping: want contains, any_of, not_contains, matches`}},
		{"one value for a list", head + "    answer: {contains: data.csv}\n", []string{"s.yaml:5:24: `data.csv` is one value where a list is wanted: write [data.csv]"}},
		{"tool-call case", head + "    mode: tool-call\n    expect_tools: [x]\n    answer: {contains: [x]}\n", []string{`s.yaml:7: case a/b: answer: a tool-call case asserts its first tool call only`}},
		{"expected errors of a tool-call case", head + "    mode: tool-call\n    expect_tools: [x]\n    expected_errors: [x]\n", []string{`s.yaml:3: case a/b: a tool-call case sends no call to the server`}},
		{"empty expected error", head + "    decline: true\n    expected_errors: [\"\"]\n", []string{`case a/b: expected_errors 1 is empty`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := loadString(tc.body)
			wantLoadError(t, err, tc.want...)
		})
	}
}

// TestAnswerIsACheck checks that a case whose only check is its answer is
// accepted.
func TestAnswerIsACheck(t *testing.T) {
	if _, err := loadString("name: x\ncases:\n  - id: a/b\n    prompt: p\n    answer: {contains: [x]}\n"); err != nil {
		t.Fatal(err)
	}
}

// TestAnswerPlaceholdersOfAnAction checks that an action case's answer
// may name its token and the facts its fixtures define, and no others.
func TestAnswerPlaceholdersOfAnAction(t *testing.T) {
	body := `name: acts
cases:
  - id: read/find
    prompt: Where is {{fact.thing}}?
    answer: {contains: ["{{fact.thing}}", "box-{{token}}"], matches: '{{fact.thing}}\s+is'}
    action:
      kind: read
      fixtures:
        - {tool: make_thing, args: {name: "t-{{token}}"}, facts: {thing: name}}
      steps:
        - tool: find_thing
          args: {name: {fact: thing}}
`
	if _, err := loadString(body); err != nil {
		t.Fatal(err)
	}
	_, err := loadString(strings.Replace(body, `"box-{{token}}"`, `"{{fact.other}}"`, 1))
	if err == nil || !strings.Contains(err.Error(), "case read/find: answer: names {{fact.other}}: want {{token}} or {{fact.NAME}}") {
		t.Fatalf("err %v", err)
	}
}

// TestExpectedErrorsOfAnAction checks that a case-level expected_errors
// on an action case adds to the action's.
func TestExpectedErrorsOfAnAction(t *testing.T) {
	s, err := loadString(`name: acts
cases:
  - id: decline/x
    prompt: Do the impossible.
    expected_errors: [do_it]
    action: {kind: decline, expected_errors: [other]}
`)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Case("decline/x").Action.ExpectedErrors; strings.Join(got, ",") != "other,do_it" {
		t.Errorf("action expected errors %v, want other,do_it", got)
	}
}

// TestNotACaseFile checks that a YAML file of a suite folder that holds no
// cases is an error saying which files a suite folder reads.
func TestNotACaseFile(t *testing.T) {
	for _, tc := range []struct{ name, body, want string }{
		{"settings elsewhere", "# tools\nversion: 3\nservices: {}\n", "s/extra.yaml:2: not a file of cases (it has no cases: key): a suite folder reads suite.yaml (settings and cases) and every other .yaml or .yml file in it as a file of cases"},
		{"a list", "- a\n- b\n", "s/extra.yaml:1: not a file of cases (it is not a mapping)"},
		{"cases and settings", "name: y\ncases: []\n", `s/extra.yaml:1:1: unknown field "name" in a file of cases (want cases: only; settings go in suite.yaml)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := fstest.MapFS{
				"s/suite.yaml": {Data: []byte("name: x\ncases:\n  - {id: a/b, prompt: p, decline: true}\n")},
				"s/extra.yaml": {Data: []byte(tc.body)},
			}
			_, err := LoadFS(fsys, "s", "s")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v\nwant %q", err, tc.want)
			}
		})
	}
	fsys := fstest.MapFS{
		"s/suite.yaml": {Data: []byte("name: x\n")},
		"s/more.yml":   {Data: []byte("cases:\n  - {id: a/b, prompt: p, decline: true}\n")},
	}
	if s, err := LoadFS(fsys, "s", "s"); err != nil || len(s.Cases) != 1 {
		t.Fatalf("a .yml file of cases: %v", err)
	}
}

// TestFigureTolerances checks that only a figure of a kind gets that kind's
// tolerance: a figure of no kind is exact unless it says otherwise.
func TestFigureTolerances(t *testing.T) {
	s, err := loadString(`name: x
tolerances: {money: 2%}
cases:
  - id: a/b
    prompt: p
    figures:
      - {value: 6912}
      - {value: 6912, kind: money}
      - {value: 12.5, kind: percent}
      - {value: 3, kind: count}
      - {value: 6912, tolerance: "10"}
`)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ tol, src string }{{"0", "exact"}, {"2%", "suite"}, {"0.1", "default"}, {"0", "exact"}, {"10", "figure"}}
	got := s.FigureTolerances()
	if len(got) != len(want) {
		t.Fatalf("%d figures, want %d", len(got), len(want))
	}
	for i, w := range want {
		if got[i].Tolerance.String() != w.tol || got[i].Source != w.src || got[i].Case.ID != "a/b" {
			t.Errorf("figure %d: %s from %s, want %s from %s", i+1, got[i].Tolerance, got[i].Source, w.tol, w.src)
		}
	}
	if !s.FigureTolerance(nil, Figure{Value: 6912}).Within(6912, 6912) || s.FigureTolerance(nil, Figure{Value: 6912}).Within(6900, 6912) {
		t.Error("a figure of no kind is not exact")
	}
}
