package openai

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpeval/mcpeval/internal/retry"
	"github.com/mcpeval/mcpeval/internal/testkit/providertest"
	"github.com/mcpeval/mcpeval/model"
)

// key is planted in every test; it must never come back out.
const key = "sk-proj-PLANTED-test-key-0123456789abcdef"

// fake is a server speaking chat completions (see providertest.Recorder).
type fake = providertest.Recorder

var (
	newFake = providertest.NewRecorder
	reply   = providertest.Reply
)

func newModel(t *testing.T, f *fake, spec string, cfg Config) *Model {
	t.Helper()
	cfg.APIKey = key
	cfg.BaseURL = f.URL + "/v1"
	if cfg.Retry.Sleep == nil {
		cfg.Retry.Sleep = (&providertest.Sleeps{}).Sleep
	}
	return providertest.MustOpen(t, spec, cfg, New)
}

var tools = []model.Tool{
	{Name: "list containers", Description: "Lists containers.", InputSchema: json.RawMessage(`{"type":"object","properties":{"all":{"type":"boolean"},"limit":{"type":"integer","maximum":100}},"additionalProperties":false}`)},
	{Name: "container_stop", Description: "Stops a container.", InputSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`)},
}

// The first answer calls two tools at once; the second call's arguments are
// cut short, as a model may write them.
const firstAnswer = `{
  "id": "chatcmpl-1", "object": "chat.completion", "created": 1764400000, "model": "gpt-6-sol",
  "choices": [{
    "index": 0,
    "message": {
      "role": "assistant", "content": null, "refusal": null,
      "reasoning_content": "Two calls at once.",
      "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "list_containers", "arguments": "{\"all\": true}"}},
        {"id": "call_2", "type": "function", "function": {"name": "container_stop", "arguments": "{\"id\": \"web\""}}
      ]
    },
    "logprobs": null, "finish_reason": "tool_calls"
  }],
  "usage": {"prompt_tokens": 2000, "completion_tokens": 50, "total_tokens": 2050,
            "prompt_tokens_details": {"cached_tokens": 1500, "audio_tokens": 0},
            "completion_tokens_details": {"reasoning_tokens": 20}}
}`

const secondAnswer = `{
  "id": "chatcmpl-2", "object": "chat.completion", "created": 1764400001, "model": "gpt-6-sol",
  "choices": [{"index": 0, "message": {"role": "assistant", "content": "Stopped web."}, "finish_reason": "stop"}],
  "usage": {"prompt_tokens": 100, "completion_tokens": 5, "total_tokens": 105,
            "prompt_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 60}}
}`

func TestConversation(t *testing.T) {
	f := newFake(t, reply(200, firstAnswer), reply(200, secondAnswer))
	m := newModel(t, f, "openai:gpt-6-sol;max_tokens=500;temperature=0.2;top_p=0.9;reasoning_effort=low;seed=7", Config{})
	providertest.TwoTurns(t, m, tools,
		&model.Response{
			Message: model.Message{Role: model.Assistant, Blocks: []model.Block{
				{Kind: model.Thinking, Text: "Two calls at once."},
				{Kind: model.ToolUse, Call: &model.Call{ID: "call_1", Name: "list containers", WireName: "list_containers", Args: json.RawMessage(`{"all": true}`)}},
				{Kind: model.ToolUse, Call: &model.Call{ID: "call_2", Name: "container_stop", Args: json.RawMessage(`{"id": "web"`)}},
			}},
			StopReason: "tool_calls",
			Usage:      model.Usage{Input: 500, Output: 50, CacheRead: 1500},
		},
		[]model.Result{
			{CallID: "call_1", Name: "list containers", Content: `[{"id":"web"}]`},
			{CallID: "call_2", Name: "container_stop", Content: "arguments are not valid JSON", IsError: true},
		},
		"stop", model.Usage{Input: 40, Output: 5, CacheWrite: 60})

	if f.Paths[0] != "POST /v1/chat/completions" {
		t.Errorf("request went to %s", f.Paths[0])
	}
	if got := f.Headers[0].Get("Authorization"); got != "Bearer "+key {
		t.Errorf("Authorization = %q", got)
	}
	got := f.Reqs[0]
	for k, want := range map[string]any{
		"model": "gpt-6-sol", "max_completion_tokens": 500.0, "temperature": 0.2, "top_p": 0.9,
		"reasoning_effort": "low", "seed": 7.0,
	} {
		if got[k] != want {
			t.Errorf("%s = %v, want %v", k, got[k], want)
		}
	}
	if _, ok := got["max_tokens"]; ok {
		t.Error("max_tokens sent; want max_completion_tokens")
	}
	wantMsgs := []any{
		map[string]any{"role": "system", "content": "You operate containers."},
		map[string]any{"role": "user", "content": "Stop web."},
	}
	if d := cmp.Diff(wantMsgs, got["messages"]); d != "" {
		t.Errorf("messages (-want +got):\n%s", d)
	}
	wantTools := []any{
		map[string]any{"type": "function", "function": map[string]any{
			"name": "list_containers", "description": "Lists containers.",
			"parameters": map[string]any{"type": "object", "properties": map[string]any{"all": map[string]any{"type": "boolean"}, "limit": map[string]any{"type": "integer", "maximum": 100.0}}, "additionalProperties": false},
		}},
		map[string]any{"type": "function", "function": map[string]any{
			"name": "container_stop", "description": "Stops a container.",
			"parameters": map[string]any{"type": "object", "properties": map[string]any{"id": map[string]any{"type": "string"}}, "required": []any{"id"}},
		}},
	}
	if d := cmp.Diff(wantTools, got["tools"]); d != "" {
		t.Errorf("tools (-want +got):\n%s", d)
	}

	wantMsgs = append(wantMsgs,
		map[string]any{"role": "assistant", "tool_calls": []any{
			map[string]any{"id": "call_1", "type": "function", "function": map[string]any{"name": "list_containers", "arguments": `{"all": true}`}},
			map[string]any{"id": "call_2", "type": "function", "function": map[string]any{"name": "container_stop", "arguments": `{"id": "web"`}},
		}},
		map[string]any{"role": "tool", "tool_call_id": "call_1", "content": `[{"id":"web"}]`},
		map[string]any{"role": "tool", "tool_call_id": "call_2", "content": "Error: arguments are not valid JSON"},
	)
	if d := cmp.Diff(wantMsgs, f.Reqs[1]["messages"]); d != "" {
		t.Errorf("second request messages (-want +got):\n%s", d)
	}
}

func TestRateLimitThenSuccess(t *testing.T) {
	f := newFake(t,
		reply(429, `{"error":{"message":"Rate limit reached for requests","type":"requests","param":null,"code":"rate_limit_exceeded"}}`, "retry-after-ms", "1500", "retry-after", "2"),
		reply(200, secondAnswer))
	s := &providertest.Sleeps{}
	m := newModel(t, f, "openai:gpt-6-sol", Config{Retry: retry.Policy{MaxTries: 3, Sleep: s.Sleep}})
	// retry-after-ms, the finer of the two, is the wait taken.
	providertest.RetriedAfter(t, f, m, s, model.Try{Status: 429, Error: "requests: Rate limit reached for requests", WaitMS: 1500}, 1500*time.Millisecond)
}

func TestServerErrorsUntilTriesRunOut(t *testing.T) {
	f := newFake(t, reply(503, `{"error":{"message":"The server is overloaded","type":"server_error","param":null,"code":null}}`))
	s := &providertest.Sleeps{}
	m := newModel(t, f, "openai:gpt-6-sol", Config{Retry: retry.Policy{MaxTries: 4, Sleep: s.Sleep}})
	providertest.TriesRunOut(t, f, m, s, 4, 503, "server_error: The server is overloaded")
}

func TestNotRetried(t *testing.T) {
	for _, c := range []struct {
		name   string
		reply  func(http.ResponseWriter, *http.Request)
		status int
		text   string
	}{
		{"unauthorized", reply(401, `{"error":{"message":"Incorrect API key provided: sk-proj-****cdef.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`), 401, "invalid_request_error: Incorrect API key provided"},
		{"unknown model", reply(404, `{"error":{"message":"The model 'gpt-nope' does not exist","type":"invalid_request_error","param":null,"code":"model_not_found"}}`), 404, "does not exist"},
		{"ollama style", reply(400, `{"error":"registry.ollama.ai/library/qwen3 does not support tools"}`), 400, "does not support tools"},
		{"malformed body", reply(200, `{"id":"chatcmpl-1","choices":[{"message":{"content":"cut`), 200, "reading the answer"},
		{"no choices", reply(200, `{"id":"chatcmpl-1","object":"chat.completion","choices":[]}`), 200, "has no choices"},
		{"echoed key", func(w http.ResponseWriter, r *http.Request) {
			reply(403, `{"error":{"message":"key `+key+` via `+r.Header.Get("Authorization")+` is not allowed","type":"forbidden"}}`)(w, r)
		}, 403, "forbidden: key [redacted]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t, c.reply, reply(200, secondAnswer))
			m := newModel(t, f, "openai:gpt-6-sol", Config{})
			providertest.NotRetried(t, f, m, c.status, c.text)
		})
	}
}

func TestTimeoutAndReset(t *testing.T) {
	stall, ended := providertest.Stall(t)
	f := newFake(t, stall, providertest.Reset(t), reply(200, secondAnswer))
	m := newModel(t, f, "openai:gpt-6-sol", Config{Timeout: 50 * time.Millisecond})
	resp, err := m.Generate(context.Background(), hello())
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Tries) != 2 || resp.Tries[0].Error != "no answer within 50ms" || !strings.Contains(resp.Tries[1].Error, "connection reset") {
		t.Errorf("tries = %+v", resp.Tries)
	}
	if why := <-ended; why != "client gave up" {
		t.Errorf("the first request ended: %s, want the client to give up at the timeout", why)
	}
}

func TestLocalServer(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-env-key-must-not-be-sent")
	f := newFake(t, reply(200, secondAnswer))
	m := providertest.MustOpen(t, "openai:qwen3:8b;base_url="+f.URL, Config{}, New)
	if _, err := m.Generate(context.Background(), hello()); err != nil {
		t.Fatal(err)
	}
	if f.Paths[0] != "POST /v1/chat/completions" {
		t.Errorf("request went to %s, want /v1 added to a bare base URL", f.Paths[0])
	}
	if got := f.Headers[0].Get("Authorization"); got != "" {
		t.Errorf("Authorization = %q, want none for a keyless local server", got)
	}
	if f.Reqs[0]["model"] != "qwen3:8b" {
		t.Errorf("model = %v", f.Reqs[0]["model"])
	}
}

func TestNewRefuses(t *testing.T) {
	providertest.Refuses(t, New, Config{APIKey: key}, map[string]string{
		"openai:m;effort=low":             "allowed: base_url, max_tokens, reasoning_effort, seed, temperature, top_p",
		"openai:m;temperature=3":          "temperature",
		"openai:m;temperature=NaN":        "want a number from 0 to 2",
		"openai:m;top_p=x":                "top_p",
		"openai:m;reasoning_effort=turbo": "reasoning_effort",
		"openai:m;seed=1.5":               "seed",
		"openai:m;max_tokens=-1":          "max_tokens",
		"openai:m;base_url=localhost":     "not an http(s) URL",
		"anthropic:m":                     "not openai",
	})
	providertest.Refuses(t, New, Config{}, map[string]string{"openai:gpt-6-sol": "OPENAI_API_KEY"})
}

var hello = providertest.Hello
