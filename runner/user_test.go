package runner

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/fake"
	"github.com/mcpeval/mcpeval/model/script"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

const simUserSuite = `name: runner-test
target: builtin:runner-test
attempts: 1
cases:
  - id: g/which
    prompt: What is it?
    tools: {required: [get_total]}
    figures: [{value: 42, kind: count}]
    user:
      model: fake:user
      instructions: You want one figure from your books, and say which only when asked.
      knows: {figure: the total}
    key:
      asks: [Which figure do you mean?]
      calls: [{tool: get_total}]
      answer: The total is 42.
`

// simUserRun runs simUserSuite with fake:perfect under test and user as
// its user model.
func simUserRun(t *testing.T, s *suite.Suite, user model.Model) (*record.Run, error) {
	t.Helper()
	m, err := fake.New("perfect", s)
	if err != nil {
		t.Fatal(err)
	}
	return Run(context.Background(), Config{Target: testTarget, Suite: s, Model: m,
		ModelInfo: model.Info{Spec: "fake:perfect", Provider: "fake", Name: "perfect", Fake: true},
		Users:     map[string]User{"fake:user": {Model: user, Info: model.Info{Spec: "fake:user", Provider: "fake", Name: "user", Fake: true}}},
		OutDir:    t.TempDir(), Now: clock(), NewID: func() string { return "run-1" }})
}

// TestSimulatedUserAnswersAndEnds: the model asks a clarifying question,
// fake:user answers it with what the user knows, the model calls and
// answers, and the user ends the conversation. Both user requests are on
// the record, the user model sees the conversation from its side, and the
// run grades from the record alone.
func TestSimulatedUserAnswersAndEnds(t *testing.T) {
	s := loadSuite(t, simUserSuite)
	fu, err := fake.New("user", s)
	if err != nil {
		t.Fatal(err)
	}
	spy := &lastRequest{m: fu}
	rec, err := simUserRun(t, s, spy)
	if err != nil {
		t.Fatal(err)
	}
	a := rec.Attempts[0]
	if a.End != record.EndAnswered || a.Answer != "The total is 42." || len(a.Turns) != 3 {
		t.Fatalf("attempt ended %s with %q after %d turns: %+v", a.End, a.Answer, len(a.Turns), a.Turns)
	}
	asked, stopped := a.Turns[0].User, a.Turns[2].User
	if asked == nil || asked.Text != "figure: the total" || asked.Entry != 0 || asked.Stop || !asked.Simulated() || asked.Model.Spec != "fake:user" || asked.Turn == nil {
		t.Fatalf("after the question the user said %+v, want the fact it knows", asked)
	}
	if a.Turns[1].User != nil {
		t.Errorf("the user spoke after a turn of calls: %+v", a.Turns[1].User)
	}
	if stopped == nil || !stopped.Stop || stopped.Text != suite.UserStop || stopped.Turn == nil {
		t.Fatalf("after the answer the user said %+v, want the stop", stopped)
	}
	req := spy.req
	if !strings.Contains(req.System, "You want one figure from your books") || !strings.Contains(req.System, "- figure: the total") ||
		!strings.Contains(req.System, "What is it?") || !strings.Contains(req.System, suite.UserStop) {
		t.Errorf("the user model's system prompt lacks its instructions, facts, opening or stop:\n%s", req.System)
	}
	var roles []string
	for _, m := range req.Messages {
		roles = append(roles, string(m.Role)+": "+m.TextOf())
	}
	want := []string{"user: Which figure do you mean?", "assistant: figure: the total", "user: The total is 42."}
	if strings.Join(roles, "|") != strings.Join(want, "|") {
		t.Errorf("the user model saw %q, want %q", roles, want)
	}
	if g := grade.Run(s, rec).Attempts[0]; g.Outcome != grade.Pass {
		t.Errorf("graded %s: %v", g.Outcome, g.Reasons)
	}
}

// TestSimulatedUserCap: max_user_turns caps how often the user model is
// asked; the answer after the last one ends the conversation unasked.
func TestSimulatedUserCap(t *testing.T) {
	s := loadSuite(t, strings.Replace(simUserSuite, "    user:\n", "    max_user_turns: 1\n    user:\n", 1))
	fu, _ := fake.New("user", s)
	n := &countingUser{m: fu}
	rec, err := simUserRun(t, s, n)
	if err != nil {
		t.Fatal(err)
	}
	a := rec.Attempts[0]
	if n.n != 1 || a.End != record.EndAnswered || a.Turns[len(a.Turns)-1].User != nil {
		t.Errorf("the user model was asked %d times, attempt %s, last user %+v: want once, and nothing after the answer", n.n, a.End, a.Turns[len(a.Turns)-1].User)
	}
}

// TestSimulatedUserFails: a user model that fails ends the attempt in a
// provider error that names it, recorded on the turn it followed.
func TestSimulatedUserFails(t *testing.T) {
	s := loadSuite(t, simUserSuite)
	rec, err := simUserRun(t, s, failingUser{})
	if err != nil {
		t.Fatal(err)
	}
	a := rec.Attempts[0]
	if a.End != record.EndError || a.Error.Kind != record.KindProvider || !strings.Contains(a.Error.Message, "user model fake:user") {
		t.Fatalf("attempt %s %+v: want a provider error naming the user model", a.End, a.Error)
	}
	if u := a.Turns[0].User; u == nil || u.Error == "" || u.Text != "" {
		t.Errorf("the failed request is recorded as %+v", u)
	}
}

// TestSimulatedUserNotOpen: a run whose suite names a user model the
// caller did not open is refused before it starts.
func TestSimulatedUserNotOpen(t *testing.T) {
	s := loadSuite(t, simUserSuite)
	m, _ := fake.New("perfect", s)
	_, err := Run(context.Background(), Config{Target: testTarget, Suite: s, Model: m, OutDir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "user model fake:user is not open") {
		t.Errorf("Run = %v: want the user model refused", err)
	}
}

type countingUser struct {
	m model.Model
	n int
}

func (c *countingUser) Generate(ctx context.Context, req *model.Request) (*model.Response, error) {
	c.n++
	return c.m.Generate(ctx, req)
}

type failingUser struct{}

func (failingUser) Generate(context.Context, *model.Request) (*model.Response, error) {
	return nil, errors.New("no answer")
}

// TestScriptedSimulatedUser: a script plays the user by replaying its
// says, one a user turn, and ends the conversation when they run out (it
// answers nothing).
func TestScriptedSimulatedUser(t *testing.T) {
	s := loadSuite(t, simUserSuite)
	sc, err := script.Parse([]byte("g/which:\n  - say: The total, please.\n"), "user.yaml")
	if err != nil {
		t.Fatal(err)
	}
	rec, err := simUserRun(t, s, sc)
	if err != nil {
		t.Fatal(err)
	}
	a := rec.Attempts[0]
	if a.End != record.EndAnswered || len(a.Turns) != 3 || a.Answer != "The total is 42." {
		t.Fatalf("attempt ended %s with %q after %d turns", a.End, a.Answer, len(a.Turns))
	}
	if u := a.Turns[0].User; u == nil || u.Text != "The total, please." || u.Stop {
		t.Errorf("the script's user said %+v, want its say", u)
	}
	if u := a.Turns[2].User; u == nil || !u.Stop || u.Text != "" {
		t.Errorf("after its says ran out the script's user said %+v, want the end", u)
	}
}
