package otlp_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpeval/mcpeval/internal/export/otlp"
	"github.com/mcpeval/mcpeval/internal/testkit/otlptest"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
)

// conversation is an attempt in which the server asked during the first
// call (a sampling request answered by another model, an elicitation
// declined), a scripted user approved after the first answer and a
// simulated user ended the conversation after the last.
func conversation() []otlp.Attempt {
	a := attempt()
	a.Turns[0].Calls[0].Sampling = []record.Sampling{{
		System: "be brief", MaxTokens: 64, Model: &model.Info{Provider: "openai", Name: "gpt-x"},
		Messages: []record.SampledMessage{{Role: "user", Text: "summarise " + secret}},
		Turn:     record.Turn{Text: "a summary", StopReason: "stop", LatencyMS: 30, Usage: model.Usage{Input: 20, Output: 5}},
	}}
	a.Turns[0].Calls[0].Elicitations = []record.Elicitation{{Message: "Really delete it?", Action: "decline"}}
	a.Turns[0].User = &record.UserTurn{Entry: 1, Text: "Yes, go ahead.", Approves: true}
	a.Turns[1].User = &record.UserTurn{Text: "###STOP###", Stop: true, Model: &model.Info{Provider: "anthropic", Name: "claude-user"},
		Turn: &record.Turn{Text: "###STOP###", LatencyMS: 40, Usage: model.Usage{Input: 300, Output: 4}}}
	it := items()
	it[0].Attempt = a
	return it
}

// TestServerAsksAndUserTurns: what a server asked during a call is a span
// under the call's (a sampling request as a chat with the model that
// answered, an elicitation with its answer), and each user message after an
// answer a span under the attempt's, placed in time after the turn it
// follows; their words go only with the content, redacted.
func TestServerAsksAndUserTurns(t *testing.T) {
	for _, content := range []bool{false, true} {
		r := otlptest.NewReceiver(t)
		if _, err := otlp.Send(context.Background(), conversation(), otlp.Options{Endpoint: r.URL, Content: content}); err != nil {
			t.Fatal(err)
		}
		spans := sorted(r.Spans())
		noSecret(t, spans)
		byName := map[string]otlptest.Span{}
		var names []string
		for _, s := range spans {
			names = append(names, s.Name)
			if _, ok := byName[s.Name]; !ok || s.Name == "user" && s.Attr("mcpeval.user.stop") == true {
				byName[s.Name] = s
			}
		}
		want := []string{"attempt single-tool/net-worth-now #2", "chat claude-x", "chat claude-x", "chat gpt-x", "elicitation",
			"execute_tool get_holdings", "execute_tool get_net_worth", "user", "user"}
		slices.Sort(names) // a call's span and its first child start at once
		if d := cmp.Diff(want, names); d != "" {
			t.Fatalf("spans (-want +got):\n%s", d)
		}
		tool, sampled, elicit := byName["execute_tool get_net_worth"], byName["chat gpt-x"], byName["elicitation"]
		if sampled.StartTimeUnixNano != tool.StartTimeUnixNano {
			t.Errorf("the sampling span starts %d, want with its call at %d", sampled.StartTimeUnixNano, tool.StartTimeUnixNano)
		}
		// The scripted user spoke after the first turn's calls, before the
		// second chat; it took no time.
		if u, c := userSpan(spans, false), lastChat(spans); u.StartTimeUnixNano != c.StartTimeUnixNano {
			t.Errorf("the user's turn starts at %d, want where the next chat starts (%d)", u.StartTimeUnixNano, c.StartTimeUnixNano)
		}
		if sampled.ParentHex() != tool.SpanHex() || elicit.ParentHex() != tool.SpanHex() {
			t.Errorf("sampling parent %s, elicitation parent %s: want the call's span %s", sampled.ParentHex(), elicit.ParentHex(), tool.SpanHex())
		}
		if d := time.Duration(sampled.EndTimeUnixNano - sampled.StartTimeUnixNano); d != 30*time.Millisecond {
			t.Errorf("the sampling span lasts %v, want its 30ms", d)
		}
		checkAttrs(t, sampled, map[string]any{"gen_ai.provider.name": "openai", "gen_ai.usage.input_tokens": int64(20), "mcp.method.name": "sampling/createMessage", "mcpeval.sampling": true, "gen_ai.request.max_tokens": int64(64)})
		checkAttrs(t, elicit, map[string]any{"mcp.method.name": "elicitation/create", "mcpeval.elicitation.action": "decline"})
		root := spans[0]
		var scripted, simulated otlptest.Span
		for _, s := range spans {
			if s.Name == "user" && s.Attr("mcpeval.user.stop") == true {
				simulated = s
			} else if s.Name == "user" {
				scripted = s
			}
		}
		if scripted.ParentHex() != root.SpanHex() || simulated.ParentHex() != root.SpanHex() {
			t.Errorf("user spans' parents %s and %s, want the attempt's %s", scripted.ParentHex(), simulated.ParentHex(), root.SpanHex())
		}
		checkAttrs(t, scripted, map[string]any{"mcpeval.turn": int64(1), "mcpeval.user.entry": int64(1), "mcpeval.user.approves": true})
		checkAttrs(t, simulated, map[string]any{"mcpeval.turn": int64(2), "gen_ai.request.model": "claude-user", "gen_ai.usage.input_tokens": int64(300)})
		msg, _ := scripted.Attr("mcpeval.user.message").(string)
		in, _ := sampled.Attr("gen_ai.input.messages").(string)
		em, _ := elicit.Attr("mcpeval.elicitation.message").(string)
		if !content {
			if msg != "" || in != "" || em != "" {
				t.Errorf("without content: user message %q, sampling input %q, elicitation %q: want none", msg, in, em)
			}
			continue
		}
		if msg != "Yes, go ahead." || !strings.Contains(in, "summarise") || em != "Really delete it?" {
			t.Errorf("with content: user message %q, sampling input %q, elicitation %q", msg, in, em)
		}
		if out, _ := sampled.Attr("gen_ai.output.messages").(string); !strings.Contains(out, "a summary") {
			t.Errorf("sampling output = %q, want the answer", out)
		}
	}
}

func userSpan(spans []otlptest.Span, stop bool) otlptest.Span {
	for _, s := range spans {
		if s.Name == "user" && (s.Attr("mcpeval.user.stop") == true) == stop {
			return s
		}
	}
	return otlptest.Span{}
}

func lastChat(spans []otlptest.Span) otlptest.Span {
	var c otlptest.Span
	for _, s := range spans { // in start order
		if s.Name == "chat claude-x" {
			c = s
		}
	}
	return c
}
