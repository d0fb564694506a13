package fake

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/model"
)

const givenSuite = `name: git
target: builtin:none
cases:
  - id: read/log
    prompt: Show the 1 latest commit.
    action:
      kind: read
      steps:
        - tool: git_log
          args:
            repo_path: {given: /srv/repos/bakery}
            max_count: {literal: 1}
`

// TestPerfectSendsGivenValues: fake:perfect sends a given value;
// fake:wrong-args, which gets every judged argument wrong, leaves it be.
func TestPerfectSendsGivenValues(t *testing.T) {
	s := loadSuite(t, givenSuite)
	tools := []model.Tool{{Name: "git_log", InputSchema: json.RawMessage(`{"type":"object","properties":{"repo_path":{"type":"string"},"max_count":{"type":"integer"}}}`)}}
	for name, want := range map[string]string{"perfect": `{"max_count":1,"repo_path":"/srv/repos/bakery"}`, "wrong-args": `"repo_path":"/srv/repos/bakery"`} {
		m, err := New(name, s)
		if err != nil {
			t.Fatal(err)
		}
		req := &model.Request{CaseID: "read/log", Tools: tools,
			Messages: []model.Message{{Role: model.User, Blocks: []model.Block{{Kind: model.Text, Text: "Show the 1 latest commit."}}}}}
		resp, err := m.Generate(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		calls := resp.Message.Calls()
		if len(calls) != 1 || !jsonHas(calls[0].Args, want) {
			t.Errorf("fake:%s made calls %v, want arguments holding %s", name, calls, want)
		}
	}
}

func jsonHas(b json.RawMessage, want string) bool {
	return string(b) == want || (want[0] != '{' && strings.Contains(string(b), want))
}
