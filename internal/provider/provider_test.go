package provider

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/fake"
	"github.com/mcpeval/mcpeval/model/script"
	"github.com/mcpeval/mcpeval/suite"
)

const testSuite = `name: t
target: builtin:none
allow_writes: true
cases:
  - id: write/note
    prompt: Write note-{{token}}.txt.
    action:
      kind: write
      steps:
        - tool: write_file
          args:
            path: {literal: "note-{{token}}.txt"}
`

// TestOpenFakes checks that every fake model opens by name from the one
// registry, with nothing else imported to add to it.
func TestOpenFakes(t *testing.T) {
	s, err := suite.LoadFS(fstest.MapFS{"suite.yaml": {Data: []byte(testSuite)}}, "suite.yaml", "t")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"perfect", "refuse", "invent", "wrong-args", "no-confirm", "declines", "extra-change", "gives-up", "acts-first", "ignores-answer", "asks-forever", "reads"} {
		m, info, err := Open("fake:"+name, Options{Suite: s})
		if err != nil || m == nil || !info.Fake {
			t.Errorf("fake:%s: %v (info %+v)", name, err, info)
		}
	}
	if got, want := len(fake.Names()), 13; got != want {
		t.Errorf("%d fakes registered, want %d: %v", got, want, fake.Names())
	}
	if _, _, err := Open("fake:nosuch", Options{Suite: s}); err == nil {
		t.Error("fake:nosuch opened")
	}
}

// TestOpenScriptRendersToken checks that a script opened for a suite
// renders {{token}} from the prompt it is sent.
func TestOpenScriptRendersToken(t *testing.T) {
	s, err := suite.LoadFS(fstest.MapFS{"suite.yaml": {Data: []byte(testSuite)}}, "suite.yaml", "t")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "s.yaml")
	os.WriteFile(file, []byte("write/note:\n  - call: write_file\n    args: {path: \"note-{{token}}.txt\"}\n"), 0o600)
	m, info, err := Open("script:"+file, Options{Suite: s})
	if err != nil || !info.Fake {
		t.Fatalf("script: %v %+v", err, info)
	}
	if _, ok := m.(*script.Script); !ok {
		t.Fatalf("script model is %T", m)
	}
	resp, err := m.Generate(context.Background(), &model.Request{CaseID: "write/note",
		Messages: []model.Message{{Role: model.User, Blocks: []model.Block{{Kind: model.Text, Text: "Write note-f00d.txt."}}}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(resp.Message.Calls()[0].Args); got != `{"path":"note-f00d.txt"}` {
		t.Errorf("script call args %s, want the token rendered", got)
	}
}
