package openai

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/shared"

	"github.com/mcpeval/mcpeval/internal/provider/send"
	"github.com/mcpeval/mcpeval/internal/provider/specopt"
	"github.com/mcpeval/mcpeval/internal/retry"
	"github.com/mcpeval/mcpeval/internal/toolname"
	"github.com/mcpeval/mcpeval/model"
)

// DefaultTimeout bounds one try when Config.Timeout is zero.
const DefaultTimeout = 120 * time.Second

// DefaultBaseURL is OpenAI's API.
const DefaultBaseURL = "https://api.openai.com/v1/"

// Options lists the spec options the provider accepts.
var Options = []string{"base_url", "max_tokens", "reasoning_effort", "seed", "temperature", "top_p"}

// Config is how to reach the API.
type Config struct {
	// APIKey is the API key; it may be empty with a BaseURL other than
	// OpenAI's.
	APIKey string
	// BaseURL is the API's base URL, "/v1" included; empty means
	// DefaultBaseURL. A base_url option in the spec takes precedence.
	BaseURL string
	// HTTPClient sends the requests; nil means a plain http.Client.
	HTTPClient *http.Client
	// Timeout bounds each try; zero means DefaultTimeout.
	Timeout time.Duration
	// Retry says when a refused try is sent again.
	Retry retry.Policy
}

// FromEnv returns the Config the environment gives: the key from
// OPENAI_API_KEY, the base URL from the spec's base_url option or else
// OPENAI_BASE_URL. The key goes only to the endpoint it came with: a
// base_url option naming another server gets no key (use OPENAI_BASE_URL
// for a server that needs one).
func FromEnv(info model.Info) Config {
	key, base := specopt.FromEnv(info.Options, "OPENAI_API_KEY", "OPENAI_BASE_URL")
	return Config{APIKey: key, BaseURL: base}
}

// Model is a model behind a chat completions endpoint. It is safe for
// concurrent use.
type Model struct {
	info    model.Info
	client  sdk.Client
	key     string
	timeout time.Duration
	policy  retry.Policy
	set     func(*sdk.ChatCompletionNewParams)
	tools   send.ToolCache[sdk.ChatCompletionToolUnionParam]
}

// New checks info's options and returns the model. It sends nothing.
func New(info model.Info, cfg Config) (*Model, error) {
	if err := specopt.Provider(info, "openai"); err != nil {
		return nil, err
	}
	m := &Model{info: info, key: cfg.APIKey, timeout: specopt.Timeout(cfg.Timeout, DefaultTimeout), policy: cfg.Retry}
	set, err := options(info.Options, "openai", Options)
	if err != nil {
		return nil, fmt.Errorf("model spec %q: %w", info.Spec, err)
	}
	m.set = set
	u, err := specopt.BaseURL(info.Spec, info.Options, cfg.BaseURL, DefaultBaseURL)
	if err != nil {
		return nil, err
	}
	if u.Path == "" || u.Path == "/" {
		u.Path = "/v1/"
	}
	if cfg.APIKey == "" && u.Host == "api.openai.com" {
		return nil, fmt.Errorf("model spec %q: no API key: set OPENAI_API_KEY, or give the base URL of a server that needs none", info.Spec)
	}
	m.client = sdk.NewClient(
		option.WithBaseURL(u.String()),
		// Always set, so an OPENAI_API_KEY in the environment cannot reach a
		// server the key was not given for.
		option.WithAPIKey(cfg.APIKey),
		option.WithHTTPClient(specopt.Client(cfg.HTTPClient)),
		option.WithMaxRetries(0),
	)
	return m, nil
}

// options checks the spec's options and returns what they set, refusing
// any it does not know in the name of provider, which allows those listed
// in allowed.
func options(opts map[string]string, provider string, allowed []string) (func(*sdk.ChatCompletionNewParams), error) {
	var sets []func(*sdk.ChatCompletionNewParams)
	for _, k := range specopt.Keys(opts) {
		v := opts[k]
		switch k {
		case "base_url":
		case "max_tokens":
			n, err := specopt.PositiveInt(k, v, 64)
			if err != nil {
				return nil, err
			}
			sets = append(sets, func(p *sdk.ChatCompletionNewParams) { p.MaxCompletionTokens = param.NewOpt(n) })
		case "temperature":
			f, err := specopt.Float(k, v, 0, 2, 64)
			if err != nil {
				return nil, err
			}
			sets = append(sets, func(p *sdk.ChatCompletionNewParams) { p.Temperature = param.NewOpt(f) })
		case "top_p":
			f, err := specopt.Float(k, v, 0, 1, 64)
			if err != nil {
				return nil, err
			}
			sets = append(sets, func(p *sdk.ChatCompletionNewParams) { p.TopP = param.NewOpt(f) })
		case "reasoning_effort":
			switch e := shared.ReasoningEffort(v); e {
			case shared.ReasoningEffortNone, shared.ReasoningEffortMinimal, shared.ReasoningEffortLow, shared.ReasoningEffortMedium,
				shared.ReasoningEffortHigh, shared.ReasoningEffortXhigh, shared.ReasoningEffortMax:
				sets = append(sets, func(p *sdk.ChatCompletionNewParams) { p.ReasoningEffort = e })
			default:
				return nil, fmt.Errorf("option reasoning_effort=%q: want none, minimal, low, medium, high, xhigh or max", v)
			}
		case "seed":
			n, err := specopt.Int(k, v, 64)
			if err != nil {
				return nil, err
			}
			sets = append(sets, func(p *sdk.ChatCompletionNewParams) { p.Seed = param.NewOpt(n) })
		default:
			return nil, specopt.Unknown(k, provider, allowed)
		}
	}
	return func(p *sdk.ChatCompletionNewParams) {
		for _, s := range sets {
			s(p)
		}
	}, nil
}

// Generate sends req and returns the model's turn.
func (m *Model) Generate(ctx context.Context, req *model.Request) (*model.Response, error) {
	return send.Turn(ctx, m.policy, m.info.Provider+":"+m.info.Name, req, toolname.Map, m.params, m.try)
}

// try sends one request.
func (m *Model) try(ctx context.Context, params sdk.ChatCompletionNewParams, mp *toolname.Mapping) (*model.Response, error) {
	ex := &retry.Exchange{Timeout: m.timeout, Secrets: []string{m.key}}
	ctx, cancel := context.WithTimeout(ctx, m.timeout)
	defer cancel()
	start := time.Now()
	cc, err := m.client.Chat.Completions.New(ctx, params, option.WithMiddleware(ex.Middleware), option.WithRequestTimeout(m.timeout))
	latency := time.Since(start)
	if err != nil {
		return nil, ex.Refusal(ctx, err)
	}
	if len(cc.Choices) == 0 {
		return nil, &retry.Refusal{Status: http.StatusOK, Message: "reading the answer: " + retry.Short(retry.Redact(strings.TrimSpace(cc.RawJSON()), m.key), 200) + " has no choices"}
	}
	resp := response(cc, mp)
	resp.Latency, resp.RateLimit = latency, ex.RateLimit()
	return resp, nil
}

// response reads a completion with at least one choice as the model's
// answer, a turn's or a batched request's, its tool names mapped back by
// mp.
func response(cc *sdk.ChatCompletion, mp *toolname.Mapping) *model.Response {
	ch := cc.Choices[0]
	u := cc.Usage
	cached, written := u.PromptTokensDetails.CachedTokens, u.PromptTokensDetails.CacheWriteTokens
	return &model.Response{
		Message:    model.Message{Role: model.Assistant, Blocks: blocks(ch.Message, mp)},
		StopReason: ch.FinishReason,
		Usage: model.Usage{
			Input:      max(0, u.PromptTokens-cached-written),
			Output:     u.CompletionTokens,
			CacheWrite: written,
			CacheRead:  cached,
		},
	}
}

// params builds the request body.
func (m *Model) params(req *model.Request, mp *toolname.Mapping) (sdk.ChatCompletionNewParams, error) {
	p := sdk.ChatCompletionNewParams{Model: shared.ChatModel(m.info.Name)}
	m.set(&p)
	if req.CacheKey != "" {
		// Requests with the same key go to the same cache: every attempt of
		// a run shares the system prompt and tools it names.
		p.PromptCacheKey = param.NewOpt(req.CacheKey)
	}
	if req.System != "" {
		p.Messages = append(p.Messages, sdk.SystemMessage(req.System))
	}
	for _, t := range req.Tools {
		tool, err := m.tool(t, mp.Wire(t.Name))
		if err != nil {
			return p, err
		}
		p.Tools = append(p.Tools, tool)
	}
	if req.ToolChoice != nil { // see toolchoice.go
		tc, err := toolChoice(req, mp)
		if err != nil {
			return p, err
		}
		p.ToolChoice = tc
	}
	for i, msg := range req.Messages {
		switch msg.Role {
		case model.User:
			p.Messages = append(p.Messages, userMessages(msg)...)
		case model.Assistant:
			p.Messages = append(p.Messages, assistantMessage(msg, mp))
		default:
			return p, fmt.Errorf("message %d: role %q is neither user nor assistant", i, msg.Role)
		}
	}
	return p, nil
}

// tool declares t as a function under the name wire: made once a run
// (send.ToolCache) and sent as the union's override.
func (m *Model) tool(t model.Tool, wire string) (sdk.ChatCompletionToolUnionParam, error) {
	schema := send.InputSchema(t)
	return m.tools.Get(send.ToolKey("", wire, t.Description, schema), func() (sdk.ChatCompletionToolUnionParam, error) {
		if schema[0] != '{' || !json.Valid(schema) {
			return sdk.ChatCompletionToolUnionParam{}, fmt.Errorf("tool %q: input schema is not a JSON object", t.Name)
		}
		// The function is sent as raw JSON so the schema goes out byte for
		// byte (the SDK's own encoder would turn numbers into strings).
		fn := struct {
			Name        string          `json:"name"`
			Description string          `json:"description,omitempty"`
			Parameters  json.RawMessage `json:"parameters"`
		}{wire, t.Description, schema}
		raw, err := json.Marshal(fn)
		if err != nil {
			return sdk.ChatCompletionToolUnionParam{}, fmt.Errorf("tool %q: %w", t.Name, err)
		}
		fd := param.Override[shared.FunctionDefinitionParam](json.RawMessage(raw))
		raw, err = json.Marshal(sdk.ChatCompletionFunctionTool(fd))
		if err != nil {
			return sdk.ChatCompletionToolUnionParam{}, fmt.Errorf("tool %q: %w", t.Name, err)
		}
		return param.Override[sdk.ChatCompletionToolUnionParam](json.RawMessage(raw)), nil
	})
}

// userMessages turns a user message into one tool message per result
// (an error's content marked "Error: "), then one user message with its
// text, if it has any.
func userMessages(msg model.Message) []sdk.ChatCompletionMessageParamUnion {
	var out []sdk.ChatCompletionMessageParamUnion
	var text []string
	for _, b := range msg.Blocks {
		switch {
		case b.Kind == model.ToolResult && b.Result != nil:
			content := b.Result.Content
			if b.Result.IsError {
				content = "Error: " + content
			}
			out = append(out, sdk.ToolMessage(content, b.Result.CallID))
		case b.Kind == model.Text && b.Text != "":
			text = append(text, b.Text)
		}
	}
	if len(text) > 0 {
		out = append(out, sdk.UserMessage(strings.Join(text, "\n")))
	}
	return out
}

// assistantMessage sends an assistant's message back: its text and its
// tool calls under the names the model gave them.
func assistantMessage(msg model.Message, mp *toolname.Mapping) sdk.ChatCompletionMessageParamUnion {
	var a sdk.ChatCompletionAssistantMessageParam
	var text []string
	for _, b := range msg.Blocks {
		switch {
		case b.Kind == model.Text && b.Text != "":
			text = append(text, b.Text)
		case b.Kind == model.ToolUse && b.Call != nil:
			name := send.CallName(mp, b.Call)
			a.ToolCalls = append(a.ToolCalls, sdk.ChatCompletionMessageToolCallUnionParam{
				OfFunction: &sdk.ChatCompletionMessageFunctionToolCallParam{
					ID:       b.Call.ID,
					Function: sdk.ChatCompletionMessageFunctionToolCallFunctionParam{Name: name, Arguments: string(b.Call.Args)},
				},
			})
		}
	}
	if len(text) > 0 || len(a.ToolCalls) == 0 {
		a.Content.OfString = param.NewOpt(strings.Join(text, "\n"))
	}
	return sdk.ChatCompletionMessageParamUnion{OfAssistant: &a}
}

// blocks turns the answer's message into model blocks: reasoning, text,
// refusal, then the tool calls in order.
func blocks(msg sdk.ChatCompletionMessage, mp *toolname.Mapping) []model.Block {
	var out []model.Block
	for _, k := range []string{"reasoning_content", "reasoning"} {
		f, ok := msg.JSON.ExtraFields[k]
		if !ok {
			continue
		}
		var s string
		if json.Unmarshal([]byte(f.Raw()), &s) == nil && s != "" {
			out = append(out, model.Block{Kind: model.Thinking, Text: s})
			break
		}
	}
	if msg.Content != "" {
		out = append(out, model.Block{Kind: model.Text, Text: msg.Content})
	}
	if msg.Refusal != "" {
		out = append(out, model.Block{Kind: model.Text, Text: msg.Refusal})
	}
	for _, tc := range msg.ToolCalls {
		wire, args := tc.Function.Name, tc.Function.Arguments
		if tc.Type == "custom" {
			wire, args = tc.Custom.Name, tc.Custom.Input
		}
		call := &model.Call{ID: tc.ID, Name: mp.MCP(wire), Args: json.RawMessage(args)}
		if call.Name != wire {
			call.WireName = wire
		}
		out = append(out, model.Block{Kind: model.ToolUse, Call: call})
	}
	return out
}
