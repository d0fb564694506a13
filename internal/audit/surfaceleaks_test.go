package audit

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpeval/mcpeval/internal/builtin"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/runner"
	"github.com/mcpeval/mcpeval/suite"
	"github.com/mcpeval/mcpeval/target"
)

// TestSurfaceLeaks: a prompt naming a tool of a mapped surface (its own
// meta-tool, or another) is flagged at the case's line as a canonical
// tool's name is; a leak exception allows the word, and the canonical
// surface adds nothing to Leaks.
func TestSurfaceLeaks(t *testing.T) {
	body := `name: planted
target: builtin:none
surfaces:
  - name: individual
  - name: meta
    target: builtin:none-meta
    map:
      create_user: {tool: users, args: {action: create}}
      list_users: {tool: users, args: {action: list}}
      delete_group: {tool: user-groups, args: {action: delete}}
cases:
` + writeCase("write/own", "Use users to add Dana.") + writeCase("write/other", "Add Dana, then check the user groups.") + writeCase("write/clean", "Add Dana as a new person.") +
		writeCase("write/allowed", "Add Dana to the users.") + `      leak_exceptions:
        - {word: users, why: the product's own word}
`
	s, err := suite.LoadFS(fstest.MapFS{"suite.yaml": {Data: []byte(body)}}, "suite.yaml", "planted.yaml")
	if err != nil {
		t.Fatal(err)
	}
	meta := []record.Tool{{Name: "users"}, {Name: "user-groups"}}
	got := map[string]Leak{}
	for _, l := range SurfaceLeaks(s, s.Surface("meta"), meta) {
		got[l.Case] = l
	}
	if l, ok := got["write/own"]; !ok || l.Found != "users" || l.What != "its tool users on surface meta" || l.File != "planted.yaml" || l.Line == 0 {
		t.Errorf("the prompt naming its own meta-tool: %+v", l)
	}
	if l, ok := got["write/other"]; !ok || l.Found != "user groups" || l.What != "the tool user-groups of surface meta" {
		t.Errorf("the prompt naming another meta-tool as a phrase: %+v", l)
	}
	for _, id := range []string{"write/clean", "write/allowed"} {
		if l, ok := got[id]; ok {
			t.Errorf("%s is flagged: %s", id, l)
		}
	}
	if strings.Contains(got["write/own"].String(), "planted.yaml:") == false {
		t.Errorf("a leak is not located at file:line: %s", got["write/own"])
	}
	if n := len(SurfaceLeaks(s, s.Surface("individual"), meta)); n != 0 {
		t.Errorf("the canonical surface yields %d leaks; Leaks audits it", n)
	}
}

// TestCorpusSurfaceAudits holds the embedded suites' prompts to every
// surface they declare, however many: none names a surface's tool.
func TestCorpusSurfaceAudits(t *testing.T) {
	s, err := builtin.LoadSuite("ops")
	if err != nil {
		t.Fatal(err)
	}
	base := target.Config{Spec: s.Target.Spec, Builtins: builtin.All()}
	mapped := 0
	for _, sf := range s.Surfaces {
		if sf.Canonical() {
			continue
		}
		mapped++
		tools, err := runner.SurfaceTools(context.Background(), s, sf, base)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range SurfaceLeaks(s, sf, tools) {
			t.Errorf("leak: %s", l)
		}
	}
	if mapped == 0 {
		t.Fatal("the ops suite declares no mapped surface")
	}
}
