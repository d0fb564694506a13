package suite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// wantLoadError fails the test unless err, from loading a suite, says each
// of want.
func wantLoadError(t *testing.T, err error, want ...string) {
	t.Helper()
	if err == nil {
		t.Fatal("loaded, want an error")
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error\n%v\ndoes not contain %q", err, w)
		}
	}
}

const good = `name: demo
target: builtin:household
system_prompt: Answer from the tools.
attempts: 2
tolerances: {money: "1%", percent: "0.1"}
cases:
  - id: single-tool/net-worth
    prompt: What's our net worth?
    tools: {accepted: [get_net_worth, get_accounts]}
    figures:
      - {value: 2394755, currency: SGD}
  - id: dates/march
    prompt: Net worth at the end of March 2026?
    tools: {required: [get_net_worth_history]}
    args: [{tool: get_net_worth_history, arg: months, min: 7}]
    figures:
      - {value: 2261924, currency: SGD, tolerance: "0.25%"}
`

func TestLoadGood(t *testing.T) {
	dir := t.TempDir()
	s, err := Load(write(t, dir, "suite.yaml", good))
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "demo" || len(s.Cases) != 2 || s.Target.Spec != "builtin:household" {
		t.Fatalf("loaded %+v", s)
	}
	c := s.Case("dates/march")
	if c.Group != "dates" || c.Line != 12 {
		t.Errorf("case group %q line %d, want dates and 12", c.Group, c.Line)
	}
	if tol := s.FigureTolerance(c, c.Figures[0]); tol.Relative != 0.0025 {
		t.Errorf("tolerance %+v, want 0.25%%", tol)
	}
	if tol := s.FigureTolerance(nil, Figure{Kind: Count}); tol.Absolute != 0 || tol.Relative != 0 {
		t.Errorf("count tolerance %+v, want exact", tol)
	}
	if s.Hash == "" || len(s.Hash) != 64 {
		t.Errorf("hash %q", s.Hash)
	}
	if s.AttemptsFor(c) != 2 {
		t.Errorf("attempts %d, want 2", s.AttemptsFor(c))
	}
	if err := s.CheckTools([]string{"get_net_worth", "get_accounts", "get_net_worth_history"}); err != nil {
		t.Errorf("CheckTools: %v", err)
	}
	err = s.CheckTools([]string{"get_net_worth", "get_accounts"})
	if err == nil || !strings.Contains(err.Error(), `suite.yaml:12: case dates/march: tools.required: unknown tool "get_net_worth_history"`) {
		t.Errorf("CheckTools with a missing tool: %v", err)
	}
}

func TestLoadDirectory(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "suite.yaml", "name: split\ntarget: builtin:household\n")
	write(t, dir, "a.yaml", "cases:\n  - id: g/one\n    prompt: one?\n    decline: true\n")
	write(t, dir, "b.yaml", "cases:\n  - id: g/two\n    prompt: two?\n    decline: true\n")
	s, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Cases) != 2 || s.Cases[1].File != filepath.Join(dir, "b.yaml") {
		t.Fatalf("cases %d, second from %s", len(s.Cases), s.Cases[1].File)
	}
}

func TestLoadErrors(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       []string
	}{
		{"unknown field", "name: x\ncases:\n  - id: a/b\n    prompt: p\n    decline: true\n    figurs: []\n", []string{`suite.yaml:6:5: unknown field "figurs" in a case`}},
		{"unknown top field", "name: x\natempts: 3\n", []string{`suite.yaml:2:1: unknown field "atempts" in the suite settings`}},
		{"duplicate id", "name: x\ncases:\n  - id: a/b\n    prompt: p\n    decline: true\n  - id: a/b\n    prompt: q\n    decline: true\n", []string{"suite.yaml:6: case a/b: duplicate id: first defined at", "suite.yaml:3"}},
		{"missing figure value", "name: x\ncases:\n  - id: a/b\n    prompt: p\n    figures:\n      - {currency: SGD}\n", []string{"suite.yaml:6:9: case a/b: figure 1 has no value"}},
		{"wrong type", "name: x\nattempts: many\n", []string{"suite.yaml:2:11:", "into int"}},
		{"no checks", "name: x\ncases:\n  - id: a/b\n    prompt: p\n", []string{"suite.yaml:3: case a/b: declares no check"}},
		{"no prompt", "name: x\ncases:\n  - id: a/b\n    decline: true\n", []string{"suite.yaml:3: case a/b: no prompt"}},
		{"bad tolerance", "name: x\ncases:\n  - id: a/b\n    prompt: p\n    figures: [{value: 1, tolerance: lots}]\n", []string{"suite.yaml:5:", "tolerance"}},
		{"syntax", "name: x\ncases: [\n", []string{"suite.yaml:"}},
		{"no name", "cases: []\n", []string{"suite.yaml:1: the suite has no name"}},
		{"empty", "\n", []string{"file is empty"}},
		{"bad kind", "name: x\ncases:\n  - id: a/b\n    prompt: p\n    figures: [{value: 1, kind: money-ish}]\n", []string{`kind "money-ish"`}},
		{"invalid utf8", "name: x\n\xff\n", []string{"suite.yaml:2: not valid UTF-8"}},
		{"several at once", "name: x\ncases:\n  - id: a/b\n    prompt: p\n  - id: c/d\n    decline: true\n", []string{"suite.yaml:3: case a/b: declares no check", "suite.yaml:5: case c/d: no prompt"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			_, err := Load(write(t, dir, "suite.yaml", tc.body))
			wantLoadError(t, err, tc.want...)
		})
	}
}

func TestTargetMapping(t *testing.T) {
	dir := t.TempDir()
	s, err := Load(write(t, dir, "s.yaml", "name: x\ntarget:\n  spec: stdio:server --flag\n  env: {TOKEN: \"${MY_TOKEN}\"}\n  dir: work\ncases:\n  - id: a/b\n    prompt: p\n    decline: true\n"))
	if err != nil {
		t.Fatal(err)
	}
	if s.Target.Spec != "stdio:server --flag" || s.Target.Env["TOKEN"] != "${MY_TOKEN}" || s.Target.Dir != "work" {
		t.Errorf("target %+v", s.Target)
	}
}

func TestTolerance(t *testing.T) {
	for _, tc := range []struct {
		tol       string
		got, want float64
		ok        bool
	}{
		{"1%", 2394755 * 1.0099, 2394755, true},
		{"1%", 2394755 * 1.0101, 2394755, false},
		{"0.25%", 2271631.60, 2261924, false},
		{"0.1", 17.25, 17.2, true},
		{"0.1", 17.31, 17.2, false},
		{"0", 450, 450, true},
		{"0", 451, 450, false},
	} {
		tol, err := ParseTolerance(tc.tol)
		if err != nil {
			t.Fatal(err)
		}
		if got := tol.Within(tc.got, tc.want); got != tc.ok {
			t.Errorf("%s.Within(%v, %v) = %v, want %v", tc.tol, tc.got, tc.want, got, tc.ok)
		}
	}
	for _, bad := range []string{"", "x", "-1", "-1%", "%"} {
		if _, err := ParseTolerance(bad); err == nil {
			t.Errorf("ParseTolerance(%q) succeeded", bad)
		}
	}
}

func TestDatasetPrefixIsNotTheGroup(t *testing.T) {
	dir := t.TempDir()
	s, err := Load(write(t, dir, "s.yaml", "name: x\ndataset: pr\ncases:\n  - id: pr/get_net_worth/now\n    mode: tool-call\n    prompt: p\n    expect_tools: [get_net_worth]\n  - id: merge/ask/then\n    dataset: merge\n    prompt: q\n    decline: true\n  - id: other/slug\n    prompt: r\n    decline: true\n"))
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]string{"pr/get_net_worth/now": "get_net_worth", "merge/ask/then": "ask", "other/slug": "other"} {
		if g := s.Case(id).Group; g != want {
			t.Errorf("%s: group %q, want %q", id, g, want)
		}
	}
}

func TestPathOfAFileNamedSuiteYAML(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "suite.yaml", good)
	write(t, dir, "script.yaml", "a/b:\n  - say: hi\n")
	s, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if s.Path != p {
		t.Errorf("Path = %q, want the file %q", s.Path, p)
	}
	if _, err := Load(s.Path); err != nil {
		t.Errorf("loading the suite again from its Path: %v", err)
	}
}
