package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
)

// TestMarkdownTranscripts checks that the Markdown report's transcripts
// show what the server asked during a call (a sampling request with the
// answer, one that got an error, an elicitation with its answer, a
// notification) and the user's reply, with no text able to end a list
// item, start HTML or markup, or act on a terminal.
func TestMarkdownTranscripts(t *testing.T) {
	const bad = "</details><script>x</script> | **b** \x1b[2J\n# head"
	a := record.Attempt{Case: "asks/x", N: 1, Prompt: "p " + bad, End: record.EndAnswered, Answer: "done " + bad,
		Turns: []record.Turn{{Text: "calling " + bad,
			Calls: []record.Call{{Name: "ask", Args: json.RawMessage(`{"q":"` + "`|" + `"}`), Result: "ok " + bad, Shown: true,
				Sampling: []record.Sampling{
					{System: "be brief", MaxTokens: 50, Messages: []record.SampledMessage{{Role: "user", Text: "a haiku " + bad}},
						Model: &model.Info{Spec: "fake:sampler"}, Turn: record.Turn{Text: "herons wade " + bad, Usage: model.Usage{Input: 31, Output: 17}}},
					{Messages: []record.SampledMessage{{Role: "user", Text: "again"}}, Error: "the run's budget is spent " + bad},
				},
				Elicitations: []record.Elicitation{{Message: "your name? " + bad, Action: "accept", Content: json.RawMessage(`{"name":"Ada"}`), Note: "note " + bad}},
				Notes:        []record.Note{{Kind: "log", Level: "info", Message: "half " + bad}},
			}},
			User: &record.UserTurn{Entry: 2, Text: "yes " + bad, Approves: true}},
			{Text: "done"}},
	}
	res := &grade.Result{RunID: "r", Model: "fake:x", Valid: true,
		Attempts: []grade.AttemptGrade{{Case: "asks/x", N: 1, Outcome: grade.Pass}}}
	var b bytes.Buffer
	if err := Markdown(&b, res, nil, nil, WithTranscripts(&Transcripts{Attempts: []record.Attempt{a}, More: 3})); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	esc := `&lt;/details&gt;&lt;script&gt;x&lt;/script&gt; \| \*\*b\*\* \\x1b\[2J # head`
	for _, want := range []string{
		"<details><summary>Transcripts (1)</summary>",
		"#### `asks/x` #1 (pass)",
		"- **turn 1** (0 in, 0 out): calling " + esc,
		"  - call `ask` ``{\"q\":\"`|\"}`` → ok " + esc,
		"    - **sampling** answered by `fake:sampler` (at most 50 tokens)\n",
		"      - user: a haiku " + esc,
		"      - answer (31 in, 17 out): herons wade " + esc,
		"      - **sampling error:** the run's budget is spent " + esc,
		"    - **elicitation:** your name? " + esc,
		"      - answer: **accept** `{\"name\":\"Ada\"}` (note " + esc + ")",
		"    - note: log info: half " + esc,
		"- **user** (the case's turn 2, approving): yes " + esc,
		"3 attempts more not shown",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown does not say %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "\x1b") || strings.Count(md, "</details>") != 1 || strings.Contains(md, "<script>") || strings.Contains(md, "\n# head") {
		t.Errorf("hostile text reached the Markdown as markup:\n%s", md)
	}
	// Without the option, no transcripts: a pull request's summary stays short.
	b.Reset()
	if err := Markdown(&b, res, nil, nil); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "Transcripts") {
		t.Error("a Markdown report without WithTranscripts shows transcripts")
	}
}
