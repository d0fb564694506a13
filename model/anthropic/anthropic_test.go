package anthropic

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
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
const key = "sk-ant-api03-PLANTED-test-key-0123456789abcdef"

// fake is a server speaking the Messages API (see providertest.Recorder).
type fake = providertest.Recorder

// newFake starts a fake; every request must be POST /v1/messages.
func newFake(t *testing.T, replies ...func(w http.ResponseWriter, r *http.Request)) *fake {
	f := providertest.NewRecorder(t, replies...)
	t.Cleanup(func() {
		for _, p := range f.Paths {
			if p != "POST /v1/messages" {
				t.Errorf("request %s, want POST /v1/messages", p)
			}
		}
	})
	return f
}

// reply is a Messages API reply, with its request-id.
func reply(status int, body string, header ...string) func(http.ResponseWriter, *http.Request) {
	return providertest.Reply(status, body, append([]string{"request-id", "req_test"}, header...)...)
}

func overloaded() func(http.ResponseWriter, *http.Request) {
	return reply(529, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_x"}`)
}

func newModel(t *testing.T, f *fake, spec string, cfg Config) *Model {
	t.Helper()
	cfg.APIKey = key
	cfg.BaseURL = f.URL
	if cfg.Retry.Sleep == nil {
		cfg.Retry.Sleep = (&providertest.Sleeps{}).Sleep
	}
	return providertest.MustOpen(t, spec, cfg, New)
}

var tools = []model.Tool{
	{Name: "list containers", Description: "Lists containers.", InputSchema: json.RawMessage(`{"type":"object","properties":{"all":{"type":"boolean"}},"additionalProperties":false}`)},
	{Name: "container_stop", Description: "Stops a container.", InputSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`)},
}

const thinkingBlock = `{"type":"thinking","thinking":"Two reads at once.","signature":"EqQBCkYIBxgCKkB+sig/with+odd==chars"}`
const redactedBlock = `{"type":"redacted_thinking","data":"EmwKAhgBEgy3va3pzix/LafPsn4a"}`

// first answer: thinking, redacted thinking, text and two parallel calls,
// one to a tool whose MCP name had to be mapped.
var firstAnswer = `{
  "id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-5-5",
  "content": [
    ` + thinkingBlock + `,
    ` + redactedBlock + `,
    {"type": "text", "text": "Let me look."},
    {"type": "tool_use", "id": "toolu_01", "name": "list_containers", "input": {"all":true, "b":1}},
    {"type": "tool_use", "id": "toolu_02", "name": "container_stop", "input": {"id":"web"}}
  ],
  "stop_reason": "tool_use", "stop_sequence": null,
  "usage": {"input_tokens": 120, "output_tokens": 80, "cache_creation_input_tokens": 1500, "cache_read_input_tokens": 0,
            "cache_creation": {"ephemeral_5m_input_tokens": 1500, "ephemeral_1h_input_tokens": 0}, "service_tier": "standard"}
}`

var secondAnswer = `{
  "id": "msg_02", "type": "message", "role": "assistant", "model": "claude-sonnet-5-5",
  "content": [{"type": "text", "text": "Stopped web."}],
  "stop_reason": "end_turn", "stop_sequence": null,
  "usage": {"input_tokens": 40, "output_tokens": 9, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 1500}
}`

func TestConversation(t *testing.T) {
	f := newFake(t, reply(200, firstAnswer), reply(200, secondAnswer))
	m := newModel(t, f, "anthropic:claude-sonnet-5-5;max_tokens=2000;effort=medium", Config{})
	providertest.TwoTurns(t, m, tools,
		&model.Response{
			Message: model.Message{Role: model.Assistant, Blocks: []model.Block{
				{Kind: model.Thinking, Text: "Two reads at once.", Opaque: json.RawMessage(thinkingBlock)},
				{Kind: model.Thinking, Opaque: json.RawMessage(redactedBlock)},
				{Kind: model.Text, Text: "Let me look."},
				{Kind: model.ToolUse, Call: &model.Call{ID: "toolu_01", Name: "list containers", WireName: "list_containers", Args: json.RawMessage(`{"all":true, "b":1}`)}},
				{Kind: model.ToolUse, Call: &model.Call{ID: "toolu_02", Name: "container_stop", Args: json.RawMessage(`{"id":"web"}`)}},
			}},
			StopReason: "tool_use",
			Usage:      model.Usage{Input: 120, Output: 80, CacheWrite: 1500},
		},
		// The next turn sends the assistant's content back as it came.
		[]model.Result{
			{CallID: "toolu_01", Name: "list containers", Content: `[{"id":"web"}]`},
			{CallID: "toolu_02", Name: "container_stop", Content: "container web is locked", IsError: true},
		},
		"end_turn", model.Usage{Input: 40, Output: 9, CacheRead: 1500})
	checkFirstRequest(t, f.Reqs[0], f.Headers[0])
	checkSentBack(t, f.Raw[1])
}

// checkFirstRequest checks the first request of TestConversation: the
// spec's settings, the system prompt and the tools, cached at their end.
func checkFirstRequest(t *testing.T, got map[string]any, h http.Header) {
	t.Helper()
	if got["model"] != "claude-sonnet-5-5" || got["max_tokens"] != 2000.0 {
		t.Errorf("model %v, max_tokens %v", got["model"], got["max_tokens"])
	}
	if d := cmp.Diff(map[string]any{"effort": "medium"}, got["output_config"]); d != "" {
		t.Errorf("output_config (-want +got):\n%s", d)
	}
	for _, k := range []string{"temperature", "top_p", "thinking"} {
		if _, ok := got[k]; ok {
			t.Errorf("request has %s, which the spec did not set", k)
		}
	}
	wantSystem := []any{map[string]any{"type": "text", "text": "You operate containers.", "cache_control": map[string]any{"type": "ephemeral"}}}
	if d := cmp.Diff(wantSystem, got["system"]); d != "" {
		t.Errorf("system (-want +got):\n%s", d)
	}
	sentTools := got["tools"].([]any)
	if len(sentTools) != 2 {
		t.Fatalf("sent %d tools, want 2", len(sentTools))
	}
	t0, t1 := sentTools[0].(map[string]any), sentTools[1].(map[string]any)
	if t0["name"] != "list_containers" || t1["name"] != "container_stop" {
		t.Errorf("tool names %v, %v; want list_containers, container_stop", t0["name"], t1["name"])
	}
	if _, ok := t0["cache_control"]; ok {
		t.Error("cache_control on a tool before the last")
	}
	if d := cmp.Diff(map[string]any{"type": "ephemeral"}, t1["cache_control"]); d != "" {
		t.Errorf("last tool cache_control (-want +got):\n%s", d)
	}
	if d := cmp.Diff(map[string]any{"type": "object", "properties": map[string]any{"all": map[string]any{"type": "boolean"}}, "additionalProperties": false}, t0["input_schema"]); d != "" {
		t.Errorf("input_schema not sent verbatim (-want +got):\n%s", d)
	}
	if h.Get("Authorization") != "Bearer "+key || h.Get("Anthropic-Version") == "" {
		t.Errorf("auth %q, anthropic-version %q", h.Get("Authorization"), h.Get("Anthropic-Version"))
	}
}

// checkSentBack checks the second request of TestConversation: the
// assistant's content goes back as it came, signatures intact, followed by
// the tool results.
func checkSentBack(t *testing.T, raw []byte) {
	t.Helper()
	var second struct {
		Messages []struct {
			Role    string            `json:"role"`
			Content []json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(raw, &second); err != nil {
		t.Fatal(err)
	}
	if len(second.Messages) != 3 || second.Messages[1].Role != "assistant" || len(second.Messages[1].Content) != 5 {
		t.Fatalf("second request messages: %s", raw)
	}
	echo := second.Messages[1].Content
	for i, want := range []string{thinkingBlock, redactedBlock} {
		if !sameJSON(echo[i], want) {
			t.Errorf("assistant block %d sent back as %s, want %s", i, echo[i], want)
		}
	}
	if !bytes.Contains(echo[0], []byte(`"signature":"EqQBCkYIBxgCKkB+sig/with+odd==chars"`)) {
		t.Errorf("signature not sent back intact: %s", echo[0])
	}
	for i, want := range []string{
		`{"type":"text","text":"Let me look."}`,
		`{"type":"tool_use","id":"toolu_01","name":"list_containers","input":{"all":true,"b":1}}`,
		`{"type":"tool_use","id":"toolu_02","name":"container_stop","input":{"id":"web"}}`,
	} {
		if !sameJSON(echo[i+2], want) {
			t.Errorf("assistant block %d sent back as %s, want %s", i+2, echo[i+2], want)
		}
	}
	results := second.Messages[2].Content
	for i, want := range []string{
		`{"type":"tool_result","tool_use_id":"toolu_01","content":[{"type":"text","text":"[{\"id\":\"web\"}]"}]}`,
		// The last block of a later turn marks the conversation so far
		// for the cache.
		`{"type":"tool_result","tool_use_id":"toolu_02","is_error":true,"cache_control":{"type":"ephemeral"},"content":[{"type":"text","text":"container web is locked"}]}`,
	} {
		if !sameJSON(results[i], want) {
			t.Errorf("tool result %d sent as %s, want %s", i, results[i], want)
		}
	}
}

func sameJSON(a json.RawMessage, b string) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	return cmp.Equal(x, y)
}

func TestThinkingBudget(t *testing.T) {
	f := newFake(t, reply(200, secondAnswer))
	m := newModel(t, f, "anthropic:claude-opus-4-5;thinking=2048", Config{})
	if _, err := m.Generate(context.Background(), &model.Request{Messages: []model.Message{{Role: model.User, Blocks: []model.Block{{Kind: model.Text, Text: "hi"}}}}}); err != nil {
		t.Fatal(err)
	}
	got := f.Reqs[0]
	if d := cmp.Diff(map[string]any{"type": "enabled", "budget_tokens": 2048.0}, got["thinking"]); d != "" {
		t.Errorf("thinking (-want +got):\n%s", d)
	}
	if got["max_tokens"] != float64(2048+DefaultMaxTokens) {
		t.Errorf("max_tokens = %v, want budget + %d", got["max_tokens"], DefaultMaxTokens)
	}
	if _, ok := got["system"]; ok {
		t.Error("an empty system prompt was sent")
	}
	if _, ok := got["tools"]; ok {
		t.Error("tools sent for a request with none")
	}
}

func TestRateLimitThenSuccess(t *testing.T) {
	f := newFake(t,
		reply(429, `{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}`, "retry-after", "2"),
		reply(200, secondAnswer))
	s := &providertest.Sleeps{}
	m := newModel(t, f, "anthropic:claude-sonnet-5-5", Config{Retry: retry.Policy{MaxTries: 3, Sleep: s.Sleep}})
	providertest.RetriedAfter(t, f, m, s, model.Try{Status: 429, Error: "rate_limit_error: Number of request tokens has exceeded your per-minute rate limit", WaitMS: 2000}, 2*time.Second)
}

func TestOverloadedUntilTriesRunOut(t *testing.T) {
	f := newFake(t, overloaded())
	s := &providertest.Sleeps{}
	m := newModel(t, f, "anthropic:claude-sonnet-5-5", Config{Retry: retry.Policy{MaxTries: 3, Base: time.Second, Max: 4 * time.Second, Sleep: s.Sleep}})
	providertest.TriesRunOut(t, f, m, s, 3, 529, "overloaded_error: Overloaded")
}

func TestServerErrorThenSuccess(t *testing.T) {
	f := newFake(t, reply(500, `{"type":"error","error":{"type":"api_error","message":"Internal server error"}}`), reply(200, secondAnswer))
	m := newModel(t, f, "anthropic:claude-sonnet-5-5", Config{})
	resp, err := m.Generate(context.Background(), hello())
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Tries) != 1 || resp.Tries[0].Status != 500 || resp.Tries[0].Error != "api_error: Internal server error" {
		t.Errorf("tries = %+v", resp.Tries)
	}
}

func TestNotRetried(t *testing.T) {
	for _, c := range []struct {
		name   string
		reply  func(http.ResponseWriter, *http.Request)
		status int
		text   string
	}{
		{"unauthorized", reply(401, `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`), 401, "authentication_error: invalid x-api-key"},
		{"bad request", reply(400, `{"type":"error","error":{"type":"invalid_request_error","message":"tools.0.name: String should match pattern"}}`), 400, "invalid_request_error: tools.0.name"},
		{"not found", reply(404, `{"type":"error","error":{"type":"not_found_error","message":"model: claude-nope"}}`), 404, "not_found_error: model: claude-nope"},
		{"malformed body", reply(200, `{"id":"msg_01","content":[{"type":"text","text":"cut of`), 200, "reading the answer"},
		{"not a message", reply(200, `{"type":"error","error":{"type":"api_error","message":"odd proxy"}}`), 200, "is not a message"},
		// A provider that echoes the credentials it was sent.
		{"echoed key", func(w http.ResponseWriter, r *http.Request) {
			reply(403, `{"type":"error","error":{"type":"permission_error","message":"key `+key+` with header Authorization: `+r.Header.Get("Authorization")+` may not use this model"}}`)(w, r)
		}, 403, "permission_error: key [redacted]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t, c.reply, reply(200, secondAnswer))
			m := newModel(t, f, "anthropic:claude-sonnet-5-5", Config{Retry: retry.Policy{MaxTries: 4}})
			providertest.NotRetried(t, f, m, c.status, c.text)
		})
	}
}

func TestTimeout(t *testing.T) {
	// Each request ends either because the client gave up on it (the
	// timeout) or because the test ended; the server says which.
	stall, ended := providertest.Stall(t)
	f := newFake(t, stall)
	m := newModel(t, f, "anthropic:claude-sonnet-5-5", Config{Timeout: 50 * time.Millisecond, Retry: retry.Policy{MaxTries: 2}})
	_, err := m.Generate(context.Background(), hello())
	var pe *model.ProviderError
	if !errors.As(err, &pe) {
		t.Fatalf("err = %v, want a *model.ProviderError", err)
	}
	if len(pe.Tries) != 2 || pe.Tries[0].Status != 0 || pe.Tries[0].Error != "no answer within 50ms" {
		t.Errorf("tries = %+v", pe.Tries)
	}
	// Both tries were cut off by the client, not by the server answering:
	// the timeout, not a wall-clock figure, is what is checked.
	if n := f.Count(); n != 2 {
		t.Fatalf("%d requests, want 2", n)
	}
	for i := range 2 {
		if why := <-ended; why != "client gave up" {
			t.Errorf("request %d ended: %s, want the client to give up at the timeout", i+1, why)
		}
	}
}

func TestConnectionReset(t *testing.T) {
	f := newFake(t, providertest.Reset(t), reply(200, secondAnswer))
	m := newModel(t, f, "anthropic:claude-sonnet-5-5", Config{})
	resp, err := m.Generate(context.Background(), hello())
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Tries) != 1 || resp.Tries[0].Status != 0 || !strings.Contains(resp.Tries[0].Error, "connection reset") {
		t.Errorf("tries = %+v", resp.Tries)
	}
}

func TestNewRefuses(t *testing.T) {
	providertest.Refuses(t, New, Config{APIKey: key}, map[string]string{
		"anthropic:m;seed=1":                        "allowed: base_url, effort, max_tokens, temperature, thinking, top_p",
		"anthropic:m;temperature=0":                 "2026-10-21",
		"anthropic:m;top_p=0.9":                     "2026-10-21",
		"anthropic:m;effort=extreme":                "effort",
		"anthropic:m;thinking=100":                  "at least 1024",
		"anthropic:m;thinking=4096;max_tokens=4096": "must exceed the thinking budget",
		"anthropic:m;max_tokens=0":                  "max_tokens",
		"anthropic:m;base_url=ftp://x":              "not an http(s) URL",
		"openai:m":                                  "not anthropic",
	})
	// Without a key, the API's own endpoint is refused; a local one is not.
	providertest.Refuses(t, New, Config{}, map[string]string{"anthropic:claude-sonnet-5-5": "ANTHROPIC_API_KEY"})
	providertest.MustOpen(t, "anthropic:claude-sonnet-5-5", Config{BaseURL: "http://127.0.0.1:9/"}, New)
}

var hello = providertest.Hello
