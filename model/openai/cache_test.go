package openai

import (
	"context"
	"testing"
	"time"
)

// TestPromptCacheKey: a request's cache key goes out as prompt_cache_key,
// and a request without one sends none.
func TestPromptCacheKey(t *testing.T) {
	f := newFake(t, reply(200, secondAnswer))
	m := newModel(t, f, "openai:gpt-5.5", Config{})
	req := hello()
	req.CacheKey = "mcpeval:household:0123456789abcdef"
	if _, err := m.Generate(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Generate(context.Background(), hello()); err != nil {
		t.Fatal(err)
	}
	if got := f.Reqs[0]["prompt_cache_key"]; got != req.CacheKey {
		t.Errorf("prompt_cache_key %v, want %q", got, req.CacheKey)
	}
	if got, ok := f.Reqs[1]["prompt_cache_key"]; ok {
		t.Errorf("a request without a cache key sent prompt_cache_key %v", got)
	}
}

// TestRateLimitHeaders: the answer's x-ratelimit-* headers reach the
// response, resets read as durations from when it came.
func TestRateLimitHeaders(t *testing.T) {
	f := newFake(t, reply(200, secondAnswer,
		"x-ratelimit-limit-requests", "500",
		"x-ratelimit-remaining-requests", "499",
		"x-ratelimit-reset-requests", "120ms",
		"x-ratelimit-limit-tokens", "30000",
		"x-ratelimit-remaining-tokens", "29000",
		"x-ratelimit-reset-tokens", "6m0s"))
	m := newModel(t, f, "openai:gpt-5.5", Config{})
	before := time.Now()
	resp, err := m.Generate(context.Background(), hello())
	after := time.Now()
	if err != nil {
		t.Fatal(err)
	}
	rl := resp.RateLimit
	if rl == nil || rl.Requests != 500 || rl.RequestsLeft != 499 || rl.Tokens != 30000 || rl.TokensLeft != 29000 {
		t.Fatalf("rate limit %+v", rl)
	}
	if rl.RequestsReset.Before(before.Add(120*time.Millisecond)) || rl.RequestsReset.After(after.Add(120*time.Millisecond)) ||
		rl.TokensReset.Before(before.Add(6*time.Minute)) || rl.TokensReset.After(after.Add(6*time.Minute)) {
		t.Errorf("resets %v and %v, want 120ms and 6m after the answer", rl.RequestsReset, rl.TokensReset)
	}
}
