package htmlreport

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
)

// askedHostile is written into every field of what a server asked and
// what was answered; none of it may reach the page as markup or as a
// terminal escape.
const askedHostile = "<script>alert(1)</script>\x1b[31m|a|b|"

// withAsks gives the first call of attempt a a sampling request answered
// by another model, one that got an error, an elicitation answered, and
// gives its first turn a user's reply.
func withAsks(t *testing.T, a *record.Attempt) {
	t.Helper()
	for i := range a.Turns {
		if len(a.Turns[i].Calls) == 0 {
			continue
		}
		c := &a.Turns[i].Calls[0]
		c.Sampling = []record.Sampling{
			{System: "be brief " + askedHostile, MaxTokens: 50, Messages: []record.SampledMessage{{Role: "user", Text: "a haiku " + askedHostile}},
				Model: &model.Info{Spec: "fake:sampler", Provider: "fake", Name: "sampler"},
				Turn:  record.Turn{Text: "herons wade " + askedHostile, Usage: model.Usage{Input: 31, Output: 17}, LatencyMS: 9}},
			{Messages: []record.SampledMessage{{Role: "user", Text: "again"}}, Error: "the run's budget is spent: sampling refused " + askedHostile},
		}
		c.Elicitations = []record.Elicitation{{Message: "your name? " + askedHostile, Action: "accept",
			Content: json.RawMessage(`{"name":"Ada ` + strings.ReplaceAll(askedHostile, "\x1b", `\u001b`) + `"}`), Note: "noted " + askedHostile}}
		a.Turns[i].User = &record.UserTurn{Entry: 2, Text: "yes, go on " + askedHostile, Approves: true}
		return
	}
	t.Fatal("the attempt makes no call")
}

// TestAsksOnThePage checks that what a server asked during a call (its
// sampling requests with the answers or errors, its elicitations with the
// answers given) and the user's turns are drawn, escaped.
func TestAsksOnThePage(t *testing.T) {
	p := fixture(t)
	withAsks(t, &p.Run.Attempts[0])
	page := render(t, p)
	esc := "&lt;script&gt;alert(1)&lt;/script&gt;\\x1b[31m|a|b|"
	for _, want := range []string{
		`<b>sampling</b> <span class="muted">the server asked <span class="mono">fake:sampler</span> for at most 50 tokens</span>`,
		"be brief " + esc,
		"user: a haiku " + esc + "\n",
		"herons wade " + esc,
		"31 in, 17 out · 9 ms",
		"the run&#39;s budget is spent: sampling refused " + esc,
		"the server asked the model under test",
		"your name? " + esc,
		`answer: <b class="elicit-action">accept</b> <span class="muted">(noted ` + esc + `)</span>`,
		"&#34;Ada &lt;script&gt;",
		`<h3>User <span class="muted">(the case's turn 2, approving)</span></h3><pre class="user-says">yes, go on ` + esc,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page does not say %q", want)
		}
	}
	for _, bad := range []string{"<script>alert", "\x1b"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page holds %q unescaped", bad)
		}
	}
}
