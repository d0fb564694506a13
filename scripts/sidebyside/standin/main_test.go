package main

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/mcpeval/mcpeval/internal/builtin"
	"github.com/mcpeval/mcpeval/suite"
)

func household(t *testing.T) *suite.Suite {
	t.Helper()
	s, err := builtin.LoadSuite("household")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// caseCalling returns the household case whose key calls exactly the
// tools named, in that order.
func caseCalling(t *testing.T, s *suite.Suite, tools ...string) *suite.Case {
	t.Helper()
	for _, c := range s.Cases {
		var got []string
		for _, k := range c.Key.Calls {
			got = append(got, k.Tool)
		}
		if strings.Join(got, ",") == strings.Join(tools, ",") {
			return c
		}
	}
	t.Fatalf("no household case calls exactly %v", tools)
	return nil
}

func stats(t *testing.T, url string) map[string]int {
	t.Helper()
	resp, err := http.Get(url + "/stats")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]int
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestAnthropicLoopOverSDK puts a case that calls two tools to the
// stand-in through anthropic-sdk-go, as mcpeval's anthropic provider does:
// the first answer calls both tools, the second, given their results,
// answers, and /stats counts the two requests.
func TestAnthropicLoopOverSDK(t *testing.T) {
	s := household(t)
	c := caseCalling(t, s, "get_holdings", "get_upcoming_vests")
	srv := httptest.NewServer(newStandin(s, 0))
	defer srv.Close()
	client := sdk.NewClient(option.WithoutEnvironmentDefaults(), option.WithBaseURL(srv.URL),
		option.WithAPIKey(APIKey), option.WithMaxRetries(0))
	schema := sdk.ToolInputSchemaParam{Properties: map[string]any{}}
	var tools []sdk.ToolUnionParam
	for _, n := range []string{"get_accounts", "get_holdings", "get_upcoming_vests"} {
		tools = append(tools, sdk.ToolUnionParam{OfTool: &sdk.ToolParam{Name: n, InputSchema: schema}})
	}
	params := sdk.MessageNewParams{
		Model:     "claude-haiku-4-5",
		MaxTokens: 1024,
		System:    []sdk.TextBlockParam{{Text: s.SystemPrompt}},
		Tools:     tools,
		Messages:  []sdk.MessageParam{sdk.NewUserMessage(sdk.NewTextBlock(c.Prompt))},
	}
	ctx := context.Background()
	first, err := client.Messages.New(ctx, params)
	if err != nil {
		t.Fatalf("first turn: %v", err)
	}
	if first.StopReason != sdk.StopReasonToolUse {
		t.Fatalf("first turn stop_reason = %q, want tool_use", first.StopReason)
	}
	var called []string
	var results []sdk.ContentBlockParamUnion
	for _, b := range first.Content {
		if b.Type == "tool_use" {
			called = append(called, b.Name)
			results = append(results, sdk.NewToolResultBlock(b.ID, `{"ok":true}`, false))
		}
	}
	if got := strings.Join(called, ","); got != "get_holdings,get_upcoming_vests" {
		t.Fatalf("first turn called %s, want both of the key's tools in one turn", got)
	}
	params.Messages = append(params.Messages, first.ToParam(), sdk.NewUserMessage(results...))
	second, err := client.Messages.New(ctx, params)
	if err != nil {
		t.Fatalf("second turn: %v", err)
	}
	if second.StopReason != sdk.StopReasonEndTurn || len(second.Content) != 1 || second.Content[0].Type != "text" || second.Content[0].Text == "" {
		t.Fatalf("second turn = %s %+v, want one text answer ending the turn", second.StopReason, second.Content)
	}
	if got := stats(t, srv.URL); got["requests"] != 2 || got["anthropic"] != 2 || got["openai"] != 0 {
		t.Errorf("/stats = %v, want 2 anthropic requests", got)
	}
}

// TestRefusesAnotherKey checks that a request without the stand-in's key
// is refused: a tool that sent no key would not be measured on the work.
func TestRefusesAnotherKey(t *testing.T) {
	s := household(t)
	srv := httptest.NewServer(newStandin(s, 0))
	defer srv.Close()
	client := sdk.NewClient(option.WithoutEnvironmentDefaults(), option.WithBaseURL(srv.URL),
		option.WithAPIKey("other"), option.WithMaxRetries(0))
	_, err := client.Messages.New(context.Background(), sdk.MessageNewParams{
		Model: "claude-haiku-4-5", MaxTokens: 16,
		Messages: []sdk.MessageParam{sdk.NewUserMessage(sdk.NewTextBlock(s.Cases[0].Prompt))},
	})
	var apiErr *sdk.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusUnauthorized {
		t.Fatalf("another key: err = %v, want a 401", err)
	}
}

// TestOpenAIRoute checks that chat completions reach the OpenAI handler,
// with the key as a bearer token, and are counted apart.
func TestOpenAIRoute(t *testing.T) {
	s := household(t)
	c := caseCalling(t, s, "get_net_worth")
	srv := httptest.NewServer(newStandin(s, 0))
	defer srv.Close()
	body := `{"model":"gpt-4o-mini","messages":[{"role":"user","content":` + quote(c.Prompt) + `}],` +
		`"tools":[{"type":"function","function":{"name":"get_net_worth","parameters":{"type":"object","properties":{}}}}]}`
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/v1/chat/completions", strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+APIKey)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Choices []struct {
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != 200 || len(out.Choices) != 1 || out.Choices[0].FinishReason != "tool_calls" {
		t.Fatalf("chat completions: status %d, %+v, %v; want a tool call", resp.StatusCode, out, err)
	}
	if got := stats(t, srv.URL); got["requests"] != 1 || got["openai"] != 1 {
		t.Errorf("/stats = %v, want 1 openai request", got)
	}
}

// TestLatency checks that a model request is answered no sooner than the
// stand-in's latency, which the wall-time bound assumes.
func TestLatency(t *testing.T) {
	s := household(t)
	const latency = 150 * time.Millisecond
	srv := httptest.NewServer(newStandin(s, latency))
	defer srv.Close()
	client := sdk.NewClient(option.WithoutEnvironmentDefaults(), option.WithBaseURL(srv.URL),
		option.WithAPIKey(APIKey), option.WithMaxRetries(0))
	start := time.Now()
	_, err := client.Messages.New(context.Background(), sdk.MessageNewParams{
		Model: "claude-haiku-4-5", MaxTokens: 16,
		Messages: []sdk.MessageParam{sdk.NewUserMessage(sdk.NewTextBlock(s.Cases[0].Prompt))},
	})
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took < latency {
		t.Errorf("answered after %v, before the latency %v", took, latency)
	}
}

// TestPromptfooConfig checks the configuration promptfoo is given: every
// case's prompt, the provider at the stand-in with its key, and the MCP
// server's command split into words.
func TestPromptfooConfig(t *testing.T) {
	s := household(t)
	var prompts []string
	for _, c := range s.Cases {
		prompts = append(prompts, c.Prompt)
	}
	b := promptfooConfig("anthropic:messages:claude-haiku-4-5", "http://127.0.0.1:1", []string{"/x/mcpeval", "serve-target", "household"}, prompts)
	var cfg struct {
		Prompts   []string
		Providers []struct {
			ID     string
			Config struct {
				APIBaseURL string `json:"apiBaseUrl"`
				APIKey     string `json:"apiKey"`
				MCP        struct {
					Enabled bool
					Server  struct {
						Command string
						Args    []string
					}
				}
			}
		}
		Tests []struct {
			Vars map[string]string
		}
	}
	if err := json.Unmarshal(b, &cfg); err != nil {
		t.Fatal(err)
	}
	if len(cfg.Providers) != 1 {
		t.Fatalf("%d providers, want 1", len(cfg.Providers))
	}
	p := cfg.Providers[0]
	if p.ID != "anthropic:messages:claude-haiku-4-5" || p.Config.APIBaseURL != "http://127.0.0.1:1" || p.Config.APIKey != APIKey {
		t.Errorf("provider = %+v", p)
	}
	if !p.Config.MCP.Enabled || p.Config.MCP.Server.Command != "/x/mcpeval" || strings.Join(p.Config.MCP.Server.Args, " ") != "serve-target household" {
		t.Errorf("mcp = %+v", p.Config.MCP)
	}
	if len(cfg.Prompts) != 1 || cfg.Prompts[0] != "{{prompt}}" || len(cfg.Tests) != len(s.Cases) {
		t.Fatalf("prompts %v, %d tests; want {{prompt}} and %d tests", cfg.Prompts, len(cfg.Tests), len(s.Cases))
	}
	for i, c := range s.Cases {
		if cfg.Tests[i].Vars["prompt"] != c.Prompt {
			t.Errorf("test %d prompt = %q, want %q", i, cfg.Tests[i].Vars["prompt"], c.Prompt)
		}
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
