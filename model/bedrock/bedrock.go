package bedrock

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime/document"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime/types"
	"github.com/aws/smithy-go"

	"github.com/mcpeval/mcpeval/internal/provider/awscfg"
	"github.com/mcpeval/mcpeval/internal/provider/send"
	"github.com/mcpeval/mcpeval/internal/provider/specopt"
	"github.com/mcpeval/mcpeval/internal/retry"
	"github.com/mcpeval/mcpeval/internal/toolname"
	"github.com/mcpeval/mcpeval/model"
)

// DefaultTimeout bounds one try when Config.Timeout is zero.
const DefaultTimeout = 120 * time.Second

// DefaultMaxTokens is maxTokens when the spec does not set it.
const DefaultMaxTokens = 8192

// Options lists the spec options the provider accepts.
var Options = []string{"cache", "max_tokens", "region", "temperature", "top_p"}

// Config is how to reach the API.
type Config struct {
	// AWS is the SDK's configuration: credentials and region. When its
	// Credentials are nil, New loads the standard chain
	// (config.LoadDefaultConfig: environment, shared files, SSO, roles,
	// instance metadata), which also reads an endpoint override from
	// AWS_ENDPOINT_URL_BEDROCK_RUNTIME or AWS_ENDPOINT_URL.
	AWS aws.Config
	// BaseEndpoint replaces the regional endpoint; empty means the SDK's.
	BaseEndpoint string
	// HTTPClient sends the requests; nil means a plain http.Client.
	HTTPClient *http.Client
	// Timeout bounds each try; zero means DefaultTimeout.
	Timeout time.Duration
	// Retry says when a refused try is sent again.
	Retry retry.Policy
}

// Model is a model behind Amazon Bedrock's Converse API. It is safe for
// concurrent use.
type Model struct {
	info      model.Info
	client    *bedrockruntime.Client
	creds     aws.CredentialsProvider
	timeout   time.Duration
	policy    retry.Policy
	inference types.InferenceConfiguration
	cache     bool
}

// New checks info's options and returns the model. It sends nothing to
// Bedrock; with no credentials in cfg it loads the standard AWS chain.
func New(info model.Info, cfg Config) (*Model, error) {
	if err := specopt.Provider(info, "bedrock"); err != nil {
		return nil, err
	}
	m := &Model{info: info, timeout: specopt.Timeout(cfg.Timeout, DefaultTimeout), policy: cfg.Retry}
	m.inference.MaxTokens = aws.Int32(DefaultMaxTokens)
	// Cache points are understood by the Anthropic and Amazon Nova models;
	// others refuse them.
	m.cache = strings.Contains(info.Name, "anthropic.") || strings.Contains(info.Name, "amazon.nova")
	region, err := m.options(info.Options)
	if err != nil {
		return nil, fmt.Errorf("model spec %q: %w", info.Spec, err)
	}
	awsCfg, err := awscfg.Load(info.Spec, cfg.AWS, region)
	if err != nil {
		return nil, err
	}
	if cfg.BaseEndpoint != "" {
		if _, err := specopt.Endpoint(info.Spec, cfg.BaseEndpoint); err != nil {
			return nil, err
		}
	}
	hc := specopt.Client(cfg.HTTPClient)
	m.creds = awsCfg.Credentials
	m.client = bedrockruntime.NewFromConfig(awsCfg, func(o *bedrockruntime.Options) {
		if cfg.BaseEndpoint != "" {
			o.BaseEndpoint = aws.String(cfg.BaseEndpoint)
		}
		o.HTTPClient = tapClient{hc}
		o.Retryer = aws.NopRetryer{}
		o.RetryMaxAttempts = 1
	})
	return m, nil
}

// options applies the spec's options, refusing any it does not know, and
// returns the region option.
func (m *Model) options(opts map[string]string) (region string, err error) {
	for _, k := range specopt.Keys(opts) {
		v := opts[k]
		switch k {
		case "region":
			if err := awscfg.Region(v); err != nil {
				return "", err
			}
			region = v
		case "cache":
			m.cache, err = specopt.Bool(k, v)
		case "max_tokens":
			var n int64
			n, err = specopt.PositiveInt(k, v, 32)
			m.inference.MaxTokens = aws.Int32(int32(n))
		case "temperature":
			m.inference.Temperature, err = specopt.Float32(k, v, 0, 1)
		case "top_p":
			m.inference.TopP, err = specopt.Float32(k, v, 0, 1)
		default:
			return "", specopt.Unknown(k, "bedrock", Options)
		}
		if err != nil {
			return "", err
		}
	}
	return region, nil
}

// Generate sends req and returns the model's turn.
func (m *Model) Generate(ctx context.Context, req *model.Request) (*model.Response, error) {
	return send.Turn(ctx, m.policy, "bedrock:"+m.info.Name, req, toolname.Map, m.params, m.try)
}

// try sends one request.
func (m *Model) try(ctx context.Context, in *bedrockruntime.ConverseInput, mp *toolname.Mapping) (*model.Response, error) {
	ex := &retry.Exchange{Timeout: m.timeout}
	if m.creds != nil {
		// Cached by the SDK: this asks the chain only when they expire.
		if c, err := m.creds.Retrieve(ctx); err == nil {
			ex.Secrets = []string{c.SecretAccessKey, c.SessionToken}
		}
	}
	ctx, cancel := context.WithTimeout(context.WithValue(ctx, exchangeKey{}, ex), m.timeout)
	defer cancel()
	start := time.Now()
	out, err := m.client.Converse(ctx, in)
	latency := time.Since(start)
	if err != nil {
		r := ex.Refusal(ctx, err)
		var ae smithy.APIError
		if errors.As(err, &ae) && r.Status >= 400 && ae.ErrorCode() != "" {
			r.Message = retry.Short(retry.Redact(ae.ErrorCode()+": "+ae.ErrorMessage(), ex.Secrets...), 300)
		}
		return nil, r
	}
	msg, ok := out.Output.(*types.ConverseOutputMemberMessage)
	if !ok {
		return nil, &retry.Refusal{Status: http.StatusOK, Message: fmt.Sprintf("reading the answer: output is %T, not a message", out.Output)}
	}
	bs, err := blocks(msg.Value.Content, mp)
	if err != nil {
		return nil, &retry.Refusal{Status: http.StatusOK, Message: "reading the answer: " + retry.Short(retry.Redact(err.Error(), ex.Secrets...), 300)}
	}
	resp := &model.Response{
		Message:    model.Message{Role: model.Assistant, Blocks: bs},
		StopReason: string(out.StopReason),
		Latency:    latency,
	}
	if u := out.Usage; u != nil {
		resp.Usage = model.Usage{
			Input:      int64(aws.ToInt32(u.InputTokens)),
			Output:     int64(aws.ToInt32(u.OutputTokens)),
			CacheWrite: int64(aws.ToInt32(u.CacheWriteInputTokens)),
			CacheRead:  int64(aws.ToInt32(u.CacheReadInputTokens)),
		}
	}
	return resp, nil
}

// params builds the request.
func (m *Model) params(req *model.Request, mp *toolname.Mapping) (*bedrockruntime.ConverseInput, error) {
	inference := m.inference
	in := &bedrockruntime.ConverseInput{ModelId: aws.String(m.info.Name), InferenceConfig: &inference}
	if req.System != "" {
		in.System = []types.SystemContentBlock{&types.SystemContentBlockMemberText{Value: req.System}}
		if m.cache {
			in.System = append(in.System, &types.SystemContentBlockMemberCachePoint{Value: types.CachePointBlock{Type: types.CachePointTypeDefault}})
		}
	}
	if len(req.Tools) > 0 {
		tc := &types.ToolConfiguration{}
		for _, t := range req.Tools {
			schema := send.InputSchema(t)
			var v map[string]any
			if err := json.Unmarshal(schema, &v); err != nil {
				return nil, fmt.Errorf("tool %q: input schema is not a JSON object", t.Name)
			}
			spec := types.ToolSpecification{Name: aws.String(mp.Wire(t.Name)), InputSchema: &types.ToolInputSchemaMemberJson{Value: document.NewLazyDocument(v)}}
			if t.Description != "" {
				spec.Description = aws.String(t.Description)
			}
			tc.Tools = append(tc.Tools, &types.ToolMemberToolSpec{Value: spec})
		}
		if m.cache {
			tc.Tools = append(tc.Tools, &types.ToolMemberCachePoint{Value: types.CachePointBlock{Type: types.CachePointTypeDefault}})
		}
		in.ToolConfig = tc
	}
	for i, msg := range req.Messages {
		bm := types.Message{}
		switch msg.Role {
		case model.User:
			bm.Role = types.ConversationRoleUser
		case model.Assistant:
			bm.Role = types.ConversationRoleAssistant
		default:
			return nil, fmt.Errorf("message %d: role %q is neither user nor assistant", i, msg.Role)
		}
		for j, b := range msg.Blocks {
			cb, err := contentBlock(b, mp)
			if err != nil {
				return nil, fmt.Errorf("message %d block %d: %w", i, j, err)
			}
			if cb != nil {
				bm.Content = append(bm.Content, cb)
			}
		}
		if len(bm.Content) == 0 {
			// Converse refuses an empty message; an assistant turn that said
			// nothing goes back as one space.
			bm.Content = []types.ContentBlock{&types.ContentBlockMemberText{Value: " "}}
		}
		in.Messages = append(in.Messages, bm)
	}
	return in, nil
}

// reasoning is a reasoning block as kept in model.Block.Opaque.
type reasoning struct {
	Text      string `json:"text,omitempty"`
	Signature string `json:"signature,omitempty"`
	Redacted  []byte `json:"redacted,omitempty"`
}

// contentBlock turns a block into its wire form; nil for a block that
// cannot be sent.
func contentBlock(b model.Block, mp *toolname.Mapping) (types.ContentBlock, error) {
	switch b.Kind {
	case model.Text:
		if b.Text == "" {
			return nil, nil
		}
		return &types.ContentBlockMemberText{Value: b.Text}, nil
	case model.Thinking:
		if len(b.Opaque) == 0 {
			return nil, nil
		}
		var r reasoning
		if err := json.Unmarshal(b.Opaque, &r); err != nil {
			return nil, fmt.Errorf("opaque reasoning block: %v", err)
		}
		if r.Redacted != nil {
			return &types.ContentBlockMemberReasoningContent{Value: &types.ReasoningContentBlockMemberRedactedContent{Value: r.Redacted}}, nil
		}
		rt := types.ReasoningTextBlock{Text: aws.String(r.Text)}
		if r.Signature != "" {
			rt.Signature = aws.String(r.Signature)
		}
		return &types.ContentBlockMemberReasoningContent{Value: &types.ReasoningContentBlockMemberReasoningText{Value: rt}}, nil
	case model.ToolUse:
		if b.Call == nil {
			return nil, fmt.Errorf("tool_use block without a call")
		}
		args := bytes.TrimSpace(b.Call.Args)
		if len(args) == 0 {
			args = []byte("{}")
		}
		var v map[string]any
		if err := json.Unmarshal(args, &v); err != nil {
			return nil, fmt.Errorf("call %s: arguments are not a JSON object, which a toolUse block cannot carry", b.Call.ID)
		}
		name := send.CallName(mp, b.Call)
		return &types.ContentBlockMemberToolUse{Value: types.ToolUseBlock{ToolUseId: aws.String(b.Call.ID), Name: aws.String(name), Input: document.NewLazyDocument(v)}}, nil
	case model.ToolResult:
		if b.Result == nil {
			return nil, fmt.Errorf("tool_result block without a result")
		}
		r := types.ToolResultBlock{ToolUseId: aws.String(b.Result.CallID), Status: types.ToolResultStatusSuccess}
		content := b.Result.Content
		if content == "" {
			content = " " // a text block may not be empty
		}
		r.Content = []types.ToolResultContentBlock{&types.ToolResultContentBlockMemberText{Value: content}}
		if b.Result.IsError {
			r.Status = types.ToolResultStatusError
		}
		return &types.ContentBlockMemberToolResult{Value: r}, nil
	}
	return nil, fmt.Errorf("block kind %q has no wire form", b.Kind)
}

// blocks turns the answer's content into model blocks.
func blocks(content []types.ContentBlock, mp *toolname.Mapping) ([]model.Block, error) {
	var out []model.Block
	for i, c := range content {
		switch c := c.(type) {
		case *types.ContentBlockMemberText:
			out = append(out, model.Block{Kind: model.Text, Text: c.Value})
		case *types.ContentBlockMemberToolUse:
			wire := aws.ToString(c.Value.Name)
			args := []byte("{}")
			if c.Value.Input != nil {
				b, err := c.Value.Input.MarshalSmithyDocument()
				if err != nil {
					return nil, fmt.Errorf("content %d: the input of %s: %v", i, wire, err)
				}
				args = b
			}
			call := &model.Call{ID: aws.ToString(c.Value.ToolUseId), Name: mp.MCP(wire), Args: args}
			if call.Name != wire {
				call.WireName = wire
			}
			out = append(out, model.Block{Kind: model.ToolUse, Call: call})
		case *types.ContentBlockMemberReasoningContent:
			var r reasoning
			switch v := c.Value.(type) {
			case *types.ReasoningContentBlockMemberReasoningText:
				r.Text, r.Signature = aws.ToString(v.Value.Text), aws.ToString(v.Value.Signature)
			case *types.ReasoningContentBlockMemberRedactedContent:
				r.Redacted = v.Value
			default:
				continue
			}
			raw, _ := json.Marshal(r)
			out = append(out, model.Block{Kind: model.Thinking, Text: r.Text, Opaque: raw})
		}
	}
	return out, nil
}

type exchangeKey struct{}

// tapClient runs the try's retry.Exchange, found in the request's context,
// around each request.
type tapClient struct{ hc *http.Client }

func (t tapClient) Do(req *http.Request) (*http.Response, error) {
	ex, _ := req.Context().Value(exchangeKey{}).(*retry.Exchange)
	if ex == nil {
		return t.hc.Do(req)
	}
	return ex.Middleware(req, t.hc.Do)
}
