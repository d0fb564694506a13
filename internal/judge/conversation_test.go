package judge

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// TestJudgeReadsTheConversation: when the user spoke again, the judge is
// asked about the whole exchange (the prompt, each answer the user
// answered and what the user said) and the final answer; a simulated
// user's closing stop is not part of it, nor is the question judged. An
// attempt without user turns is put to the judge exactly as before, and
// what Ask keeps of an attempt when a run is read as a stream
// (Question) asks the judge the same.
func TestJudgeReadsTheConversation(t *testing.T) {
	s := &suite.Suite{Cases: []*suite.Case{planCase}}
	a := record.Attempt{Case: "agent/plan", N: 1, Prompt: "Plan my week.", End: record.EndAnswered, Answer: "Mon: gym. Tue: dentist.",
		Turns: []record.Turn{
			{Text: "Which days do you work?", User: &record.UserTurn{Entry: 1, Text: "Monday and Tuesday."}},
			{Text: "Mon: gym. Tue: dentist.", User: &record.UserTurn{Text: "###STOP###", Stop: true, Model: &model.Info{Provider: "fake", Name: "user"}}},
		}}
	for _, run := range []record.Attempt{a, Question(&a)} {
		m := replies(pass)
		Ask(context.Background(), New(m, model.Info{Provider: "script", Name: "judge"}), s, &record.Run{Attempts: []record.Attempt{run}}, 1, 1)
		if len(m.prompts) != 1 {
			t.Fatalf("%d asks, want 1", len(m.prompts))
		}
		p := m.prompts[0]
		for _, want := range []string{"<request>\nPlan my week.\n\n<assistant>\nWhich days do you work?\n</assistant>\n\n<user>\nMonday and Tuesday.\n</user>\n</request>", "<answer>\nMon: gym. Tue: dentist.\n</answer>"} {
			if !strings.Contains(p, want) {
				t.Errorf("the judge was asked\n%s\nwant it to contain\n%s", p, want)
			}
		}
		if strings.Contains(p, "###STOP###") {
			t.Errorf("the judge was shown the simulated user's stop:\n%s", p)
		}
	}
	plain := record.Attempt{Prompt: "Plan my week.", Turns: []record.Turn{{Text: "Mon: gym."}}}
	if got := Conversation(&plain); got != "Plan my week." {
		t.Errorf("an attempt without user turns reads %q, want the prompt alone", got)
	}
}
