//lint:file-ignore SA1019 sampling, roots and logging are deprecated as of MCP 2026-07-28 (SEP-2577) but servers on earlier protocol versions still use them, and mcpeval must answer them as the reference clients do

package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// answerer answers what the server asks while one tool call of a
// conversation is under way (target.Answerer), and records each request
// and its answer on the call: sampling is put to the model
// (Config.Sampler, else the model under test), elicitation answered as the
// suite or the case says, per request.
type answerer struct {
	cv *conversation
	mu sync.Mutex
	rc *record.Call
}

// noElicitation is the note a declined elicitation carries when the suite
// says nothing of elicitation.
const noElicitation = "the suite sets no elicitation answer: declined"

// noMatch is the note a declined elicitation carries when no answer the
// suite sets matches the server's message.
const noMatch = "no elicitation answer of the suite matches the server's message: declined"

// Elicit implements target.Answerer: it answers at once, never waiting
// on a person.
func (an *answerer) Elicit(_ context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	e := record.Elicitation{Message: p.Message, Action: suite.ElicitDecline}
	if p.RequestedSchema != nil {
		if b, err := json.Marshal(p.RequestedSchema); err == nil {
			e.Schema = b
		}
	}
	res := &mcp.ElicitResult{Action: suite.ElicitDecline}
	want, set := an.cv.r.cfg.Suite.ElicitationFor(an.cv.c, p.Message)
	switch {
	case p.Mode != "" && p.Mode != "form":
		e.Note = fmt.Sprintf("%s mode is not answered: declined", p.Mode)
	case !set:
		e.Note = noElicitation
	case want == nil:
		e.Note = noMatch
	case want.Action != suite.ElicitAccept:
		e.Action, res.Action = want.Action, want.Action
	default:
		content := withDefaults(e.Schema, want.Content)
		if err := fits(e.Schema, content); err != nil {
			e.Note = fmt.Sprintf("the suite's content does not fit the requested schema (%v): declined", err)
			break
		}
		e.Action, res.Action, res.Content = suite.ElicitAccept, suite.ElicitAccept, content
		e.Content, _ = json.Marshal(content)
	}
	an.mu.Lock()
	an.rc.Elicitations = append(an.rc.Elicitations, e)
	an.mu.Unlock()
	return res, nil
}

// withDefaults returns a copy of content with the default of every
// property of the requested schema that content leaves out, as a form
// submits the defaults of the fields its user did not fill (SEP-1034).
// The suite's content is shared by every attempt, so it is never changed.
func withDefaults(schema json.RawMessage, content map[string]any) map[string]any {
	out := make(map[string]any, len(content))
	for k, v := range content {
		out[k] = v
	}
	// Defaults are decoded into the values JSON decodes to: the SDK
	// validates the content as Go values before it sends it.
	var s struct {
		Properties map[string]map[string]any `json:"properties"`
	}
	if len(schema) == 0 || json.Unmarshal(schema, &s) != nil {
		return out
	}
	for name, prop := range s.Properties {
		d := prop["default"]
		if _, set := out[name]; set || d == nil {
			continue
		}
		out[name] = d
	}
	return out
}

// fits checks content against a requested schema (none: anything fits).
// It cannot call actions.ValidateArgs, the validator tool arguments are
// checked with: grade/actions' own tests import the runner, and a runner
// importing grade/actions makes go vet on a cold build cache fail to
// find grade/actions' export data for that test build.
func fits(schema json.RawMessage, content map[string]any) error {
	if len(schema) == 0 {
		return nil
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(schema, &s); err != nil {
		return fmt.Errorf("reading the schema: %w", err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		return fmt.Errorf("resolving the schema: %w", err)
	}
	// Validate sees what the server will: the content as JSON.
	b, err := json.Marshal(content)
	if err != nil {
		return err
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	return rs.Validate(v)
}

// errSpent is the error a sampling request gets once the run's budget is
// spent.
var errSpent = errors.New("the run's budget is spent: sampling refused")

// refusal is the error a sampling request gets once no further attempt
// may start, for reason (what cfg.BeforeAttempt answered): the budget is
// spent, a stop rule decided ("stopped early: WHY"), or another reason.
func refusal(reason string) error {
	switch {
	case reason == string(record.KindBudget):
		return errSpent
	case strings.HasPrefix(reason, StoppedEarly+": "):
		return fmt.Errorf("the run %s (%s): sampling refused", StoppedEarly, strings.TrimPrefix(reason, StoppedEarly+": "))
	}
	return fmt.Errorf("the run is ending (%s): sampling refused", reason)
}

// Sample implements target.Answerer: the server's messages and system
// prompt go to the sampling model, and its text comes back.
func (an *answerer) Sample(ctx context.Context, p *mcp.CreateMessageParams) (*mcp.CreateMessageResult, error) {
	r := an.cv.r
	m, info := r.cfg.Model, (*model.Info)(nil)
	if r.cfg.Sampler != nil {
		m, info = r.cfg.Sampler, &r.cfg.SamplerInfo
	}
	// The server's maxTokens is recorded, not sent: a model.Request has no
	// limit on output tokens of its own, so the answering model's max_tokens
	// (its spec's option) applies (docs/targets.md says so).
	s := record.Sampling{System: p.SystemPrompt, MaxTokens: p.MaxTokens, Model: info}
	req := &model.Request{CaseID: an.cv.c.ID, System: p.SystemPrompt, Sampling: true}
	for _, msg := range p.Messages {
		text := contentText(msg.Content)
		s.Messages = append(s.Messages, record.SampledMessage{Role: string(msg.Role), Text: text})
		role := model.User
		if msg.Role == "assistant" {
			role = model.Assistant
		}
		req.Messages = append(req.Messages, model.Message{Role: role, Blocks: []model.Block{{Kind: model.Text, Text: text}}})
	}
	res, err := an.sample(ctx, m, req, &s)
	an.mu.Lock()
	an.rc.Sampling = append(an.rc.Sampling, s)
	an.mu.Unlock()
	return res, err
}

func (an *answerer) sample(ctx context.Context, m model.Model, req *model.Request, s *record.Sampling) (*mcp.CreateMessageResult, error) {
	cfg := an.cv.r.cfg
	if cfg.BeforeAttempt != nil {
		if why := cfg.BeforeAttempt(); why != "" {
			err := refusal(why)
			s.Error = err.Error()
			return nil, err
		}
	}
	t0 := time.Now()
	resp, err := m.Generate(ctx, req)
	if err != nil {
		var pe *model.ProviderError
		if errors.As(err, &pe) {
			s.Turn.Tries = pe.Tries
		}
		s.Error = err.Error()
		return nil, fmt.Errorf("sampling: %w", err)
	}
	lat := resp.Latency
	if lat == 0 {
		lat = time.Since(t0)
	}
	s.Turn = record.Turn{Text: resp.Message.TextOf(), StopReason: resp.StopReason, Usage: resp.Usage, LatencyMS: lat.Milliseconds(), Tries: resp.Tries}
	capTurn(&s.Turn, cfg.MaxOutputBytes)
	name := cfg.ModelInfo.Name
	if s.Model != nil {
		name = s.Model.Name
	}
	return &mcp.CreateMessageResult{Content: &mcp.TextContent{Text: resp.Message.TextOf()}, Model: name, Role: "assistant", StopReason: stopReason(resp.StopReason)}, nil
}

// stopReason maps a provider's stop reason to MCP's.
func stopReason(s string) string {
	switch s {
	case "max_tokens", "length", "MAX_TOKENS":
		return "maxTokens"
	case "stop_sequence":
		return "stopSequence"
	}
	return "endTurn"
}

// contentText returns a sampling message's text, or the JSON of content of
// another kind.
func contentText(c mcp.Content) string {
	if t, ok := c.(*mcp.TextContent); ok {
		return t.Text
	}
	b, _ := json.Marshal(c)
	return string(b)
}
