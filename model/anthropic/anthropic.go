package anthropic

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"

	"github.com/mcpeval/mcpeval/internal/provider/send"
	"github.com/mcpeval/mcpeval/internal/provider/specopt"
	"github.com/mcpeval/mcpeval/internal/retry"
	"github.com/mcpeval/mcpeval/internal/toolname"
	"github.com/mcpeval/mcpeval/model"
)

// DefaultMaxTokens is max_tokens when the spec does not set it.
const DefaultMaxTokens = 8192

// DefaultTimeout bounds one try when Config.Timeout is zero.
const DefaultTimeout = 120 * time.Second

// DefaultBaseURL is the Messages API's home.
const DefaultBaseURL = "https://api.anthropic.com/"

// Options lists the spec options the provider accepts.
var Options = []string{"base_url", "effort", "max_tokens", "temperature", "thinking", "top_p"}

// Config is how to reach the API. The zero Config reaches api.anthropic.com
// with no key, which New refuses.
type Config struct {
	// APIKey is the Anthropic API key. It may be empty only with a BaseURL
	// other than the default.
	APIKey string
	// BaseURL is the API's base URL; empty means DefaultBaseURL. A base_url
	// option in the spec takes precedence.
	BaseURL string
	// HTTPClient sends the requests; nil means a plain http.Client.
	HTTPClient *http.Client
	// Timeout bounds each try; zero means DefaultTimeout.
	Timeout time.Duration
	// Retry says when a refused try is sent again.
	Retry retry.Policy
}

// FromEnv returns the Config the environment gives: the key from
// ANTHROPIC_API_KEY, the base URL from the spec's base_url option or else
// ANTHROPIC_BASE_URL. The key goes only to the endpoint it came with: a
// base_url option naming another server gets no key (use ANTHROPIC_BASE_URL
// for a server that needs one).
func FromEnv(info model.Info) Config {
	key, base := specopt.FromEnv(info.Options, "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL")
	return Config{APIKey: key, BaseURL: base}
}

// Model is a Claude model behind the Messages API. It is safe for concurrent
// use.
type Model struct {
	info      model.Info
	client    sdk.Client
	key       string
	timeout   time.Duration
	policy    retry.Policy
	maxTokens int64
	effort    sdk.OutputConfigEffort
	thinking  sdk.ThinkingConfigParamUnion
	tools     send.ToolCache[sdk.ToolUnionParam]
}

// New checks info's options and returns the model. It sends nothing.
func New(info model.Info, cfg Config) (*Model, error) {
	if err := specopt.Provider(info, "anthropic"); err != nil {
		return nil, err
	}
	m := &Model{info: info, key: cfg.APIKey, timeout: specopt.Timeout(cfg.Timeout, DefaultTimeout), policy: cfg.Retry, maxTokens: DefaultMaxTokens}
	if err := m.options(info.Options, "anthropic", Options); err != nil {
		return nil, fmt.Errorf("model spec %q: %w", info.Spec, err)
	}
	u, err := specopt.BaseURL(info.Spec, info.Options, cfg.BaseURL, DefaultBaseURL)
	if err != nil {
		return nil, err
	}
	base := u.String()
	if cfg.APIKey == "" && strings.TrimSuffix(base, "/") == strings.TrimSuffix(DefaultBaseURL, "/") {
		return nil, fmt.Errorf("model spec %q: no API key: set ANTHROPIC_API_KEY", info.Spec)
	}
	opts := []option.RequestOption{
		option.WithoutEnvironmentDefaults(),
		option.WithBaseURL(base),
		option.WithHTTPClient(specopt.Client(cfg.HTTPClient)),
		option.WithMaxRetries(0),
	}
	if cfg.APIKey != "" {
		opts = append(opts, option.WithAPIKey(cfg.APIKey))
	}
	m.client = sdk.NewClient(opts...)
	return m, nil
}

// options applies the spec's options, refusing any it does not know in the
// name of provider, which allows those listed in allowed.
func (m *Model) options(opts map[string]string, provider string, allowed []string) error {
	budget, maxSet := int64(0), false
	for _, k := range specopt.Keys(opts) {
		v := opts[k]
		switch k {
		case "base_url":
		case "max_tokens":
			n, err := specopt.PositiveInt(k, v, 64)
			if err != nil {
				return err
			}
			m.maxTokens, maxSet = n, true
		case "effort":
			switch e := sdk.OutputConfigEffort(v); e {
			case sdk.OutputConfigEffortLow, sdk.OutputConfigEffortMedium, sdk.OutputConfigEffortHigh,
				sdk.OutputConfigEffortXhigh, sdk.OutputConfigEffortMax:
				m.effort = e
			default:
				return fmt.Errorf("option effort=%q: want low, medium, high, xhigh or max", v)
			}
		case "thinking":
			switch v {
			case "adaptive":
				m.thinking = sdk.ThinkingConfigParamUnion{OfAdaptive: &sdk.ThinkingConfigAdaptiveParam{}}
			case "off":
				m.thinking = sdk.ThinkingConfigParamUnion{OfDisabled: &sdk.ThinkingConfigDisabledParam{}}
			default:
				n, err := strconv.ParseInt(v, 10, 64)
				if err != nil || n < 1024 {
					return fmt.Errorf("option thinking=%q: want adaptive, off, or a budget of at least 1024 tokens", v)
				}
				budget = n
				m.thinking = sdk.ThinkingConfigParamUnion{OfEnabled: &sdk.ThinkingConfigEnabledParam{BudgetTokens: n}}
			}
		case "temperature", "top_p":
			return fmt.Errorf("option %s: the Messages API version this client speaks (2026-10-21) refuses temperature and top_p on every model; leave it out (effort and thinking are the controls it keeps)", k)
		default:
			return specopt.Unknown(k, provider, allowed)
		}
	}
	if budget > 0 {
		if !maxSet {
			m.maxTokens = budget + DefaultMaxTokens
		} else if m.maxTokens <= budget {
			return fmt.Errorf("option max_tokens=%d: must exceed the thinking budget %d", m.maxTokens, budget)
		}
	}
	return nil
}

// Generate sends req and returns the model's turn.
func (m *Model) Generate(ctx context.Context, req *model.Request) (*model.Response, error) {
	return send.Turn(ctx, m.policy, m.info.Provider+":"+m.info.Name, req, toolname.Map, m.params, m.try)
}

// try sends one request.
func (m *Model) try(ctx context.Context, params sdk.MessageNewParams, mp *toolname.Mapping) (*model.Response, error) {
	ex := &retry.Exchange{Timeout: m.timeout, Secrets: []string{m.key}}
	ctx, cancel := context.WithTimeout(ctx, m.timeout)
	defer cancel()
	start := time.Now()
	msg, err := m.client.Messages.New(ctx, params,
		option.WithMiddleware(ex.Middleware),
		// Our own timeout, which also spares the SDK's refusal of large
		// max_tokens without streaming.
		option.WithRequestTimeout(m.timeout))
	latency := time.Since(start)
	if err != nil {
		return nil, ex.Refusal(ctx, err)
	}
	// The SDK's decoder forgives a body cut short; we do not.
	if raw := msg.RawJSON(); !json.Valid([]byte(raw)) || msg.Type != "message" {
		return nil, &retry.Refusal{Status: http.StatusOK, Message: "reading the answer: " + retry.Short(retry.Redact(strings.TrimSpace(raw), m.key), 200) + " is not a message"}
	}
	resp := response(msg, mp)
	resp.Latency, resp.RateLimit = latency, ex.RateLimit()
	return resp, nil
}

// response reads a message as the model's answer, a turn's or a batched
// request's, its tool names mapped back by mp.
func response(msg *sdk.Message, mp *toolname.Mapping) *model.Response {
	return &model.Response{
		Message:    model.Message{Role: model.Assistant, Blocks: blocks(msg.Content, mp)},
		StopReason: string(msg.StopReason),
		Usage: model.Usage{
			Input:      msg.Usage.InputTokens,
			Output:     msg.Usage.OutputTokens,
			CacheWrite: msg.Usage.CacheCreationInputTokens,
			CacheRead:  msg.Usage.CacheReadInputTokens,
		},
	}
}

// params builds the request body.
func (m *Model) params(req *model.Request, mp *toolname.Mapping) (sdk.MessageNewParams, error) {
	p := sdk.MessageNewParams{
		Model:     sdk.Model(m.info.Name),
		MaxTokens: m.maxTokens,
		Thinking:  m.thinking,
	}
	if m.effort != "" {
		p.OutputConfig = sdk.OutputConfigParam{Effort: m.effort}
	}
	if req.System != "" {
		p.System = []sdk.TextBlockParam{{Text: req.System, CacheControl: sdk.NewCacheControlEphemeralParam()}}
	}
	for i, t := range req.Tools {
		tu, err := m.tool(t, mp.Wire(t.Name), i == len(req.Tools)-1)
		if err != nil {
			return p, err
		}
		p.Tools = append(p.Tools, tu)
	}
	if req.ToolChoice != nil { // see toolchoice.go
		tc, err := m.toolChoice(req, mp)
		if err != nil {
			return p, err
		}
		p.ToolChoice = tc
	}
	for i, msg := range req.Messages {
		var bs []sdk.ContentBlockParamUnion
		for j, b := range msg.Blocks {
			pb, ok, err := blockParam(b, mp)
			if err != nil {
				return p, fmt.Errorf("message %d block %d: %w", i, j, err)
			}
			if ok {
				bs = append(bs, pb)
			}
		}
		if i > 0 && i == len(req.Messages)-1 {
			// On a later turn the conversation so far is also the next
			// turn's prefix: marking its last block caches it, so each turn
			// reads what the one before wrote. With the tools and the
			// system prompt that is three of the four breakpoints the API
			// allows. A first turn marks nothing more: a single-turn
			// attempt would pay for a cache write nothing reads.
			markLast(bs)
		}
		switch msg.Role {
		case model.User:
			p.Messages = append(p.Messages, sdk.NewUserMessage(bs...))
		case model.Assistant:
			p.Messages = append(p.Messages, sdk.NewAssistantMessage(bs...))
		default:
			return p, fmt.Errorf("message %d: role %q is neither user nor assistant", i, msg.Role)
		}
	}
	return p, nil
}

// tool returns tool t's wire form under the name wire, with a cache
// breakpoint when last (the last tool carries the prefix's breakpoint):
// made once a run (send.ToolCache) and sent as the union's override, the
// bytes the SDK wrote.
func (m *Model) tool(t model.Tool, wire string, last bool) (sdk.ToolUnionParam, error) {
	schema := send.InputSchema(t)
	mark := ""
	if last {
		mark = "breakpoint"
	}
	return m.tools.Get(send.ToolKey(mark, wire, t.Description, schema), func() (sdk.ToolUnionParam, error) {
		if !json.Valid(schema) {
			return sdk.ToolUnionParam{}, fmt.Errorf("tool %q: input schema is not JSON", t.Name)
		}
		tp := sdk.ToolParam{
			Name:        wire,
			InputSchema: param.Override[sdk.ToolInputSchemaParam](json.RawMessage(schema)),
		}
		if t.Description != "" {
			tp.Description = param.NewOpt(t.Description)
		}
		if last {
			tp.CacheControl = sdk.NewCacheControlEphemeralParam()
		}
		raw, err := json.Marshal(sdk.ToolUnionParam{OfTool: &tp})
		if err != nil {
			return sdk.ToolUnionParam{}, fmt.Errorf("tool %q: %w", t.Name, err)
		}
		return param.Override[sdk.ToolUnionParam](json.RawMessage(raw)), nil
	})
}

// markLast sets a cache breakpoint on the last block of a message that can
// carry one.
func markLast(bs []sdk.ContentBlockParamUnion) {
	for i := len(bs) - 1; i >= 0; i-- {
		if bs[i].OfThinking != nil || bs[i].OfRedactedThinking != nil {
			continue // the API refuses cache_control on thinking blocks
		}
		if cc := bs[i].GetCacheControl(); cc != nil {
			*cc = sdk.NewCacheControlEphemeralParam()
			return
		}
	}
}

// blockParam turns a block into its wire form; ok is false for a block that
// cannot be sent (empty text, a thinking block that lost its signature).
func blockParam(b model.Block, mp *toolname.Mapping) (sdk.ContentBlockParamUnion, bool, error) {
	if len(b.Opaque) > 0 {
		return rawBlock(b.Opaque)
	}
	switch b.Kind {
	case model.Text:
		if b.Text == "" {
			return sdk.ContentBlockParamUnion{}, false, nil
		}
		return sdk.ContentBlockParamUnion{OfText: &sdk.TextBlockParam{Text: b.Text}}, true, nil
	case model.ToolUse:
		if b.Call == nil {
			return sdk.ContentBlockParamUnion{}, false, fmt.Errorf("tool_use block without a call")
		}
		args := bytes.TrimSpace(b.Call.Args)
		if len(args) == 0 {
			args = []byte("{}")
		}
		if !json.Valid(args) {
			return sdk.ContentBlockParamUnion{}, false, fmt.Errorf("call %s: arguments are not JSON, which a tool_use block cannot carry", b.Call.ID)
		}
		name := send.CallName(mp, b.Call)
		return sdk.ContentBlockParamUnion{OfToolUse: &sdk.ToolUseBlockParam{ID: b.Call.ID, Name: name, Input: json.RawMessage(args)}}, true, nil
	case model.ToolResult:
		if b.Result == nil {
			return sdk.ContentBlockParamUnion{}, false, fmt.Errorf("tool_result block without a result")
		}
		r := &sdk.ToolResultBlockParam{ToolUseID: b.Result.CallID}
		if b.Result.Content != "" {
			r.Content = []sdk.ToolResultBlockParamContentUnion{{OfText: &sdk.TextBlockParam{Text: b.Result.Content}}}
		}
		if b.Result.IsError {
			r.IsError = param.NewOpt(true)
		}
		return sdk.ContentBlockParamUnion{OfToolResult: r}, true, nil
	case model.Thinking:
		// Without its signature the API refuses a thinking block.
		return sdk.ContentBlockParamUnion{}, false, nil
	}
	return sdk.ContentBlockParamUnion{}, false, fmt.Errorf("block kind %q has no wire form", b.Kind)
}

// rawBlock sends a block exactly as the API sent it.
func rawBlock(raw json.RawMessage) (sdk.ContentBlockParamUnion, bool, error) {
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(raw, &head); err != nil || head.Type == "" {
		return sdk.ContentBlockParamUnion{}, false, fmt.Errorf("opaque block is not a typed JSON object")
	}
	raw = slices.Clone(raw)
	switch head.Type {
	case "thinking":
		return sdk.ContentBlockParamUnion{OfThinking: ptr(param.Override[sdk.ThinkingBlockParam](raw))}, true, nil
	case "redacted_thinking":
		return sdk.ContentBlockParamUnion{OfRedactedThinking: ptr(param.Override[sdk.RedactedThinkingBlockParam](raw))}, true, nil
	}
	// Any other block type: the variant only carries the raw JSON.
	return sdk.ContentBlockParamUnion{OfText: ptr(param.Override[sdk.TextBlockParam](raw))}, true, nil
}

// blocks turns the answer's content into model blocks.
func blocks(content []sdk.ContentBlockUnion, mp *toolname.Mapping) []model.Block {
	out := make([]model.Block, 0, len(content))
	for _, c := range content {
		raw := json.RawMessage(c.RawJSON())
		if len(raw) == 0 {
			raw, _ = json.Marshal(c)
		}
		raw = slices.Clone(raw)
		switch c.Type {
		case "text":
			out = append(out, model.Block{Kind: model.Text, Text: c.Text})
		case "thinking":
			out = append(out, model.Block{Kind: model.Thinking, Text: c.Thinking, Opaque: raw})
		case "redacted_thinking":
			out = append(out, model.Block{Kind: model.Thinking, Opaque: raw})
		case "tool_use":
			call := &model.Call{ID: c.ID, Name: mp.MCP(c.Name), Args: slices.Clone(c.Input)}
			if call.Name != c.Name {
				call.WireName = c.Name
			}
			out = append(out, model.Block{Kind: model.ToolUse, Call: call})
		default:
			out = append(out, model.Block{Kind: model.BlockKind(c.Type), Opaque: raw})
		}
	}
	return out
}

func ptr[T any](v T) *T { return &v }
