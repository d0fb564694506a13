package anthropic

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/model"
)

// TestCacheMarks: a first turn marks the tools and the system prompt for
// the cache and no message; a later turn marks the last block of the
// conversation so far too, and nothing else of it.
func TestCacheMarks(t *testing.T) {
	f := newFake(t, reply(200, secondAnswer))
	m := newModel(t, f, "anthropic:claude-sonnet-5-5", Config{})
	req := &model.Request{System: "You operate containers.", Tools: tools,
		Messages: []model.Message{{Role: model.User, Blocks: []model.Block{{Kind: model.Text, Text: "Stop web."}}}}}
	if _, err := m.Generate(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	req.Messages = append(req.Messages,
		model.Message{Role: model.Assistant, Blocks: []model.Block{{Kind: model.ToolUse, Call: &model.Call{ID: "toolu_01", Name: "container_stop", Args: json.RawMessage(`{"id":"web"}`)}}}},
		model.Message{Role: model.User, Blocks: []model.Block{{Kind: model.ToolResult, Result: &model.Result{CallID: "toolu_01", Content: "stopped"}}}})
	if _, err := m.Generate(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	for n, want := range [][]bool{{false}, {false, false, true}} {
		var body struct {
			Messages []struct {
				Content []struct {
					CacheControl json.RawMessage `json:"cache_control"`
				} `json:"content"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(f.Raw[n], &body); err != nil {
			t.Fatal(err)
		}
		if len(body.Messages) != len(want) {
			t.Fatalf("request %d: %d messages", n+1, len(body.Messages))
		}
		for i, msg := range body.Messages {
			for j, b := range msg.Content {
				marked := string(b.CacheControl) == `{"type":"ephemeral"}`
				if marked != (want[i] && j == len(msg.Content)-1) {
					t.Errorf("request %d message %d block %d: cache_control %s", n+1, i, j, b.CacheControl)
				}
			}
		}
	}
}

// TestRateLimitHeaders: the answer's anthropic-ratelimit-* headers reach
// the response, with the tightest of the token limits.
func TestRateLimitHeaders(t *testing.T) {
	reset := time.Now().Add(30 * time.Second).UTC().Truncate(time.Second)
	f := newFake(t, reply(200, secondAnswer,
		"anthropic-ratelimit-requests-limit", "50",
		"anthropic-ratelimit-requests-remaining", "49",
		"anthropic-ratelimit-requests-reset", reset.Format(time.RFC3339),
		"anthropic-ratelimit-input-tokens-limit", "30000",
		"anthropic-ratelimit-input-tokens-remaining", "29000",
		"anthropic-ratelimit-input-tokens-reset", reset.Format(time.RFC3339),
		"anthropic-ratelimit-output-tokens-limit", "8000",
		"anthropic-ratelimit-output-tokens-remaining", "1000",
		"anthropic-ratelimit-output-tokens-reset", reset.Add(time.Second).Format(time.RFC3339)))
	m := newModel(t, f, "anthropic:claude-sonnet-5-5", Config{})
	resp, err := m.Generate(context.Background(), hello())
	if err != nil {
		t.Fatal(err)
	}
	want := model.RateLimit{Requests: 50, RequestsLeft: 49, RequestsReset: reset, Tokens: 8000, TokensLeft: 1000, TokensReset: reset.Add(time.Second)}
	if resp.RateLimit == nil || !resp.RateLimit.RequestsReset.Equal(want.RequestsReset) || !resp.RateLimit.TokensReset.Equal(want.TokensReset) ||
		resp.RateLimit.Requests != 50 || resp.RateLimit.RequestsLeft != 49 || resp.RateLimit.Tokens != 8000 || resp.RateLimit.TokensLeft != 1000 {
		t.Errorf("rate limit %+v, want %+v", resp.RateLimit, want)
	}
}
