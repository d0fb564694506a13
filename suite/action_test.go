package suite

import (
	"strings"
	"testing"
	"testing/fstest"
)

func loadString(body string) (*Suite, error) {
	return LoadFS(fstest.MapFS{"suite.yaml": {Data: []byte(body)}}, "suite.yaml", "s.yaml")
}

const actionGood = `name: acts
target: builtin:ops
actions:
  turns_per_step: 2
  turns_extra: 3
  inventory:
    - list: {tool: list_things}
      items: things
      key: "{{item.id}}"
      remove: {tool: drop_thing, args: {id: "{{item.id}}", confirm: true}}
cases:
  - id: write/rename
    prompt: Rename {{fact.thing}} to new-{{token}}.
    action:
      kind: write
      fixtures:
        - tool: make_thing
          args: {name: "old-{{token}}"}
          facts: {thing: [name, id]}
      steps:
        - tool: rename_thing
          args:
            id: {fact: thing}
            to: {literal: "new-{{token}}"}
      verify:
        - tool: get_thing
          args: {id: "{{fact.thing@id}}"}
          expect: {name: "new-{{token}}"}
  - id: decline/vague
    prompt: Sort it out.
    action: {kind: decline, turn_cap: 2}
`

func TestLoadActions(t *testing.T) {
	s, err := loadString(actionGood)
	if err != nil {
		t.Fatal(err)
	}
	c := s.Case("write/rename")
	if c.Action.Steps[0].Line != 21 || c.Action.Fixtures[0].Line != 17 {
		t.Errorf("lines: step %d, fixture %d", c.Action.Steps[0].Line, c.Action.Fixtures[0].Line)
	}
	if got := c.Action.Fixtures[0].Facts["thing"]; len(got) != 2 || got[1] != "id" {
		t.Errorf("facts %v", got)
	}
	if st := c.Action.Settings(); st.Confirm != "confirm" || len(st.Inventory) != 1 {
		t.Errorf("settings %+v", st)
	}
	if n := s.ActionTurnCap(c); n != 2*1+3 {
		t.Errorf("turn cap %d, want 5", n)
	}
	if n := s.ActionTurnCap(s.Case("decline/vague")); n != 2 {
		t.Errorf("decline turn cap %d, want its own 2", n)
	}
}

func TestLoadActionErrors(t *testing.T) {
	bad := `name: acts
cases:
  - id: a/kind
    prompt: Do it.
    action: {kind: wibble}
  - id: a/fact
    prompt: Rename {{fact.ghost}} to new-{{token}}, and {{fact.hidden}}.
    action:
      kind: write
      fixtures:
        - tool: make_thing
          facts: {thing: name}
      steps:
        - tool: rename_thing
          args:
            id: {fact: thing}
            to: {literal: "other-{{token}}"}
            by: {produced: id}
            note: {authored: x, literal: y}
            empty: {}
  - id: a/decline
    prompt: No.
    action:
      kind: decline
      steps: [{tool: x}]
  - id: a/sequence
    prompt: Once.
    action:
      kind: sequence
      steps: [{tool: x}]
  - id: a/mixed
    prompt: Figures too.
    figures: [{value: 1}]
    action: {kind: read, steps: [{tool: x}]}
  - id: a/field
    prompt: x
    action:
      kind: read
      steps:
        - tool: x
          colour: red
`
	_, err := loadString(bad)
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	for _, want := range []string{
		`s.yaml:3: case a/kind: action kind "wibble": want read, write, sequence, destructive or decline`,
		`s.yaml:6: case a/fact: the prompt names {{fact.ghost}}`,
		`s.yaml:6: case a/fact: the prompt names {{fact.hidden}}`,
		`s.yaml:14: case a/fact: step 1 (rename_thing): argument id: fact "thing" is never shown in the prompt`,
		`s.yaml:14: case a/fact: step 1 (rename_thing): argument to: literal "other-{{token}}" does not appear in the prompt`,
		`s.yaml:14: case a/fact: step 1 (rename_thing): argument by: produced needs an earlier step`,
		`s.yaml:14: case a/fact: step 1 (rename_thing): argument note: authored text is never compared`,
		`s.yaml:14: case a/fact: step 1 (rename_thing): argument empty: want fact, literal, produced, authored or given`,
		`s.yaml:25: case a/decline: a decline case has no steps`,
		`s.yaml:26: case a/sequence: a sequence case needs at least two steps`,
		`s.yaml:31: case a/mixed: an action case is judged by its steps`,
		`s.yaml:41:11: unknown field "colour" in a step (want tool, args, optional)`,
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("errors lack %q:\n%s", want, msg)
		}
	}
}

func TestRender(t *testing.T) {
	v := Vars{Token: "abc", Facts: map[string]string{"thing": "web-abc", "thing@id": "f00"}, Item: map[string]any{"id": 7.0, "tags": []any{"x"}}}
	got, err := Render("{{fact.thing}} ({{ fact.thing@id }}) #{{item.id}} {{token}}", v)
	if err != nil || got != "web-abc (f00) #7 abc" {
		t.Errorf("Render = %q, %v", got, err)
	}
	if _, err := Render("{{fact.nope}}", v); err == nil {
		t.Error("a missing fact rendered")
	}
	val, err := RenderValue(map[string]any{"n": "{{item.id}}", "l": []any{"{{item.tags}}", "t-{{token}}"}}, v)
	if err != nil {
		t.Fatal(err)
	}
	m := val.(map[string]any)
	if m["n"] != 7.0 || m["l"].([]any)[1] != "t-abc" {
		t.Errorf("RenderValue = %#v: a whole placeholder keeps its type", val)
	}
}

func TestLookup(t *testing.T) {
	v := map[string]any{"users": []any{
		map[string]any{"id": "u1", "email": "a@x.example", "tags": []any{"a"}},
		map[string]any{"id": "u2", "email": "b@x.example", "tags": []any{"b", "c"}},
	}}
	for path, want := range map[string][]any{
		"users.1.id":                  {"u2"},
		"users.*.id":                  {"u1", "u2"},
		"users[email=b@x.example].id": {"u2"},
		"users[tags=c].id":            {"u2"},
		"users[email=nobody@x].id":    nil,
		"users.5.id":                  nil,
		"":                            {v},
		"users.0.tags.0":              {"a"},
	} {
		got := Lookup(v, path)
		if len(got) != len(want) {
			t.Errorf("Lookup(%q) = %v, want %v", path, got, want)
			continue
		}
		for i := range got {
			if path != "" && !SameValue(got[i], want[i]) {
				t.Errorf("Lookup(%q) = %v, want %v", path, got, want)
			}
		}
	}
	m := map[string]any{}
	SetPath(m, "entities.0.name", "x")
	SetPath(m, "entities.0.tags.*", "t")
	SetPath(m, "top", 1)
	if !SameValue(m, map[string]any{"entities": []any{map[string]any{"name": "x", "tags": []any{"t"}}}, "top": 1}) {
		t.Errorf("SetPath built %#v", m)
	}
}

func TestSameValue(t *testing.T) {
	for _, c := range []struct {
		a, b any
		same bool
	}{
		{42, "42", true}, {42, 42.0, true}, {"42", "42.0", true}, {nil, nil, true},
		{true, "true", true}, {"a", "a", true}, {[]any{1, "x"}, []any{"1", "x"}, true},
		{map[string]any{"a": 1, "b": nil}, map[string]any{"a": "1"}, true},
		{42, 43, false}, {"a", "A", false}, {nil, "", false}, {0, nil, false}, {"42", "x42", false},
		{[]any{1}, []any{1, 2}, false},
	} {
		if SameValue(c.a, c.b) != c.same || SameValue(c.b, c.a) != c.same {
			t.Errorf("SameValue(%#v, %#v) != %v", c.a, c.b, c.same)
		}
	}
}

func TestMatchTemplate(t *testing.T) {
	vals, ok := MatchTemplate("Rename {{fact.thing}} to new-{{token}}, not {{fact.thing}}.", "Rename web 1 to new-abc, not web 1.")
	if !ok || vals["fact.thing"] != "web 1" || vals["token"] != "abc" {
		t.Errorf("MatchTemplate = %v, %v", vals, ok)
	}
	if _, ok := MatchTemplate("Stop {{fact.x}}.", "Start y."); ok {
		t.Error("matched another prompt")
	}
}
