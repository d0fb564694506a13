package judge

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/retry"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/anthropic"
	"github.com/mcpeval/mcpeval/model/openai"
)

type stub struct {
	reply string
	err   error
	seen  *model.Request
}

func (s *stub) Generate(_ context.Context, r *model.Request) (*model.Response, error) {
	s.seen = r
	if s.err != nil {
		return nil, s.err
	}
	return &model.Response{Message: model.Message{Role: model.Assistant, Blocks: []model.Block{
		{Kind: model.Thinking, Text: "ANSWERS would be wrong here"},
		{Kind: model.Text, Text: s.reply},
	}}}, nil
}

var info = model.Info{Spec: "anthropic:claude-haiku-5-5;base_url=http://x", Provider: "anthropic", Name: "claude-haiku-5-5"}

func TestModelJudge(t *testing.T) {
	for _, c := range []struct {
		reply string
		want  grade.Opinion
	}{
		{"DECLINES\nIt says no tool returns prices.", grade.Opinion{Declines: true, Reason: "It says no tool returns prices.", Model: "anthropic:claude-haiku-5-5"}},
		{"**Declines.** It asks which container.", grade.Opinion{Declines: true, Reason: "It asks which container.", Model: "anthropic:claude-haiku-5-5"}},
		{"answers - gives a figure", grade.Opinion{Declines: false, Reason: "gives a figure", Model: "anthropic:claude-haiku-5-5"}},
		{"ANSWERS", grade.Opinion{Declines: false, Reason: "", Model: "anthropic:claude-haiku-5-5"}},
	} {
		s := &stub{reply: c.reply}
		got, err := New(s, info).Declines(context.Background(), "What's the price of VOO?", "No tool returns prices.")
		if err != nil {
			t.Fatalf("%q: %v", c.reply, err)
		}
		if d := cmp.Diff(c.want, got); d != "" {
			t.Errorf("%q (-want +got):\n%s", c.reply, d)
		}
		if s.seen.System != Rubric || len(s.seen.Tools) != 0 {
			t.Errorf("judge request: system %q, %d tools", s.seen.System, len(s.seen.Tools))
		}
		if u := s.seen.Messages[0].TextOf(); !strings.Contains(u, "What's the price of VOO?") || !strings.Contains(u, "No tool returns prices.") {
			t.Errorf("judge was not shown the question and answer: %q", u)
		}
	}
}

func TestModelJudgeFails(t *testing.T) {
	for _, s := range []*stub{
		{reply: "Maybe. Hard to say."},
		{reply: ""},
		{err: &model.ProviderError{Tries: []model.Try{{Status: 529}}, Err: errors.New("overloaded")}},
	} {
		if op, err := New(s, info).Declines(context.Background(), "q", "a"); err == nil {
			t.Errorf("reply %q, err %v: got opinion %+v, want an error", s.reply, s.err, op)
		}
	}
	_, err := New(&stub{err: &model.ProviderError{Err: errors.New("x")}}, info).Declines(context.Background(), "q", "a")
	if !model.IsProviderError(err) {
		t.Errorf("a provider failure must stay recognisable: %v", err)
	}
}

func TestFake(t *testing.T) {
	var f Fake
	for answer, want := range map[string]bool{
		"I can’t see prices: no tool returns them.": true,
		"Could you clarify which balance you mean?": true,
		"Your net worth is SGD 2,394,755.":          false,
	} {
		op, err := f.Declines(context.Background(), "q", answer)
		if err != nil || op.Declines != want || op.Model != "fake:phrases" {
			t.Errorf("Fake.Declines(%q) = %+v, %v; want %v", answer, op, err, want)
		}
	}
	if op, _ := (Fake{Phrases: []string{"nope"}}).Declines(context.Background(), "q", "I cannot. Nope."); !op.Declines || op.Reason != `contains "nope"` {
		t.Errorf("custom phrases: %+v", op)
	}
}

// TestJudgeOnProviders asks the real providers, against servers speaking
// their wire formats, so the judge is known to work on both.
func TestJudgeOnProviders(t *testing.T) {
	anth := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			System []struct {
				Text string `json:"text"`
			} `json:"system"`
		}
		b, _ := io.ReadAll(r.Body)
		json.Unmarshal(b, &body)
		if len(body.System) != 1 || body.System[0].Text != Rubric {
			t.Errorf("anthropic judge request system = %s", b)
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"msg_1","type":"message","role":"assistant","model":"claude-haiku-5-5",
		  "content":[{"type":"text","text":"DECLINES\nSays it cannot."}],"stop_reason":"end_turn",
		  "usage":{"input_tokens":90,"output_tokens":6,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}}`)
	}))
	defer anth.Close()
	oai := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"c1","object":"chat.completion","created":1,"model":"gpt-6-luna",
		  "choices":[{"index":0,"message":{"role":"assistant","content":"ANSWERS\nGives a number."},"finish_reason":"stop"}],
		  "usage":{"prompt_tokens":90,"completion_tokens":5,"total_tokens":95}}`)
	}))
	defer oai.Close()

	ai, _ := model.ParseSpec("anthropic:claude-haiku-5-5")
	am, err := anthropic.New(ai, anthropic.Config{APIKey: "k", BaseURL: anth.URL, Retry: retry.Policy{MaxTries: 1}})
	if err != nil {
		t.Fatal(err)
	}
	oi, _ := model.ParseSpec("openai:gpt-6-luna")
	om, err := openai.New(oi, openai.Config{BaseURL: oai.URL + "/v1", Retry: retry.Policy{MaxTries: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if op, err := New(am, ai).Declines(context.Background(), "q", "a"); err != nil || !op.Declines || op.Model != "anthropic:claude-haiku-5-5" {
		t.Errorf("anthropic judge = %+v, %v", op, err)
	}
	if op, err := New(om, oi).Declines(context.Background(), "q", "a"); err != nil || op.Declines || op.Reason != "Gives a number." {
		t.Errorf("openai judge = %+v, %v", op, err)
	}
}
