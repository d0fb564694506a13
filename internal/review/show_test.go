package review

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
)

// TestShowWhatTheServerAsked checks that a failed attempt's transcript
// holds, made safe for a terminal, what the server asked while a call ran
// (a sampling request with the answer, one that got an error, an
// elicitation with its answer, a notification) and the user's reply.
func TestShowWhatTheServerAsked(t *testing.T) {
	const bad = "\x1b[2J\x1b]8;;http://x\x07<script>"
	a := &record.Attempt{Case: "asks/x", N: 1, Prompt: "p", End: record.EndAnswered, Answer: "done",
		Turns: []record.Turn{{Text: "calling",
			Calls: []record.Call{{Name: "ask", Args: json.RawMessage(`{}`), Result: "ok", Shown: true,
				Sampling: []record.Sampling{
					{System: "be brief", MaxTokens: 50, Messages: []record.SampledMessage{{Role: "user", Text: "a haiku " + bad}},
						Model: &model.Info{Spec: "fake:sampler"}, Turn: record.Turn{Text: "herons wade " + bad, Usage: model.Usage{Input: 31, Output: 17}}},
					{Messages: []record.SampledMessage{{Role: "user", Text: "again"}}, Error: "the run's budget is spent " + bad},
				},
				Elicitations: []record.Elicitation{{Message: "your name? " + bad, Action: "accept", Content: json.RawMessage(`{"name":"Ada"}`), Note: "note " + bad}},
				Notes:        []record.Note{{Kind: "progress", Progress: 1, Total: 2, Message: "half " + bad}},
			}},
			User: &record.UserTurn{Entry: 2, Text: "yes " + bad, Approves: true}},
			{Text: "done"}},
	}
	var b bytes.Buffer
	if err := Show(&b, Item{Attempt: a, Grade: &grade.AttemptGrade{Case: "asks/x", N: 1}}, false); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"    sampling request, answered by fake:sampler (at most 50 tokens)\n",
		"      system\n        be brief\n",
		"      user\n        a haiku ",
		"      answer (31 in, 17 out)\n        herons wade ",
		"      sampling error: the run's budget is spent ",
		"    elicitation request\n      your name? ",
		"      answer: accept {\"name\":\"Ada\"}\n      (note ",
		"    note progress 1/2: half ",
		"user (the case's turn 2, approving)\n  yes ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the transcript does not say %q:\n%s", want, out)
		}
	}
	if strings.ContainsAny(out, "\x1b\x07") {
		t.Errorf("a terminal escape reached the transcript:\n%q", out)
	}
}
