package fake

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/suite"
)

const moveSuite = `name: files
target: builtin:none
allow_writes: true
cases:
  - id: sequence/archive
    prompt: Move draft-{{token}}.txt into the archive.
    action:
      kind: sequence
      steps:
        - tool: move_file
          args:
            source: {literal: "draft-{{token}}.txt"}
            destination: {authored: "archive/draft-{{token}}.txt"}
            note: {authored: {why: "asked on {{token}}", n: 3}}
        - tool: remove_thing
          args:
            id: {literal: "draft-{{token}}"}
`

var moveTools = []model.Tool{
	{Name: "move_file", InputSchema: json.RawMessage(`{"type":"object","properties":{"source":{"type":"string"},"destination":{"type":"string"},"note":{"type":"object"}}}`)},
	{Name: "remove_thing", InputSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"},"confirm":{"type":"boolean"}}}`)},
}

// loadSuite loads a suite written out in a test.
func loadSuite(t *testing.T, text string) *suite.Suite {
	t.Helper()
	s, err := suite.LoadFS(fstest.MapFS{"suite.yaml": {Data: []byte(text)}}, "suite.yaml", "test")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// openFake opens fake name on the suite text.
func openFake(t *testing.T, name, text string) *Model {
	t.Helper()
	m, err := New(name, loadSuite(t, text))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// play has fake name answer the case until it stops calling tools, and
// returns the calls it made.
func play(t *testing.T, name string) []model.Call {
	t.Helper()
	m := openFake(t, name, moveSuite)
	req := &model.Request{CaseID: "sequence/archive", Tools: moveTools,
		Messages: []model.Message{{Role: model.User, Blocks: []model.Block{{Kind: model.Text, Text: "Move draft-t0k3n.txt into the archive."}}}}}
	var calls []model.Call
	for range 5 {
		resp, err := m.Generate(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		req.Messages = append(req.Messages, resp.Message)
		if len(resp.Message.Calls()) == 0 {
			return calls
		}
		calls = append(calls, resp.Message.Calls()...)
		res := model.Message{Role: model.User}
		for _, c := range resp.Message.Calls() {
			res.Blocks = append(res.Blocks, model.Block{Kind: model.ToolResult, Result: &model.Result{CallID: c.ID, Content: "ok"}})
		}
		req.Messages = append(req.Messages, res)
	}
	t.Fatalf("fake:%s never answered", name)
	return nil
}

// TestPerfectFollowsActionSteps checks that fake:perfect follows an action
// case's steps with nothing else imported (no package changes what it
// does), and that authored examples are sent rendered with the token.
func TestPerfectFollowsActionSteps(t *testing.T) {
	calls := play(t, "perfect")
	if len(calls) != 2 || calls[0].Name != "move_file" || calls[1].Name != "remove_thing" {
		t.Fatalf("fake:perfect made calls %v, want move_file then remove_thing", calls)
	}
	var args map[string]any
	json.Unmarshal(calls[0].Args, &args)
	if args["source"] != "draft-t0k3n.txt" || args["destination"] != "archive/draft-t0k3n.txt" {
		t.Errorf("move_file arguments %s: the token is not rendered", calls[0].Args)
	}
	if note, _ := json.Marshal(args["note"]); string(note) != `{"n":3,"why":"asked on t0k3n"}` {
		t.Errorf("authored object sent as %s", note)
	}
	if string(calls[1].Args) != `{"confirm":true,"id":"draft-t0k3n"}` {
		t.Errorf("remove_thing arguments %s, want the approval it takes", calls[1].Args)
	}
	// The variant that never approves leaves it out, and only that.
	calls = play(t, "no-confirm")
	if len(calls) != 2 || string(calls[1].Args) != `{"id":"draft-t0k3n"}` {
		t.Errorf("fake:no-confirm made calls %v", calls)
	}
}

// TestNames checks that every fake is in the one registry.
func TestNames(t *testing.T) {
	want := []string{"acts-first", "asks-forever", "declines", "extra-change", "gives-up", "ignores-answer", "invent", "no-confirm", "perfect", "reads", "refuse", "user", "wrong-args"}
	if got := Names(); !slices.Equal(got, want) {
		t.Errorf("Names() = %v, want %v", got, want)
	}
	if _, err := New("nosuch", &suite.Suite{}); err == nil {
		t.Error("New(nosuch) gave no error")
	}
}
