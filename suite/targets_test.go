package suite

import (
	"slices"
	"strings"
	"testing"
)

const targetsSuite = `name: several
targets:
  household: builtin:household
  memory:
    spec: stdio:./memory -memory /tmp/m.json
    env: {TOKEN: "${MEMORY_TOKEN}"}
    connect_timeout: 45s
  docs: {from: mcp.json, name: docs}
cases:
  - id: g/a
    prompt: What is our net worth?
    tools: {required: [household/get_net_worth]}
    key: {calls: [{tool: household/get_net_worth}]}
`

// TestTargetsLoad reads several servers, each in one of the forms target:
// takes.
func TestTargetsLoad(t *testing.T) {
	s, err := loadString(targetsSuite)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.TargetNames(); !slices.Equal(got, []string{"docs", "household", "memory"}) {
		t.Errorf("names %v", got)
	}
	if m := s.Targets["memory"]; m.Spec != "stdio:./memory -memory /tmp/m.json" || m.Env["TOKEN"] != "${MEMORY_TOKEN}" || m.ConnectTimeout.Seconds() != 45 {
		t.Errorf("memory %+v", m)
	}
	if d := s.Targets["docs"]; d.From != "mcp.json" || d.Name != "docs" {
		t.Errorf("docs %+v", d)
	}
	if s.Targets["household"].Spec != "builtin:household" {
		t.Errorf("household %+v", s.Targets["household"])
	}
}

// TestTargetsRefused refuses, at the line it is written on, each target
// and targets mistake.
func TestTargetsRefused(t *testing.T) {
	for _, tc := range []struct {
		name, from, to, want string
	}{
		{"both", "targets:\n", "target: builtin:household\ntargets:\n", "s.yaml:3: target and targets are both given"},
		{"both from", "targets:\n", "target: {from: x.json}\ntargets:\n", "s.yaml:3: target and targets are both given"},
		{"capital", "  memory:\n", "  Memory:\n", `s.yaml:4: targets: "Memory": a server's name is lowercase letters, digits, _ and - only`},
		{"dot", "  memory:\n", "  mem.ory:\n", `s.yaml:4: targets: "mem.ory": a server's name`},
		{"separator", "  memory:\n", "  mem__ory:\n", `s.yaml:4: targets: "mem__ory": a server's name may not hold __`},
		{"no spec", "  household: builtin:household\n", "  household: {connect_timeout: 5s}\n", "s.yaml:3: targets: household names no server"},
		{"from and spec", "{from: mcp.json, name: docs}", "{from: mcp.json, spec: builtin:x}", "s.yaml:8: targets: docs: from mcp.json gives the server's command"},
		{"name without from", "{from: mcp.json, name: docs}", "{spec: builtin:x, name: docs}", `s.yaml:8: targets: docs: name "docs" goes with from`},
		{"timeout", "connect_timeout: 45s", "connect_timeout: -1s", "s.yaml:7:22: targets: memory: connect_timeout -1s"},
		{"empty", "targets:\n  household: builtin:household\n", "targets: {}\n  household: builtin:household\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := strings.Replace(targetsSuite, tc.from, tc.to, 1)
			if body == targetsSuite {
				t.Fatal("the test changed nothing")
			}
			_, err := loadString(body)
			if tc.want == "" {
				if err == nil {
					t.Fatal("loaded")
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v\nwant %s", err, tc.want)
			}
		})
	}
}

// served are two servers that both list echo, and one tool each of their
// own.
var served = []ServedTool{
	{Name: "a__echo", Server: "a", Tool: "echo"},
	{Name: "get_a", Server: "a", Tool: "get_a"},
	{Name: "b__echo", Server: "b", Tool: "echo"},
	{Name: "get_b", Server: "b", Tool: "get_b"},
}

// TestResolveTools names every tool as the model is shown it, leaves the
// suite it was given as it was, and expands a server's pattern to that
// server's tools.
func TestResolveTools(t *testing.T) {
	s, err := loadString(`name: r
targets: {a: builtin:a, b: builtin:b}
read_only_tools: [b/echo]
tools: {include: ["a/*", get_b, b/echo]}
preflight:
  - {tool: a/get_a, expect: {x: 1}}
cases:
  - id: g/c
    prompt: Echo it.
    tools: {required: [b/echo], accepted: [a/get_a], forbidden: [a/echo]}
    args: [{tool: b/echo, arg: text, equals: hi}]
    key: {calls: [{tool: b/echo, args: {text: hi}}, {tool: get_b}]}
    tool_choice: {tool: b/echo}
`)
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.ResolveTools(served)
	if err != nil {
		t.Fatal(err)
	}
	c := r.Cases[0]
	for what, pair := range map[string][2]string{
		"required":  {c.Tools.Required[0], "b__echo"},
		"accepted":  {c.Tools.Accepted[0], "get_a"},
		"forbidden": {c.Tools.Forbidden[0], "a__echo"},
		"args":      {c.Args[0].Tool, "b__echo"},
		"key 1":     {c.Key.Calls[0].Tool, "b__echo"},
		"key 2":     {c.Key.Calls[1].Tool, "get_b"},
		"choice":    {c.ToolChoice.Tool, "b__echo"},
		"read-only": {r.ReadOnlyTools[0], "b__echo"},
		"preflight": {r.Preflight[0].Tool, "get_a"},
	} {
		if pair[0] != pair[1] {
			t.Errorf("%s: %s, want %s", what, pair[0], pair[1])
		}
	}
	if got := r.Tools.Include; !slices.Equal(got, []string{"a__echo", "get_a", "get_b", "b__echo"}) {
		t.Errorf("include %v", got)
	}
	if s.Cases[0].Key.Calls[0].Tool != "b/echo" || s.Cases[0].Tools.Required[0] != "b/echo" || s.ReadOnlyTools[0] != "b/echo" || s.Tools.Include[0] != "a/*" {
		t.Error("resolving changed the suite it was given")
	}
}

// TestResolveToolsRefuses reports, at the case's line, a bare name both
// servers list and a server that is not one of them; a name that merely
// matches nothing is left for CheckTools.
func TestResolveToolsRefuses(t *testing.T) {
	s, err := loadString(`name: r
targets: {a: builtin:a, b: builtin:b}
cases:
  - id: g/c
    prompt: Echo it.
    tools: {required: [echo], accepted: [c/echo, a/missing]}
`)
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.ResolveTools(served)
	for _, want := range []string{
		"s.yaml:4: tool echo is served by a and b: write which, as a/echo or b/echo",
		"s.yaml:4: tool c/echo names server c, which is not one of the targets (a, b)",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("err = %v\nwant %s", err, want)
		}
	}
	if err := r.CheckTools([]string{"a__echo", "get_a", "b__echo", "get_b"}); err == nil || !strings.Contains(err.Error(), `unknown tool "a/missing"`) {
		t.Errorf("CheckTools: %v", err)
	}
}

// TestTargetsFilterNames accepts, when the suite loads, a bare name that
// a server's pattern may show and a SERVER/TOOL a bare pattern may show,
// and still refuses a name the filters hide however it is read.
func TestTargetsFilterNames(t *testing.T) {
	body := `name: f
targets: {home: builtin:household, office: builtin:household}
tools: {include: ["home/*", "get_acc*"], exclude: [home/get_holdings]}
cases:
  - id: g/a
    prompt: What's our net worth?
    tools: {required: [get_net_worth, office/get_accounts]}
    key: {calls: [{tool: get_net_worth}, {tool: office/get_accounts}]}
`
	if _, err := loadString(body); err != nil {
		t.Fatal(err)
	}
	_, err := loadString(strings.Replace(body, "office/get_accounts]}\n    key", "home/get_holdings]}\n    key", 1))
	if err == nil || !strings.Contains(err.Error(), "names home/get_holdings, but the tools filter (include/exclude) hides it") {
		t.Errorf("err = %v", err)
	}
}
