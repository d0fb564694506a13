package suite

import (
	"testing"
)

const turnsSuite = `name: demo
target: builtin:household
cases:
  - id: accounts/which
    prompt: What's the balance of my account?
    tools: {accepted: [get_accounts]}
    max_user_turns: 2
    turns:
      - when: {asked: true}
        say: The savings account.
      - when: {called: get_accounts, matches: "(?i)balance"}
        say: And in dollars?
      - say: Thanks.
`

func TestLoadTurns(t *testing.T) {
	s, err := Load(write(t, t.TempDir(), "suite.yaml", turnsSuite))
	if err != nil {
		t.Fatal(err)
	}
	c := s.Cases[0]
	if len(c.Turns) != 3 || c.UserTurnCap() != 2 {
		t.Fatalf("turns %+v, cap %d", c.Turns, c.UserTurnCap())
	}
	if c.Turns[0].Line != 9 || c.Turns[2].Line != 13 {
		t.Errorf("turn lines %d, %d: want 9, 13", c.Turns[0].Line, c.Turns[2].Line)
	}
	for _, tc := range []struct {
		name  string
		r     Reply
		given []int
		want  int
		ok    bool
	}{
		{"a question gets the asked turn", Reply{Answer: "Which one?", Asked: true}, nil, 0, true},
		{"a given turn is not given again", Reply{Answer: "Which one?", Asked: true}, []int{0}, 2, true},
		{"called and matches hold together", Reply{Answer: "The balance is 5.", Called: []string{"get_accounts"}}, nil, 1, true},
		{"matches alone is not enough", Reply{Answer: "The balance is 5."}, nil, 2, true},
		{"the cap ends the conversation", Reply{Answer: "Which one?", Asked: true}, []int{0, 2}, 0, false},
	} {
		got, ok := c.NextTurn(tc.r, tc.given)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s: NextTurn = %d, %v; want %d, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
	if _, ok := (&Case{Turns: []UserTurn{{Say: "x", When: &TurnWhen{Called: "t"}}}}).NextTurn(Reply{}, nil); ok {
		t.Error("no condition holds and there is no default turn: the conversation must end")
	}
	if (&Case{}).UserTurnCap() != DefaultMaxUserTurns {
		t.Error("the default cap is not DefaultMaxUserTurns")
	}
}

func TestLoadTurnsErrors(t *testing.T) {
	for _, tc := range []struct {
		name, cases string
		want        []string
	}{
		{"empty say", `
  - id: a/b
    prompt: Hi?
    decline: true
    turns:
      - when: {asked: true}
        say: ""
`, []string{"suite.yaml:8: case a/b: turn 1 has nothing to say"}},
		{"bad regexp", `
  - id: a/b
    prompt: Hi?
    decline: true
    turns:
      - say: ok
      - when: {matches: "(unclosed"}
        say: fine
`, []string{"suite.yaml:9: case a/b: turn 2: matches \"(unclosed\" is not a regular expression"}},
		{"empty when", `
  - id: a/b
    prompt: Hi?
    decline: true
    turns:
      - when: {}
        say: ok
`, []string{"suite.yaml:8: case a/b: turn 1: when sets no condition"}},
		{"unknown when key", `
  - id: a/b
    prompt: Hi?
    decline: true
    turns:
      - when: {askd: true}
        say: ok
`, []string{"suite.yaml:8", `unknown field "askd" in a turn's when`, `did you mean "asked"?`}},
		{"empty called", `
  - id: a/b
    prompt: Hi?
    decline: true
    turns:
      - when: {called: ""}
        say: ok
`, []string{"suite.yaml:8: case a/b: turn 1: called is empty"}},
		{"zero cap", `
  - id: a/b
    prompt: Hi?
    decline: true
    max_user_turns: 0
    turns: [{say: ok}]
`, []string{"suite.yaml:7: case a/b: max_user_turns is 0: want a positive number"}},
		{"cap without turns", `
  - id: a/b
    prompt: Hi?
    decline: true
    max_user_turns: 2
`, []string{"suite.yaml:7: case a/b: max_user_turns without turns"}},
		{"asks without turns", `
  - id: a/b
    prompt: Hi?
    decline: true
    key:
      asks: [Which one?]
`, []string{"suite.yaml:8: case a/b: the key asks the user 1 question(s) but the case has no turns"}},
		{"approves without a question", `
  - id: a/b
    prompt: Hi?
    action:
      kind: write
      steps: [{tool: t}]
    turns:
      - say: Yes.
        approves: true
`, []string{"suite.yaml:10: case a/b: turn 1 approves, so it answers the model's question: want when: {asked: true}"}},
		{"approves on a question case", `
  - id: a/b
    prompt: Hi?
    decline: true
    turns:
      - when: {asked: true}
        say: Yes.
        approves: true
`, []string{"suite.yaml:8: case a/b: turn 1 approves, which only an action case's steps read"}},
		{"expect checks nothing", `
  - id: a/b
    prompt: Hi?
    decline: true
    turns:
      - when: {asked: true}
        say: The savings account.
        expect: {}
`, []string{"suite.yaml:8: case a/b: turn 1: expect: checks nothing: want answer, figures or decline"}},
		{"expect figures and decline", `
  - id: a/b
    prompt: Hi?
    decline: true
    turns:
      - when: {asked: true}
        say: The savings account.
        expect:
          decline: true
          figures: [{value: 5}]
`, []string{"suite.yaml:8: case a/b: turn 1: expect: both expects figures and expects a decline"}},
		{"expect figure kind and value", `
  - id: a/b
    prompt: Hi?
    decline: true
    turns:
      - say: ok
        expect:
          figures: [{value: 5, kind: cash}, {kind: money}]
`, []string{"suite.yaml:8: case a/b: turn 1: expect: figure 1: kind \"cash\"", "suite.yaml:10:45: case a/b: figure 2 has no value"}},
		{"expect empty answer check", `
  - id: a/b
    prompt: Hi?
    decline: true
    turns:
      - say: ok
        expect:
          answer: {contains: []}
`, []string{"suite.yaml:10: case a/b: answer: contains is empty"}},
		{"expect unknown field", `
  - id: a/b
    prompt: Hi?
    decline: true
    turns:
      - say: ok
        expect: {figuers: []}
`, []string{"suite.yaml:9", `unknown field "figuers"`}},
		{"token in a question case's say", `
  - id: a/b
    prompt: Hi?
    decline: true
    key:
      asks: ["Which {{token}}?"]
    turns:
      - when: {asked: true}
        say: "draft-{{token}}.txt"
`, []string{"suite.yaml:8: case a/b: key ask 1 names {{token}}, but only an action case's attempts have a token", "suite.yaml:10: case a/b: turn 1: say names {{token}}, but only an action case"}},
		{"unknown fact in say", `
  - id: a/b
    prompt: Move it.
    action:
      kind: write
      steps: [{tool: t}]
    turns:
      - when: {asked: true}
        say: "Yes, {{fact.file}}."
`, []string{"suite.yaml:10: case a/b: turn 1: say names {{fact.file}}: want {{token}} or {{fact.NAME}}"}},
		{"tool-call case", `
  - id: a/b
    prompt: Hi?
    mode: tool-call
    expect_tools: [get_accounts]
    turns: [{say: ok}]
`, []string{"suite.yaml:8: case a/b: a tool-call case ends at the model's first calls"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := "name: demo\ntarget: builtin:household\ncases:" + tc.cases
			_, err := Load(write(t, t.TempDir(), "suite.yaml", body))
			wantLoadError(t, err, tc.want...)
		})
	}
}

func TestTurnCalledIsCheckedAgainstTools(t *testing.T) {
	s, err := Load(write(t, t.TempDir(), "suite.yaml", turnsSuite))
	if err != nil {
		t.Fatal(err)
	}
	s.Cases[0].Turns[1].When.Called = "get_acounts"
	wantLoadError(t, s.CheckTools([]string{"get_accounts"}), `suite.yaml:11: case accounts/which: turns when.called: unknown tool "get_acounts"`)
}
