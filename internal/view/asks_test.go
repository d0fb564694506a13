package view

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
)

// TestAttemptShowsWhatTheServerAsked checks that the attempt page draws,
// escaped, a call's sampling request with the model's answer, its
// elicitation with the answer given, and the user's reply after a turn.
func TestAttemptShowsWhatTheServerAsked(t *testing.T) {
	withAttempt = func(a *record.Attempt) {
		c := &a.Turns[0].Calls[0]
		c.Sampling = []record.Sampling{{MaxTokens: 50, Messages: []record.SampledMessage{{Role: "user", Text: "a haiku " + hostile}},
			Turn: record.Turn{Text: "herons wade " + hostile, Usage: model.Usage{Input: 31, Output: 17}, LatencyMS: 9}}}
		c.Elicitations = []record.Elicitation{{Message: "your name? " + hostile, Action: "decline", Note: "the suite sets no elicitation answer: declined"}}
		a.Turns[0].User = &record.UserTurn{Entry: 1, Text: "go on " + hostile}
		c.Args = json.RawMessage(`{}`)
	}
	t.Cleanup(func() { withAttempt = nil })
	root := standardRuns(t)
	_, ts := newTest(t, root)
	page := attemptPath("new-run", "money/net-worth", 1)
	_, body, _ := get(t, ts.URL, page)
	for _, want := range []string{
		"the server asked the model under test for at most 50 tokens",
		"user: a haiku &lt;script&gt;",
		"herons wade &lt;script&gt;",
		"31 in, 17 out · 9 ms",
		"your name? &lt;script&gt;",
		`answer: <b class="elicit-action">decline</b> <span class="muted">(the suite sets no elicitation answer: declined)</span>`,
		`<pre class="user-says">go on &lt;script&gt;`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the attempt page does not say %q", want)
		}
	}
	checkEscaped(t, page, body)
}
