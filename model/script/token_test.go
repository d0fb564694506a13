package script

import (
	"context"
	"encoding/json"
	"testing"
	"testing/fstest"

	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/suite"
)

const tokenSuite = `name: files
target: builtin:none
allow_writes: true
cases:
  - id: write/note
    prompt: Write "milk" to notes-{{token}}.txt, next to {{fact.draft}}.
    action:
      kind: write
      fixtures:
        - tool: write_file
          args: {path: "draft-{{token}}.txt", content: draft}
          facts: {draft: path}
      steps:
        - tool: write_file
          args:
            path: {literal: "notes-{{token}}.txt"}
            content: {authored: milk}
`

const tokenScript = `write/note:
  - call: write_file
    args: {path: "notes-{{token}}.txt", content: "{{fact.draft}} says {{token}}", n: 7, other: "{{fact.none}}", list: ["{{token}}"]}
  - call: write_file
    args: '{"path": "bad-{{token}}.txt", "content": "{{fact.draft}}'
  - say: "I wrote notes-{{ token }}.txt."
`

// TestTokenRendered checks that {{token}} and {{fact.NAME}} in a script's
// arguments and answers become the attempt's values, read back from the
// prompt the model was sent.
func TestTokenRendered(t *testing.T) {
	st, err := suite.LoadFS(fstest.MapFS{"suite.yaml": {Data: []byte(tokenSuite)}}, "suite.yaml", "test")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse([]byte(tokenScript), "s.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s.Suite = st
	prompt := `Write "milk" to notes-k3y9.txt, next to draft "one".txt.`
	req := &model.Request{CaseID: "write/note", Messages: []model.Message{{Role: model.User, Blocks: []model.Block{{Kind: model.Text, Text: prompt}}}}}
	var turns []model.Message
	for range 3 {
		resp, err := s.Generate(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		turns = append(turns, resp.Message)
		req.Messages = append(req.Messages, resp.Message)
	}
	var args map[string]any
	if err := json.Unmarshal(turns[0].Calls()[0].Args, &args); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"path": "notes-k3y9.txt", "content": `draft "one".txt says k3y9`, "n": 7.0, "other": "{{fact.none}}", "list": []any{"k3y9"}}
	for k, w := range want {
		if got, _ := json.Marshal(args[k]); string(got) != mustJSON(w) {
			t.Errorf("argument %s = %s, want %s", k, got, mustJSON(w))
		}
	}
	// Malformed arguments stay malformed, with values escaped as in JSON.
	if got := string(turns[1].Calls()[0].Args); got != `{"path": "bad-k3y9.txt", "content": "draft \"one\".txt` {
		t.Errorf("malformed arguments rendered as %s", got)
	}
	if got := turns[2].TextOf(); got != "I wrote notes-k3y9.txt." {
		t.Errorf("answer %q", got)
	}

	// Without the suite, or on a prompt that is not the case's, nothing is
	// rendered.
	for _, tc := range []struct {
		suite  *suite.Suite
		prompt string
	}{{nil, prompt}, {st, "Something else entirely."}} {
		s.Suite = tc.suite
		resp, _ := s.Generate(context.Background(), &model.Request{CaseID: "write/note", Messages: []model.Message{{Role: model.User, Blocks: []model.Block{{Kind: model.Text, Text: tc.prompt}}}}})
		json.Unmarshal(resp.Message.Calls()[0].Args, &args)
		if args["path"] != "notes-{{token}}.txt" {
			t.Errorf("suite %v, prompt %q: path %v, want it as written", tc.suite != nil, tc.prompt, args["path"])
		}
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
