package suite

import (
	"testing"
)

const userSuite = `name: demo
target: builtin:household
user:
  model: fake:user
  instructions: You hold a few accounts and want to know where your money is.
cases:
  - id: accounts/which
    prompt: What's the balance of my account?
    tools: {accepted: [get_accounts]}
    max_user_turns: 2
    user:
      model: anthropic:claude-haiku-4-5
      instructions: You want the balance of one account, and say which only when asked.
      knows: {account: DBS savings, currency: 42}
  - id: accounts/inherits
    prompt: How much cash do I have?
    tools: {accepted: [get_accounts]}
  - id: accounts/scripted
    prompt: How much cash do I have?
    tools: {accepted: [get_accounts]}
    turns: [{say: Thanks.}]
  - id: accounts/first-call
    prompt: List my accounts.
    mode: tool-call
    expect_tools: [get_accounts]
`

func TestLoadUser(t *testing.T) {
	s, err := Load(write(t, t.TempDir(), "suite.yaml", userSuite))
	if err != nil {
		t.Fatal(err)
	}
	own, inherits, scripted, first := s.Cases[0], s.Cases[1], s.Cases[2], s.Cases[3]
	if own.User == nil || own.User.Model != "anthropic:claude-haiku-4-5" || own.User.Line != 11 || own.UserTurnCap() != 2 {
		t.Fatalf("own user %+v, cap %d", own.User, own.UserTurnCap())
	}
	if got := own.User.Knows["currency"]; got != "42" {
		t.Errorf("knows currency = %q: a number is read as its text", got)
	}
	if inherits.User != s.User || inherits.UserTurnCap() != DefaultMaxUserTurns {
		t.Errorf("a case with neither turns nor a user has %+v, want the suite's", inherits.User)
	}
	if scripted.User != nil || first.User != nil {
		t.Errorf("scripted turns and a tool-call case take no suite user: %+v, %+v", scripted.User, first.User)
	}
	if got, want := s.UserModels(), []string{"anthropic:claude-haiku-4-5", "fake:user"}; len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("UserModels = %v, want %v", got, want)
	}
}

func TestLoadUserErrors(t *testing.T) {
	for _, tc := range []struct {
		name, head, cases string
		want              []string
	}{
		{"both turns and user", "", `
  - id: a/b
    prompt: Hi?
    decline: true
    turns: [{say: ok}]
    user: {model: fake:user, instructions: You are terse.}
`, []string{"suite.yaml:7: case a/b: has both turns and user"}},
		{"no model", "", `
  - id: a/b
    prompt: Hi?
    decline: true
    user:
      instructions: You are terse.
`, []string{"suite.yaml:7: case a/b: user: model is empty"}},
		{"model without a provider", "", `
  - id: a/b
    prompt: Hi?
    decline: true
    user:
      model: claude
      instructions: You are terse.
`, []string{`suite.yaml:8: case a/b: user: model "claude": want PROVIDER:NAME`}},
		{"no instructions", "", `
  - id: a/b
    prompt: Hi?
    decline: true
    user:
      model: fake:user
      instructions: "  "
`, []string{"suite.yaml:9: case a/b: user: instructions are empty"}},
		{"empty fact", "", `
  - id: a/b
    prompt: Hi?
    decline: true
    user:
      model: fake:user
      instructions: You are terse.
      knows: {account: ""}
`, []string{`suite.yaml:10: case a/b: user: knows "account" is empty`}},
		{"unknown field", "", `
  - id: a/b
    prompt: Hi?
    decline: true
    user: {model: fake:user, instructions: You are terse., know: {a: b}}
`, []string{"suite.yaml:7", `unknown field "know" in a user`, `did you mean "knows"?`}},
		{"empty user", "", `
  - id: a/b
    prompt: Hi?
    decline: true
    user:
`, []string{"suite.yaml:7: case a/b: user is empty"}},
		{"tool-call case", "", `
  - id: a/b
    prompt: Hi?
    mode: tool-call
    expect_tools: [get_accounts]
    user: {model: fake:user, instructions: You are terse.}
`, []string{"suite.yaml:8: case a/b: a tool-call case ends at the model's first calls, so the user never speaks again: user needs mode agent"}},
		{"suite user without instructions", "user: {model: fake:user}\n", `
  - id: a/b
    prompt: Hi?
    decline: true
`, []string{"suite.yaml:3: user: instructions are empty"}},
		{"cap with a user", "", `
  - id: a/b
    prompt: Hi?
    decline: true
    max_user_turns: 0
    user: {model: fake:user, instructions: You are terse.}
`, []string{"suite.yaml:7: case a/b: max_user_turns is 0: want a positive number"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := "name: demo\ntarget: builtin:household\n" + tc.head + "cases:" + tc.cases
			_, err := Load(write(t, t.TempDir(), "suite.yaml", body))
			wantLoadError(t, err, tc.want...)
		})
	}
}

// TestUserMeetsMaxUserTurns: a case whose user is a model may cap its
// turns, and a key that asks needs no scripted turns.
func TestUserMeetsMaxUserTurns(t *testing.T) {
	body := `name: demo
target: builtin:household
cases:
  - id: a/b
    prompt: Hi?
    decline: true
    max_user_turns: 1
    key: {asks: [Which one?]}
    user: {model: fake:user, instructions: You are terse.}
`
	if _, err := Load(write(t, t.TempDir(), "suite.yaml", body)); err != nil {
		t.Fatal(err)
	}
}
