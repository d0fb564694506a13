package runner

import (
	"context"
	"testing"

	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/target"
)

// TestConversationSteps checks a conversation's contract one step at a
// time: a turn of tool calls is one step that goes on, with the results as
// the next message; an answer ends it, and joins the conversation so far,
// which is what a next user message would follow.
func TestConversationSteps(t *testing.T) {
	ctx := context.Background()
	s := loadSuite(t, testSuite)
	call := model.Message{Blocks: []model.Block{{Kind: model.ToolUse, Call: &model.Call{ID: "1", Name: "get_total", Args: []byte(`{}`)}}}}
	answer := model.Message{Blocks: []model.Block{{Kind: model.Text, Text: "The total is 42."}}}
	r, err := newRun(Config{Target: testTarget, Suite: s, Model: &scripted{turns: []model.Message{call, answer}}, FixedConcurrency: true})
	if err != nil {
		t.Fatal(err)
	}
	conn, err := target.Dial(ctx, r.cfg.Target)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := r.listTools(ctx, conn); err != nil {
		t.Fatal(err)
	}
	c := s.Case("g/total")
	a := &record.Attempt{Case: c.ID, N: 1, Prompt: c.Prompt}
	cv := r.newConversation(conn, c, a)
	if len(cv.req.Messages) != 1 || cv.req.Messages[0].TextOf() != c.Prompt {
		t.Fatalf("the conversation opens with %+v, want the case's prompt", cv.req.Messages)
	}

	if done := cv.next(ctx); done {
		t.Fatalf("a turn of tool calls ended the conversation: %+v", a)
	}
	if len(a.Turns) != 1 || len(a.Turns[0].Calls) != 1 || a.Turns[0].Calls[0].Result == "" || a.End != "" {
		t.Fatalf("after the calls, the attempt is %+v", a)
	}
	if n := len(cv.req.Messages); n != 3 || cv.req.Messages[1].Role != model.Assistant || cv.req.Messages[2].Role != model.User {
		t.Fatalf("after the calls, the conversation holds %d messages: %+v", n, cv.req.Messages)
	}

	if done := cv.next(ctx); !done {
		t.Fatal("an answer did not end the conversation")
	}
	if a.End != record.EndAnswered || a.Answer != "The total is 42." || len(a.Turns) != 2 {
		t.Fatalf("after the answer, the attempt is %+v", a)
	}
	if n := len(cv.req.Messages); n != 4 || cv.req.Messages[3].Role != model.Assistant || cv.req.Messages[3].TextOf() != "The total is 42." {
		t.Fatalf("the answer is not the conversation's last message: %+v", cv.req.Messages)
	}
}

// TestConversationTurnCap checks that converse ends the attempt at its turn
// cap after that many steps, each one model turn.
func TestConversationTurnCap(t *testing.T) {
	ctx := context.Background()
	s := loadSuite(t, testSuite)
	call := model.Message{Blocks: []model.Block{{Kind: model.ToolUse, Call: &model.Call{ID: "1", Name: "get_total", Args: []byte(`{}`)}}}}
	m := &scripted{turns: []model.Message{call, call, call}}
	r, err := newRun(Config{Target: testTarget, Suite: s, Model: m, FixedConcurrency: true})
	if err != nil {
		t.Fatal(err)
	}
	conn, err := target.Dial(ctx, r.cfg.Target)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := r.listTools(ctx, conn); err != nil {
		t.Fatal(err)
	}
	c := s.Case("g/total")
	a := &record.Attempt{Case: c.ID, N: 1, Prompt: c.Prompt}
	r.newConversation(conn, c, a).converse(ctx, 2)
	if a.End != record.EndTurnCap || len(a.Turns) != 2 {
		t.Errorf("end %s after %d turns, want %s after 2", a.End, len(a.Turns), record.EndTurnCap)
	}
}
