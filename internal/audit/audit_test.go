package audit

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpeval/mcpeval/internal/builtin"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/runner"
	"github.com/mcpeval/mcpeval/suite"
	"github.com/mcpeval/mcpeval/target"
)

// live loads an embedded action suite and the tools its target lists.
func live(t *testing.T, name string) (*suite.Suite, []record.Tool) {
	t.Helper()
	s, err := builtin.LoadSuite(name)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(s.Target.Spec, "stdio:") && testing.Short() {
		t.Skipf("suite %s needs its server built and started (%s)", name, s.Target.Spec)
	}
	ins, err := runner.Validate(context.Background(), s, target.Config{Spec: s.Target.Spec, Builtins: builtin.All()})
	if err != nil {
		t.Fatal(err)
	}
	return s, ins.Tools
}

var corpora = []string{"ops", "memory"}

// TestCorpusAudits holds the embedded action corpora to the audits: no
// prompt names its own answer, every key fits the live catalog, and every
// tool and argument is covered or left out with a reason.
func TestCorpusAudits(t *testing.T) {
	for _, name := range corpora {
		t.Run(name, func(t *testing.T) {
			s, tools := live(t, name)
			for _, l := range Leaks(s, tools) {
				t.Errorf("leak: %s", l)
			}
			if err := Key(s, tools); err != nil {
				t.Errorf("key:\n%v", err)
			}
			for _, g := range CoverageOf(s, tools).Gaps() {
				t.Errorf("coverage: %s", g)
			}
		})
	}
}

// The catalog of the planted cases: a tool with a camelCase, a snake_case
// and a nested argument, another tool, and a destructive one.
var plantedTools = []record.Tool{
	{Name: "create_user", InputSchema: json.RawMessage(`{"type":"object","properties":{
		"displayName":{"type":"string"},"size_gb":{"type":"integer"},"role":{"type":"string","enum":["viewer","admin"]},
		"groups":{"type":"array","items":{"type":"object","properties":{"groupName":{"type":"string"}}}}},
		"required":["displayName"],"additionalProperties":false}`)},
	{Name: "list_users", ReadOnly: true, InputSchema: json.RawMessage(`{"type":"object"}`)},
	{Name: "delete_user", Destructive: true, InputSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}}}`)},
}

func plantedSuite(t *testing.T, cases string) *suite.Suite {
	t.Helper()
	body := "name: planted\ntarget: builtin:none\ncases:\n" + cases
	s, err := suite.LoadFS(fstest.MapFS{"suite.yaml": {Data: []byte(body)}}, "suite.yaml", "planted.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func writeCase(id, prompt string) string {
	return fmt.Sprintf(`  - id: %s
    prompt: %q
    action:
      kind: write
      steps:
        - tool: create_user
          args: {displayName: {authored: Dana}}
`, id, prompt)
}

// TestLeaksPlanted plants each kind of leak in a prompt and checks the
// audit catches it, naming what leaked; ordinary prose passes, and a
// written-down exception is allowed.
func TestLeaksPlanted(t *testing.T) {
	planted := map[string]string{
		"own-tool":         "Please create_user for Dana.",
		"own-tool-phrase":  "Create user Dana, please.",
		"catalog-tool":     "Do what list_users would, then add Dana.",
		"catalog-phrase":   "List users first, then add Dana.",
		"arg-camel":        "Set the displayName to Dana.",
		"arg-camel-phrase": "Her display name is Dana.",
		"arg-snake-phrase": "Give her 5 as the size GB.",
		"arg-snake":        "Give her size_gb 5.",
		"arg-nested":       "Put her in the group name ops.",
		"arg-single":       "Make her role viewer.",
	}
	wantWhat := map[string]string{
		"own-tool":         "its tool create_user",
		"own-tool-phrase":  "its tool create_user",
		"catalog-tool":     "the tool list_users",
		"catalog-phrase":   "the tool list_users",
		"arg-camel":        "the argument displayName of create_user",
		"arg-camel-phrase": "the argument displayName of create_user",
		"arg-snake-phrase": "the argument size_gb of create_user",
		"arg-snake":        "the argument size_gb of create_user",
		"arg-nested":       "the argument groupName of create_user",
		"arg-single":       "the argument role of create_user",
	}
	var cases strings.Builder
	for id, p := range planted {
		cases.WriteString(writeCase("leak/"+id, p))
	}
	clean := []string{
		"Give Dana Reyes a login; she should only be able to look, not touch.",
		"Dana renamed her usernames and regrouped her roles twice.", // words that contain the names are not the names
		"Create a user for Dana named in the ticket {{token}}.",     // "create a user" is not "create user"
	}
	for i, p := range clean {
		cases.WriteString(writeCase(fmt.Sprintf("clean/%d", i), p))
	}
	cases.WriteString(`  - id: excused/role
    prompt: Make her role viewer.
    action:
      kind: write
      leak_exceptions: [{word: role, why: "the user's own word; no other says it"}]
      steps:
        - tool: create_user
          args: {displayName: {authored: Dana}}
`)
	s := plantedSuite(t, cases.String())
	got := map[string][]string{}
	for _, l := range Leaks(s, plantedTools) {
		got[l.Case] = append(got[l.Case], l.What)
		if l.File != "planted.yaml" || l.Line == 0 {
			t.Errorf("leak %s is not located: %s", l.Case, l)
		}
	}
	for id, what := range wantWhat {
		found := false
		for _, w := range got["leak/"+id] {
			found = found || w == what
		}
		if !found {
			t.Errorf("planted leak %s (%q) not caught as %s; found %v", id, planted[id], what, got["leak/"+id])
		}
	}
	for i := range clean {
		if g := got[fmt.Sprintf("clean/%d", i)]; len(g) > 0 {
			t.Errorf("ordinary prose %q flagged: %v", clean[i], g)
		}
	}
	if g := got["excused/role"]; len(g) > 0 {
		t.Errorf("an excused word was flagged: %v", g)
	}
}

func TestPhrase(t *testing.T) {
	for in, want := range map[string]string{
		"displayName": "display name", "display_name": "display name", "size_gb": "size gb",
		"entityNames": "entity names", "userID": "user id", "get-container-logs": "get container logs", "HTTPServer": "http server",
	} {
		if got := Phrase(in); got != want {
			t.Errorf("Phrase(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestKeyPlanted plants key mistakes and checks each is reported, located.
func TestKeyPlanted(t *testing.T) {
	s := plantedSuite(t, `  - id: k/unknown-tool
    prompt: Do it.
    action:
      kind: write
      steps:
        - tool: make_user
  - id: k/bad-args
    prompt: Make Dana an owner with 5.
    action:
      kind: write
      steps:
        - tool: create_user
          args:
            displayName: {literal: Dana}
            colour: {authored: red}
        - tool: create_user
          args:
            displayName: {literal: Dana}
            role: {literal: owner}
        - tool: create_user
          args:
            size_gb: {literal: 5}
  - id: k/kinds
    prompt: Read and delete.
    action:
      kind: read
      expected_errors: [no_such_tool]
      steps:
        - tool: create_user
          args: {displayName: {authored: x}}
        - tool: delete_user
  - id: k/no-approval
    prompt: Delete it for good.
    action:
      kind: destructive
      steps:
        - tool: delete_user
  - id: k/write-destructive
    prompt: Delete it.
    action:
      kind: write
      steps:
        - tool: delete_user
  - id: k/approved-in-a-turn
    prompt: Delete it for good, once I say so.
    turns: [{when: {asked: true}, say: Yes., approves: true}]
    key: {asks: [Shall I?]}
    action:
      kind: destructive
      steps:
        - tool: delete_user
`)
	err := Key(s, plantedTools)
	if err == nil {
		t.Fatal("no problem found")
	}
	es, ok := err.(suite.Errors)
	if !ok {
		t.Fatalf("error %T, want suite.Errors", err)
	}
	text := err.Error()
	for _, want := range []string{
		`case k/unknown-tool: step 1: unknown tool "make_user"`,
		"step 1: argument colour is not in the input schema of create_user",
		`step 2: the call a correct agent makes, create_user {"displayName":"Dana","role":"owner"}, fails the input schema`,
		"step 3: the call a correct agent makes, create_user {\"size_gb\":5}, fails the input schema",
		`expected_errors: unknown tool "no_such_tool"`,
		"step 1: a read case only reads, but create_user is not read-only",
		"case k/no-approval: step 1: delete_user is destructive but takes no confirm argument",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("key audit does not report %q:\n%s", want, text)
		}
	}
	// A destructive tool with no approval argument is a write like any
	// other (a file server's write_file): nothing to say about that case.
	if strings.Contains(text, "k/write-destructive") {
		t.Errorf("key audit faults a write case on a destructive tool that takes no approval:\n%s", text)
	}
	// The user's turn that approves gives the approval the tool cannot
	// take: the case can be scored.
	if strings.Contains(text, "k/approved-in-a-turn") {
		t.Errorf("key audit faults a destructive case approved in the user's turn:\n%s", text)
	}
	for _, e := range es {
		if e.File != "planted.yaml" || e.Line == 0 {
			t.Errorf("not located: %s", e)
		}
	}
}

// TestCoveragePlanted checks that a tool or argument no case covers is a
// gap, that a reason makes it none, and that a stale reason is a gap too.
func TestCoveragePlanted(t *testing.T) {
	s := plantedSuite(t, writeCase("c/one", "Add Dana."))
	gaps := strings.Join(CoverageOf(s, plantedTools).Gaps(), "\n")
	for _, want := range []string{"tool list_users: no case has a step on it", "tool create_user: no case gives argument size_gb", "tool create_user: no case gives argument groups.*.groupName"} {
		if !strings.Contains(gaps, want) {
			t.Errorf("gaps lack %q:\n%s", want, gaps)
		}
	}
	if strings.Contains(gaps, "displayName") {
		t.Errorf("a covered argument is a gap:\n%s", gaps)
	}
	s.Actions = &suite.ActionSettings{Uncovered: []suite.Uncovered{
		{Tool: "list_users", Why: "read elsewhere"},
		{Tool: "delete_user", Why: "never"},
		{Tool: "create_user", Arg: "size_gb", Why: "sizes are fixed"},
		{Tool: "create_user", Arg: "role", Why: "defaults"},
		{Tool: "create_user", Arg: "groups.*.groupName", Why: "no groups"},
		{Tool: "create_user", Arg: "displayName", Why: "stale: a case covers it"},
	}}
	gaps = strings.Join(CoverageOf(s, plantedTools).Gaps(), "\n")
	if gaps != "create_user displayName is listed as uncovered, but c/one covers it" {
		t.Errorf("gaps:\n%s", gaps)
	}
}
