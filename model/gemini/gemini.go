package gemini

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"cloud.google.com/go/auth"
	"cloud.google.com/go/auth/credentials"
	"cloud.google.com/go/auth/httptransport"
	"google.golang.org/genai"

	"github.com/mcpeval/mcpeval/internal/netclient"
	"github.com/mcpeval/mcpeval/internal/provider/send"
	"github.com/mcpeval/mcpeval/internal/provider/specopt"
	"github.com/mcpeval/mcpeval/internal/retry"
	"github.com/mcpeval/mcpeval/internal/toolname"
	"github.com/mcpeval/mcpeval/model"
)

// DefaultTimeout bounds one try when Config.Timeout is zero.
const DefaultTimeout = 120 * time.Second

// Options lists the spec options the provider accepts.
var Options = []string{"location", "max_tokens", "project", "seed", "temperature", "thinking", "top_p", "vertex"}

// Config is how to reach the API.
type Config struct {
	// APIKey is the Gemini API key; required unless Vertex AI is used.
	APIKey string
	// BaseURL replaces the API's home (generativelanguage.googleapis.com, or
	// the Vertex AI endpoint of the location); empty means the SDK's.
	BaseURL string
	// Project and Location name the Google Cloud project and region for
	// Vertex AI; the spec's project and location options take precedence.
	Project, Location string
	// Credentials authorize Vertex AI requests; nil means Application
	// Default Credentials, found when the model is opened.
	Credentials *auth.Credentials
	// HTTPClient sends the requests (its Transport is used underneath the
	// credentials); nil means a plain http.Client.
	HTTPClient *http.Client
	// Timeout bounds each try; zero means DefaultTimeout.
	Timeout time.Duration
	// Retry says when a refused try is sent again.
	Retry retry.Policy
}

// FromEnv returns the Config the environment gives: the key from
// GOOGLE_API_KEY or else GEMINI_API_KEY (the SDK's order), the base URL
// from GOOGLE_GEMINI_BASE_URL (GOOGLE_VERTEX_BASE_URL with vertex=true), and
// the project and location from GOOGLE_CLOUD_PROJECT and
// GOOGLE_CLOUD_LOCATION (or GOOGLE_CLOUD_REGION). With vertex=true no API
// key is taken: Vertex AI is reached with Google Cloud credentials.
func FromEnv(info model.Info) Config {
	c := Config{
		Project:  os.Getenv("GOOGLE_CLOUD_PROJECT"),
		Location: cmp(os.Getenv("GOOGLE_CLOUD_LOCATION"), os.Getenv("GOOGLE_CLOUD_REGION")),
	}
	if info.Options["vertex"] == "true" {
		c.BaseURL = os.Getenv("GOOGLE_VERTEX_BASE_URL")
		return c
	}
	c.APIKey = cmp(os.Getenv("GOOGLE_API_KEY"), os.Getenv("GEMINI_API_KEY"))
	c.BaseURL = os.Getenv("GOOGLE_GEMINI_BASE_URL")
	return c
}

func cmp(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// Model is a Gemini model behind the Gemini API or Vertex AI. It is safe for
// concurrent use.
type Model struct {
	info    model.Info
	client  *genai.Client
	key     string
	timeout time.Duration
	policy  retry.Policy
	config  genai.GenerateContentConfig
	vertex  bool
	creds   *auth.Credentials
}

// New checks info's options and returns the model. It sends nothing, but
// with vertex=true and no Config.Credentials it looks for Application
// Default Credentials.
func New(info model.Info, cfg Config) (*Model, error) {
	if err := specopt.Provider(info, "gemini"); err != nil {
		return nil, err
	}
	m := &Model{info: info, key: cfg.APIKey, timeout: specopt.Timeout(cfg.Timeout, DefaultTimeout), policy: cfg.Retry}
	if err := m.options(info.Options, &cfg); err != nil {
		return nil, fmt.Errorf("model spec %q: %w", info.Spec, err)
	}
	if cfg.BaseURL != "" {
		if _, err := specopt.BaseURL(info.Spec, nil, cfg.BaseURL, ""); err != nil {
			return nil, err
		}
	}
	var base http.RoundTripper = netclient.Transport()
	if cfg.HTTPClient != nil && cfg.HTTPClient.Transport != nil {
		base = cfg.HTTPClient.Transport
	}
	cc := &genai.ClientConfig{
		HTTPOptions: genai.HTTPOptions{BaseURL: cfg.BaseURL},
		HTTPClient:  &http.Client{Transport: tapTransport{base}, CheckRedirect: specopt.Redirect},
	}
	if m.vertex {
		if cfg.Project == "" || cfg.Location == "" {
			return nil, fmt.Errorf("model spec %q: Vertex AI needs a project and a location: set GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION, or the project= and location= options", info.Spec)
		}
		creds := cfg.Credentials
		if creds == nil {
			var err error
			creds, err = credentials.DetectDefault(&credentials.DetectOptions{Scopes: []string{"https://www.googleapis.com/auth/cloud-platform"}})
			if err != nil {
				return nil, fmt.Errorf("model spec %q: finding Google Cloud credentials for Vertex AI (run gcloud auth application-default login): %s", info.Spec, retry.Short(retry.Redact(err.Error()), 300))
			}
		}
		hc, err := httptransport.NewClient(&httptransport.Options{Credentials: creds, BaseRoundTripper: tapTransport{base}})
		if err != nil {
			return nil, fmt.Errorf("model spec %q: authorizing Vertex AI requests: %s", info.Spec, retry.Short(retry.Redact(err.Error()), 300))
		}
		hc.CheckRedirect = specopt.Redirect
		cc.Backend, cc.Project, cc.Location, cc.HTTPClient = genai.BackendVertexAI, cfg.Project, cfg.Location, hc
		m.key, m.creds = "", creds
	} else {
		if cfg.APIKey == "" {
			return nil, fmt.Errorf("model spec %q: no API key: set GEMINI_API_KEY (or GOOGLE_API_KEY), or use Vertex AI with vertex=true", info.Spec)
		}
		cc.Backend, cc.APIKey = genai.BackendGeminiAPI, cfg.APIKey
	}
	client, err := genai.NewClient(context.Background(), cc)
	if err != nil {
		// The SDK's message may print the whole config, key included.
		return nil, fmt.Errorf("model spec %q: opening the client: %s", info.Spec, retry.Short(retry.Redact(err.Error(), cfg.APIKey), 300))
	}
	m.client = client
	return m, nil
}

// options applies the spec's options, refusing any it does not know.
func (m *Model) options(opts map[string]string, cfg *Config) error {
	for _, k := range specopt.Keys(opts) {
		v := opts[k]
		var err error
		switch k {
		case "vertex":
			m.vertex, err = specopt.Bool(k, v)
		case "project", "location":
			if opts["vertex"] != "true" {
				return fmt.Errorf("option %s: only Vertex AI has projects and locations; add vertex=true", k)
			}
			if v == "" || strings.ContainsAny(v, "/?#") {
				return fmt.Errorf("option %s=%q: want a Google Cloud %s name", k, v, k)
			}
			if k == "project" {
				cfg.Project = v
			} else {
				cfg.Location = v
			}
		case "max_tokens":
			var n int64
			n, err = specopt.PositiveInt(k, v, 32)
			m.config.MaxOutputTokens = int32(n)
		case "temperature":
			m.config.Temperature, err = specopt.Float32(k, v, 0, 2)
		case "top_p":
			m.config.TopP, err = specopt.Float32(k, v, 0, 1)
		case "seed":
			var n int64
			n, err = specopt.Int(k, v, 32)
			s := int32(n)
			m.config.Seed = &s
		case "thinking":
			var budget int32
			switch v {
			case "off":
				budget = 0
			case "dynamic":
				budget = -1
			default:
				n, perr := strconv.ParseInt(v, 10, 32)
				if perr != nil || n < 1 {
					return fmt.Errorf("option thinking=%q: want off, dynamic, or a budget in tokens", v)
				}
				budget = int32(n)
			}
			m.config.ThinkingConfig = &genai.ThinkingConfig{ThinkingBudget: &budget, IncludeThoughts: budget != 0}
		default:
			return specopt.Unknown(k, "gemini", Options)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// Generate sends req and returns the model's turn.
func (m *Model) Generate(ctx context.Context, req *model.Request) (*model.Response, error) {
	type call struct {
		contents []*genai.Content
		config   *genai.GenerateContentConfig
	}
	build := func(req *model.Request, mp *names) (call, error) {
		contents, config, err := m.params(req, mp)
		return call{contents, config}, err
	}
	try := func(ctx context.Context, c call, mp *names) (*model.Response, error) {
		return m.try(ctx, c.contents, c.config, mp, len(req.Messages))
	}
	return send.Turn(ctx, m.policy, "gemini:"+m.info.Name, req, mapNames, build, try)
}

// try sends one request.
func (m *Model) try(ctx context.Context, contents []*genai.Content, config *genai.GenerateContentConfig, mp *names, turn int) (*model.Response, error) {
	t := &tap{ex: retry.Exchange{Timeout: m.timeout, Secrets: []string{m.key}}}
	if m.creds != nil {
		// The access token the request will carry (cached by the
		// credentials), so that an answer echoing it is redacted.
		if tok, err := m.creds.Token(ctx); err == nil && tok != nil {
			t.ex.Secrets = append(t.ex.Secrets, tok.Value)
		}
	}
	ctx, cancel := context.WithTimeout(context.WithValue(ctx, tapKey{}, t), m.timeout)
	defer cancel()
	start := time.Now()
	out, err := m.client.Models.GenerateContent(ctx, m.info.Name, contents, config)
	latency := time.Since(start)
	if err != nil {
		r := t.ex.Refusal(ctx, err)
		var ae genai.APIError
		if errors.As(err, &ae) && r.Status >= 400 && ae.Status != "" {
			r.Message = retry.Short(retry.Redact(ae.Status+": "+ae.Message, t.ex.Secrets...), 300)
		}
		return nil, r
	}
	var raw struct {
		Candidates []struct {
			Content struct {
				Parts []json.RawMessage `json:"parts"`
			} `json:"content"`
		} `json:"candidates"`
	}
	if json.Unmarshal(t.body, &raw) != nil || len(out.Candidates) == 0 || len(raw.Candidates) == 0 {
		why := "has no candidates"
		if out.PromptFeedback != nil && out.PromptFeedback.BlockReason != "" {
			why = "has no candidates: the prompt was blocked (" + string(out.PromptFeedback.BlockReason) + ")"
		}
		return nil, &retry.Refusal{Status: http.StatusOK, Message: "reading the answer: " + retry.Short(retry.Redact(strings.TrimSpace(string(t.body)), t.ex.Secrets...), 200) + " " + why}
	}
	bs, err := blocks(raw.Candidates[0].Content.Parts, mp, turn)
	if err != nil {
		return nil, &retry.Refusal{Status: http.StatusOK, Message: "reading the answer: " + retry.Short(retry.Redact(err.Error(), t.ex.Secrets...), 300)}
	}
	resp := &model.Response{
		Message:    model.Message{Role: model.Assistant, Blocks: bs},
		StopReason: string(out.Candidates[0].FinishReason),
		Latency:    latency,
	}
	if u := out.UsageMetadata; u != nil {
		cached := int64(u.CachedContentTokenCount)
		resp.Usage = model.Usage{
			Input:     max(0, int64(u.PromptTokenCount)+int64(u.ToolUsePromptTokenCount)-cached),
			Output:    int64(u.CandidatesTokenCount) + int64(u.ThoughtsTokenCount),
			CacheRead: cached,
		}
	}
	return resp, nil
}

// params builds the request: the conversation and the config.
func (m *Model) params(req *model.Request, mp *names) ([]*genai.Content, *genai.GenerateContentConfig, error) {
	config := m.config
	if req.System != "" {
		config.SystemInstruction = &genai.Content{Parts: []*genai.Part{{Text: req.System}}}
	}
	if len(req.Tools) > 0 {
		var decls []*genai.FunctionDeclaration
		for _, t := range req.Tools {
			schema := send.InputSchema(t)
			if schema[0] != '{' || !json.Valid(schema) {
				return nil, nil, fmt.Errorf("tool %q: input schema is not a JSON object", t.Name)
			}
			decls = append(decls, &genai.FunctionDeclaration{Name: mp.Wire(t.Name), Description: t.Description, ParametersJsonSchema: json.RawMessage(schema)})
		}
		config.Tools = []*genai.Tool{{FunctionDeclarations: decls}}
	}
	// Which calls carried the API's own id, and under which wire name, so
	// that each result answers its call as the API expects.
	type callInfo struct {
		wire  string
		hasID bool
	}
	calls := map[string]callInfo{}
	var contents []*genai.Content
	for i, msg := range req.Messages {
		c := &genai.Content{}
		switch msg.Role {
		case model.User:
			c.Role = genai.RoleUser
		case model.Assistant:
			c.Role = genai.RoleModel
		default:
			return nil, nil, fmt.Errorf("message %d: role %q is neither user nor assistant", i, msg.Role)
		}
		for j, b := range msg.Blocks {
			p, err := part(b, mp)
			if err != nil {
				return nil, nil, fmt.Errorf("message %d block %d: %w", i, j, err)
			}
			if p == nil {
				continue
			}
			if b.Kind == model.ToolUse && p.FunctionCall != nil {
				calls[b.Call.ID] = callInfo{p.FunctionCall.Name, p.FunctionCall.ID != ""}
			}
			if b.Kind == model.ToolResult {
				ci, ok := calls[b.Result.CallID]
				if !ok {
					ci = callInfo{wire: mp.Wire(b.Result.Name)}
				}
				p.FunctionResponse.Name = ci.wire
				if !ci.hasID {
					p.FunctionResponse.ID = ""
				}
			}
			c.Parts = append(c.Parts, p)
		}
		if len(c.Parts) == 0 {
			// The API refuses empty parts; an assistant turn that said
			// nothing is sent as an empty text.
			c.Parts = []*genai.Part{{Text: ""}}
		}
		contents = append(contents, c)
	}
	return contents, &config, nil
}

// part turns a block into its wire form; nil for a block that cannot be
// sent (a thinking block without its part).
func part(b model.Block, mp *names) (*genai.Part, error) {
	if len(b.Opaque) > 0 {
		var p genai.Part
		if err := json.Unmarshal(b.Opaque, &p); err != nil {
			return nil, fmt.Errorf("opaque block is not a part: %v", err)
		}
		return &p, nil
	}
	switch b.Kind {
	case model.Text:
		if b.Text == "" {
			return nil, nil
		}
		return &genai.Part{Text: b.Text}, nil
	case model.Thinking:
		return nil, nil
	case model.ToolUse:
		if b.Call == nil {
			return nil, fmt.Errorf("tool_use block without a call")
		}
		args := map[string]any{}
		if a := bytes.TrimSpace(b.Call.Args); len(a) > 0 {
			if err := json.Unmarshal(a, &args); err != nil {
				return nil, fmt.Errorf("call %s: arguments are not a JSON object, which a function call cannot carry", b.Call.ID)
			}
		}
		name := send.CallName(mp, b.Call)
		return &genai.Part{FunctionCall: &genai.FunctionCall{ID: b.Call.ID, Name: name, Args: args}}, nil
	case model.ToolResult:
		if b.Result == nil {
			return nil, fmt.Errorf("tool_result block without a result")
		}
		key := "output"
		if b.Result.IsError {
			key = "error"
		}
		return &genai.Part{FunctionResponse: &genai.FunctionResponse{ID: b.Result.CallID, Response: map[string]any{key: b.Result.Content}}}, nil
	}
	return nil, fmt.Errorf("block kind %q has no wire form", b.Kind)
}

// blocks turns the answer's parts, as the API sent them, into model
// blocks. A part with a thought signature keeps its JSON to go back
// verbatim; a call the API gave no id gets one ("gemini-TURN-N"), which is
// not sent back.
func blocks(parts []json.RawMessage, mp *names, turn int) ([]model.Block, error) {
	var out []model.Block
	for i, raw := range parts {
		var p struct {
			Text             string `json:"text"`
			Thought          bool   `json:"thought"`
			ThoughtSignature string `json:"thoughtSignature"`
			FunctionCall     *struct {
				ID   string          `json:"id"`
				Name string          `json:"name"`
				Args json.RawMessage `json:"args"`
			} `json:"functionCall"`
		}
		if err := json.Unmarshal(raw, &p); err != nil {
			return nil, fmt.Errorf("part %d: %v", i, err)
		}
		raw = slices.Clone(raw)
		switch {
		case p.FunctionCall != nil:
			args := p.FunctionCall.Args
			if len(bytes.TrimSpace(args)) == 0 {
				args = json.RawMessage(`{}`)
			}
			id := p.FunctionCall.ID
			if id == "" {
				id = fmt.Sprintf("gemini-%d-%d", turn, i)
			}
			call := &model.Call{ID: id, Name: mp.MCP(p.FunctionCall.Name), Args: slices.Clone(args)}
			if call.Name != p.FunctionCall.Name {
				call.WireName = p.FunctionCall.Name
			}
			out = append(out, model.Block{Kind: model.ToolUse, Call: call, Opaque: raw})
		case p.Thought:
			out = append(out, model.Block{Kind: model.Thinking, Text: p.Text, Opaque: raw})
		case p.ThoughtSignature != "":
			out = append(out, model.Block{Kind: model.Text, Text: p.Text, Opaque: raw})
		case p.Text != "":
			out = append(out, model.Block{Kind: model.Text, Text: p.Text})
		}
	}
	return out, nil
}

// tap is one try's view of its HTTP exchange: the retry.Exchange that
// tells a refusal apart, and the body of a successful answer, kept as the
// API sent it (the SDK's types lose the order of a call's arguments).
type tap struct {
	ex   retry.Exchange
	body []byte
}

type tapKey struct{}

// tapTransport runs the try's tap, found in the request's context, around
// each request.
type tapTransport struct{ base http.RoundTripper }

func (t tapTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	tp, _ := req.Context().Value(tapKey{}).(*tap)
	if tp == nil {
		return t.base.RoundTrip(req)
	}
	resp, err := tp.ex.Middleware(req, t.base.RoundTrip)
	if err != nil || resp == nil {
		return resp, err
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body = io.NopCloser(bytes.NewReader(b))
	if resp.StatusCode < 300 {
		tp.body = b
	}
	return resp, nil
}

// names maps MCP tool names to the names Gemini accepts and back: those of
// package toolname, with an underscore before a name that does not start
// with a letter or an underscore, as Gemini requires.
type names struct {
	mp       *toolname.Mapping
	toGemini map[string]string // toolname's wire name -> Gemini's
	fromGem  map[string]string // Gemini's -> toolname's wire name
}

func mapNames(mcp []string) *names {
	n := &names{mp: toolname.Map(mcp), toGemini: map[string]string{}, fromGem: map[string]string{}}
	taken := map[string]bool{}
	for _, name := range mcp {
		taken[n.mp.Wire(name)] = true
	}
	for _, name := range mcp {
		w := n.mp.Wire(name)
		if c := w[0]; c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			continue
		}
		g := "_" + w
		if len(g) > toolname.MaxLen {
			g = "_" + w[1:]
		}
		for taken[g] {
			g = "_" + g[:min(len(g), toolname.MaxLen-1)]
		}
		taken[g] = true
		n.toGemini[w], n.fromGem[g] = g, w
	}
	return n
}

// Wire returns the name Gemini is shown for an MCP tool name.
func (n *names) Wire(name string) string {
	w := n.mp.Wire(name)
	if g, ok := n.toGemini[w]; ok {
		return g
	}
	return w
}

// MCP returns the MCP tool name for a name Gemini used.
func (n *names) MCP(wire string) string {
	if w, ok := n.fromGem[wire]; ok {
		wire = w
	}
	return n.mp.MCP(wire)
}
