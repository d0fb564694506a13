package audit

import (
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// TestAuditsReadServerNames checks a suite of several servers against
// their tools: a key step written SERVER/TOOL is checked against that
// server's tool (and refused where its arguments do not fit), coverage
// counts it, and an uncovered entry written SERVER/TOOL is honoured.
func TestAuditsReadServerNames(t *testing.T) {
	tools := []record.Tool{
		{Name: "a__create_user", Server: "a", ServerTool: "create_user", InputSchema: json.RawMessage(`{"type":"object","properties":{"displayName":{"type":"string"}},"additionalProperties":false}`)},
		{Name: "b__create_user", Server: "b", ServerTool: "create_user", InputSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"additionalProperties":false}`)},
		{Name: "list_users", Server: "b", ReadOnly: true, InputSchema: json.RawMessage(`{"type":"object"}`)},
	}
	load := func(arg string) *suite.Suite {
		body := `name: two
targets: {a: builtin:a, b: builtin:b}
actions:
  uncovered:
    - {tool: b/create_user, why: the other server's twin is not measured here}
cases:
  - id: w/make
    prompt: Make a user Dana.
    action:
      kind: write
      steps:
        - tool: a/create_user
          args: {` + arg + `: {literal: Dana}}
  - id: r/list
    prompt: Who is there?
    action:
      kind: read
      steps:
        - tool: list_users
`
		s, err := suite.LoadFS(fstest.MapFS{"suite.yaml": {Data: []byte(body)}}, "suite.yaml", "two.yaml")
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if err := Key(load("displayName"), tools); err != nil {
		t.Errorf("a key that fits server a's create_user: %v", err)
	}
	if err := Key(load("name"), tools); err == nil || !strings.Contains(err.Error(), "name") {
		t.Errorf("server b's argument on server a's tool: %v", err)
	}
	if gaps := CoverageOf(load("displayName"), tools).Gaps(); len(gaps) > 0 {
		t.Errorf("coverage gaps: %v", gaps)
	}
}
