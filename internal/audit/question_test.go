package audit

import (
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/suite"
)

// questionCases are question cases with planted mistakes, and clean ones.
const questionCases = `  - id: q/names-own-tool
    prompt: Call list_users and tell me how many there are.
    tools: {required: [list_users]}
  - id: q/names-phrase
    prompt: Please list users for me.
    no_invented_figures: true
    key:
      calls: [{tool: list_users}]
  - id: q/names-other-tool
    prompt: Could you create user accounts? No, just count them.
    tools: {accepted: [list_users]}
  - id: q/clean
    prompt: How many people can sign in?
    tools: {required: [list_users]}
    args:
      - {tool: create_user, arg: displayName, equals: Dana}
    key:
      calls: [{tool: create_user, args: {displayName: Dana, role: viewer}}]
  - id: q/bad-key-arg
    prompt: Add Dana.
    no_invented_figures: true
    key:
      calls: [{tool: create_user, args: {displayName: Dana, colour: red}}]
  - id: q/bad-key-value
    prompt: Add Dana as owner.
    no_invented_figures: true
    key:
      calls: [{tool: create_user, args: {displayName: Dana, role: owner}}]
  - id: q/bad-rule
    prompt: Add Dana.
    args:
      - {tool: create_user, arg: full_name, equals: Dana}
  - id: q/unknown-key-tool
    prompt: Add Dana.
    no_invented_figures: true
    key:
      calls: [{tool: make_user}]
`

// TestQuestionLeaks checks that a question case's prompt naming its own
// tool, or another tool, is caught, and that the suite's exceptions apply.
func TestQuestionLeaks(t *testing.T) {
	s := plantedSuite(t, questionCases)
	got := map[string]string{}
	for _, l := range Leaks(s, plantedTools) {
		got[l.Case] += l.What + ";"
	}
	for id, want := range map[string]string{
		"q/names-own-tool":   "its tool list_users;",
		"q/names-phrase":     "its tool list_users;",
		"q/names-other-tool": "the tool create_user;",
	} {
		if got[id] != want {
			t.Errorf("%s: leaks %q, want %q", id, got[id], want)
		}
	}
	if got["q/clean"] != "" {
		t.Errorf("a clean prompt is flagged: %s", got["q/clean"])
	}
	s.Actions = &suite.ActionSettings{LeakExceptions: []suite.LeakException{{Word: "list users", Why: "the product's own menu item"}}}
	for _, l := range Leaks(s, plantedTools) {
		if strings.Contains(l.What, "list_users") {
			t.Errorf("an excused word is flagged: %s", l)
		}
	}
}

// TestQuestionKey checks that a question case's key is held to its tools'
// input schemas, located.
func TestQuestionKey(t *testing.T) {
	s := plantedSuite(t, questionCases)
	err := Key(s, plantedTools)
	if err == nil {
		t.Fatal("no problem found")
	}
	text := err.Error()
	for _, want := range []string{
		"case q/bad-key-arg: key call 1: argument colour is not in the input schema of create_user (it has displayName, groups, role, size_gb)",
		`case q/bad-key-value: key call 1: create_user {"displayName":"Dana","role":"owner"} fails the input schema of create_user`,
		"case q/bad-rule: args: full_name is not an argument of create_user",
		`case q/unknown-key-tool: key call 1: unknown tool "make_user"`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("key audit does not report %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "q/clean") || strings.Contains(text, "q/names") {
		t.Errorf("a sound key is reported:\n%s", text)
	}
	for _, e := range err.(suite.Errors) {
		if e.File != "planted.yaml" || e.Line == 0 {
			t.Errorf("not located: %s", e)
		}
	}
}
