package runner

import (
	"context"
	"testing"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/fake"
	"github.com/mcpeval/mcpeval/model/script"
	"github.com/mcpeval/mcpeval/record"
)

const turnsSuite = `name: runner-test
target: builtin:runner-test
attempts: 1
cases:
  - id: g/which
    prompt: What is it?
    tools: {required: [get_total]}
    figures: [{value: 42, kind: count}]
    turns:
      - when: {called: get_total}
        say: In dollars?
      - when: {asked: true}
        say: The total.
`

const turnsScript = `g/which:
  - say: Which figure do you mean?
  - call: get_total
  - say: The total is 42.
  - say: Yes, 42 dollars.
`

// TestRunPlaysUserTurns runs a case with two user turns against a script:
// each answer is followed by the first turn whose condition holds, the
// conversation goes on after it, and the answer kept is the last one.
func TestRunPlaysUserTurns(t *testing.T) {
	s := loadSuite(t, turnsSuite)
	sc, err := script.Parse([]byte(turnsScript), "turns.yaml")
	if err != nil {
		t.Fatal(err)
	}
	spy := &lastRequest{m: sc}
	rec, err := Run(context.Background(), Config{Target: testTarget, Suite: s, Model: spy,
		ModelInfo: model.Info{Spec: "script:turns.yaml", Fake: true}, OutDir: t.TempDir(), Now: clock(), NewID: func() string { return "run-1" }})
	if err != nil {
		t.Fatal(err)
	}
	a := rec.Attempts[0]
	if a.End != record.EndAnswered || a.Answer != "Yes, 42 dollars." || len(a.Turns) != 4 {
		t.Fatalf("attempt ended %s with %q after %d turns: %+v", a.End, a.Answer, len(a.Turns), a.Turns)
	}
	want := []*record.UserTurn{{Entry: 2, Text: "The total."}, nil, {Entry: 1, Text: "In dollars?"}, nil}
	for i, tr := range a.Turns {
		if (tr.User == nil) != (want[i] == nil) || tr.User != nil && *tr.User != *want[i] {
			t.Errorf("turn %d: user said %+v, want %+v", i+1, tr.User, want[i])
		}
	}
	var said []string
	for _, m := range spy.req.Messages {
		if m.Role == model.User && m.TextOf() != "" {
			said = append(said, m.TextOf())
		}
	}
	if len(said) != 3 || said[1] != "The total." || said[2] != "In dollars?" {
		t.Errorf("the model was told %q, want the prompt and the two turns", said)
	}
}

// TestUserTurnsKeepTheTurnCap checks that the turn cap counts the model's
// turns across user turns, and that an attempt stopped at it has no answer
// (the question before the user's turn is not one).
func TestUserTurnsKeepTheTurnCap(t *testing.T) {
	s := loadSuite(t, turnsSuite)
	s.TurnCap = 2
	sc, err := script.Parse([]byte(turnsScript), "turns.yaml")
	if err != nil {
		t.Fatal(err)
	}
	rec, err := Run(context.Background(), Config{Target: testTarget, Suite: s, Model: sc,
		ModelInfo: model.Info{Spec: "script:turns.yaml", Fake: true}, OutDir: t.TempDir(), Now: clock(), NewID: func() string { return "run-1" }})
	if err != nil {
		t.Fatal(err)
	}
	a := rec.Attempts[0]
	if a.End != record.EndTurnCap || a.Answer != "" || len(a.Turns) != 2 || a.Turns[0].User == nil {
		t.Fatalf("attempt ended %s with %q after %d turns: %+v", a.End, a.Answer, len(a.Turns), a.Turns)
	}
}

// TestNoTurnHoldsEndsTheConversation checks that an answer no turn's
// condition holds of ends the attempt there.
func TestNoTurnHoldsEndsTheConversation(t *testing.T) {
	s := loadSuite(t, turnsSuite)
	sc, err := script.Parse([]byte("g/which:\n  - say: It is 42.\n"), "turns.yaml")
	if err != nil {
		t.Fatal(err)
	}
	rec, err := Run(context.Background(), Config{Target: testTarget, Suite: s, Model: sc,
		ModelInfo: model.Info{Spec: "script:turns.yaml", Fake: true}, OutDir: t.TempDir(), Now: clock(), NewID: func() string { return "run-1" }})
	if err != nil {
		t.Fatal(err)
	}
	a := rec.Attempts[0]
	if a.End != record.EndAnswered || a.Answer != "It is 42." || len(a.Turns) != 1 || a.Turns[0].User != nil {
		t.Fatalf("attempt ended %s with %q after %d turns: %+v", a.End, a.Answer, len(a.Turns), a.Turns)
	}
}

// lastRequest passes requests to m and keeps the last.
type lastRequest struct {
	m   model.Model
	req *model.Request
}

func (l *lastRequest) Generate(ctx context.Context, req *model.Request) (*model.Response, error) {
	l.req = req
	return l.m.Generate(ctx, req)
}

const askingSuite = `name: runner-test
target: builtin:runner-test
attempts: 1
cases:
  - id: g/which
    prompt: What is it?
    tools: {required: [get_total]}
    figures: [{value: 42, kind: count}]
    turns:
      - when: {asked: true}
        say: The total.
    key:
      asks: [Which figure do you mean?]
      calls: [{tool: get_total}]
      answer: The total is 42.
`

// TestFakePerfectAsksFirst checks that fake:perfect asks the key's
// question, and makes the key's calls only after the user's turn, so that
// it passes a case whose user answers a question.
func TestFakePerfectAsksFirst(t *testing.T) {
	s := loadSuite(t, askingSuite)
	m, err := fake.New("perfect", s)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := Run(context.Background(), Config{Target: testTarget, Suite: s, Model: m,
		ModelInfo: model.Info{Spec: "fake:perfect", Fake: true}, OutDir: t.TempDir(), Now: clock(), NewID: func() string { return "run-1" }})
	if err != nil {
		t.Fatal(err)
	}
	a := rec.Attempts[0]
	if len(a.Turns) != 3 || a.Turns[0].Text != "Which figure do you mean?" || a.Turns[0].User == nil || len(a.Turns[1].Calls) != 1 {
		t.Fatalf("fake:perfect took the turns %+v", a.Turns)
	}
	res := grade.Run(s, rec)
	if g := res.Attempts[0]; g.Outcome != grade.Pass {
		t.Errorf("fake:perfect graded %s: %v", g.Outcome, g.Reasons)
	}
}
