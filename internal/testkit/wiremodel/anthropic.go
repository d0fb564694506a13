package wiremodel

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// The Messages API request, as far as the handler reads it.
type antRequest struct {
	Model     string            `json:"model"`
	MaxTokens int64             `json:"max_tokens"`
	System    json.RawMessage   `json:"system"`
	Tools     []json.RawMessage `json:"tools"`
	Messages  []antMessage      `json:"messages"`
	Thinking  *struct {
		Type string `json:"type"`
	} `json:"thinking"`
	Stream bool `json:"stream"`
}

type antMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

type antTool struct {
	Name         string          `json:"name"`
	Type         string          `json:"type"`
	InputSchema  json.RawMessage `json:"input_schema"`
	CacheControl json.RawMessage `json:"cache_control"`
}

type antBlock struct {
	Type         string          `json:"type"`
	Text         string          `json:"text"`
	ID           string          `json:"id"`
	Name         string          `json:"name"`
	Input        json.RawMessage `json:"input"`
	ToolUseID    string          `json:"tool_use_id"`
	Thinking     string          `json:"thinking"`
	Signature    string          `json:"signature"`
	CacheControl json.RawMessage `json:"cache_control"`
}

// blocks reads a message's content: a string or a list of blocks.
func (m antMessage) blocks() ([]antBlock, error) {
	c := bytes.TrimSpace(m.Content)
	if len(c) > 0 && c[0] == '"' {
		var s string
		if err := json.Unmarshal(c, &s); err != nil {
			return nil, err
		}
		return []antBlock{{Type: "text", Text: s}}, nil
	}
	var bs []antBlock
	err := json.Unmarshal(c, &bs)
	return bs, err
}

// Sign returns the signature the handler gives a thinking text, and
// expects back with it.
func Sign(thinking string) string {
	sum := sha256.Sum256([]byte("wiremodel thinking\x00" + thinking))
	return base64.StdEncoding.EncodeToString(sum[:])
}

// antCall is a Messages API request, read and checked, with what the
// answer needs from it.
type antCall struct {
	req       antRequest
	msgs      [][]antBlock // each message's content blocks
	offered   []string     // the tool names offered, in order
	cacheable bool         // the system prompt or a tool asks for caching
	thinking  bool         // extended thinking is on
	turns     int          // assistant turns so far
}

func (h *Handler) serveAnthropic(w http.ResponseWriter, r *http.Request, body []byte) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/messages" {
		h.fail(w, http.StatusNotFound, "not_found_error", "Not Found")
		return
	}
	if !h.checkKey(r) {
		h.fail(w, http.StatusUnauthorized, "authentication_error", "invalid x-api-key")
		return
	}
	bad := func(err error) {
		h.fail(w, http.StatusBadRequest, "invalid_request_error", err.Error())
	}
	if r.Header.Get("Anthropic-Version") == "" {
		bad(errors.New("anthropic-version: header is required"))
		return
	}
	c, err := readAntCall(body)
	if err != nil {
		bad(err)
		return
	}
	rep, err := h.answer(c.prompt(), c.turns, c.offered)
	if err != nil {
		bad(err)
		return
	}
	h.writeJSON(w, h.antResponse(c, rep, body))
}

// readAntCall reads a Messages API body and refuses it as the API would.
func readAntCall(body []byte) (*antCall, error) {
	c := &antCall{}
	if err := json.Unmarshal(body, &c.req); err != nil {
		return nil, apiError(fmt.Sprintf("There was an error parsing the body: %v", err))
	}
	if err := checkAntFields(c.req); err != nil {
		return nil, err
	}
	var err error
	var cacheTools bool
	if c.offered, cacheTools, err = antTools(c.req.Tools); err != nil {
		return nil, err
	}
	c.cacheable = cacheTools || bytes.Contains(c.req.System, []byte(`"cache_control"`))
	c.thinking = c.req.Thinking != nil && (c.req.Thinking.Type == "enabled" || c.req.Thinking.Type == "adaptive")
	if c.msgs, err = antContents(c.req.Messages); err != nil {
		return nil, err
	}
	if c.turns, err = c.checkAssistantTurns(); err != nil {
		return nil, err
	}
	if err := c.checkToolResults(); err != nil {
		return nil, err
	}
	return c, nil
}

// checkAntFields refuses a request missing a field the API requires, or
// asking for a stream.
func checkAntFields(req antRequest) error {
	switch {
	case req.Model == "":
		return errors.New("model: Field required")
	case req.MaxTokens <= 0:
		return errors.New("max_tokens: Field required")
	case req.Stream:
		return errors.New("stream: wiremodel answers only non-streaming requests")
	case len(req.Messages) == 0:
		return errors.New("messages: at least one message is required")
	case req.Messages[0].Role != "user":
		return errors.New("messages: first message must use the \"user\" role")
	}
	return nil
}

// antTools checks the tools offered and returns their names, and whether
// one of them asks for caching.
func antTools(tools []json.RawMessage) (offered []string, cacheable bool, err error) {
	seen := map[string]bool{}
	for i, raw := range tools {
		var t antTool
		if err := json.Unmarshal(raw, &t); err != nil {
			return nil, false, fmt.Errorf("tools.%d: %v", i, err)
		}
		if !toolNameRE.MatchString(t.Name) {
			return nil, false, fmt.Errorf("tools.%d.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'", i)
		}
		if seen[t.Name] {
			return nil, false, apiError("tools: Tool names must be unique.")
		}
		seen[t.Name] = true
		var schema struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(t.InputSchema, &schema) != nil || schema.Type != "object" {
			return nil, false, fmt.Errorf("tools.%d.custom.input_schema.type: Input should be 'object'", i)
		}
		if len(t.CacheControl) > 0 {
			cacheable = true
		}
		offered = append(offered, t.Name)
	}
	return offered, cacheable, nil
}

// antContents reads every message's content blocks and checks its role.
func antContents(messages []antMessage) ([][]antBlock, error) {
	msgs := make([][]antBlock, len(messages))
	for i, m := range messages {
		bs, err := m.blocks()
		if err != nil {
			return nil, fmt.Errorf("messages.%d.content: %v", i, err)
		}
		if m.Role != "user" && m.Role != "assistant" {
			return nil, fmt.Errorf("messages.%d.role: Input should be 'user' or 'assistant'", i)
		}
		msgs[i] = bs
	}
	return msgs, nil
}

// checkAssistantTurns checks each assistant message (its tool calls'
// inputs, its thinking blocks' signatures, that it starts with thinking
// when thinking is on, and that the next message answers its calls) and
// counts them.
func (c *antCall) checkAssistantTurns() (turns int, err error) {
	for i, m := range c.req.Messages {
		if m.Role != "assistant" {
			continue
		}
		turns++
		ids, err := checkAntBlocks(i, c.msgs[i])
		if err != nil {
			return 0, err
		}
		if err := c.checkStartsWithThinking(i, ids); err != nil {
			return 0, err
		}
		if err := c.checkAnswered(i, ids); err != nil {
			return 0, err
		}
	}
	return turns, nil
}

// checkAntBlocks checks the tool_use and thinking blocks of assistant
// message i and returns its tool_use ids.
func checkAntBlocks(i int, blocks []antBlock) (ids []string, err error) {
	for j, b := range blocks {
		switch b.Type {
		case "tool_use":
			ids = append(ids, b.ID)
			if len(bytes.TrimSpace(b.Input)) == 0 || bytes.TrimSpace(b.Input)[0] != '{' {
				return nil, fmt.Errorf("messages.%d.content.%d.tool_use.input: Input should be a valid dictionary", i, j)
			}
		case "thinking":
			if b.Signature != Sign(b.Thinking) {
				return nil, fmt.Errorf("messages.%d.content.%d: Invalid `signature` in `thinking` block", i, j)
			}
		}
	}
	return ids, nil
}

// checkStartsWithThinking refuses, with thinking on, assistant message i
// that calls tools without starting with a thinking block.
func (c *antCall) checkStartsWithThinking(i int, ids []string) error {
	if !c.thinking || len(ids) == 0 {
		return nil
	}
	first := ""
	if len(c.msgs[i]) > 0 {
		first = c.msgs[i][0].Type
	}
	if first == "thinking" || first == "redacted_thinking" {
		return nil
	}
	return apiError(fmt.Sprintf("messages.%d.content.0.type: Expected `thinking` or `redacted_thinking`, but found `%s`. When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks).", i, first))
}

// checkAnswered refuses tool_use ids of assistant message i that the next
// message, when there is one, does not answer with a tool_result.
func (c *antCall) checkAnswered(i int, ids []string) error {
	if len(ids) == 0 || i+1 >= len(c.req.Messages) {
		return nil
	}
	answered := map[string]bool{}
	if c.req.Messages[i+1].Role == "user" {
		for _, b := range c.msgs[i+1] {
			if b.Type == "tool_result" {
				answered[b.ToolUseID] = true
			}
		}
	}
	var missing []string
	for _, id := range ids {
		if !answered[id] {
			missing = append(missing, id)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return apiError(fmt.Sprintf("messages.%d: `tool_use` ids were found without `tool_result` blocks immediately after: %s. Each `tool_use` block must have a corresponding `tool_result` block in the next message.", i, strings.Join(missing, ", ")))
}

// checkToolResults refuses a tool_result in a user message that answers no
// tool_use of the assistant message before it.
func (c *antCall) checkToolResults() error {
	for i, m := range c.req.Messages {
		if m.Role != "user" {
			continue
		}
		prev := map[string]bool{}
		if i > 0 && c.req.Messages[i-1].Role == "assistant" {
			for _, b := range c.msgs[i-1] {
				if b.Type == "tool_use" {
					prev[b.ID] = true
				}
			}
		}
		for j, b := range c.msgs[i] {
			if b.Type == "tool_result" && !prev[b.ToolUseID] {
				return apiError(fmt.Sprintf("messages.%d.content.%d: unexpected `tool_use_id` found in `tool_result` blocks: %s. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.", i, j, b.ToolUseID))
			}
		}
	}
	return nil
}

// prompt is the text of the first message, which finds the case.
func (c *antCall) prompt() string {
	var prompt []string
	for _, b := range c.msgs[0] {
		if b.Type == "text" {
			prompt = append(prompt, b.Text)
		}
	}
	return strings.Join(prompt, "\n")
}

// antResponse is the Messages API's answer giving rep, with its usage.
func (h *Handler) antResponse(c *antCall, rep reply, body []byte) map[string]any {
	var content []map[string]any
	if c.thinking {
		text := fmt.Sprintf("Turn %d: the key says what to do next.", c.turns+1)
		content = append(content, map[string]any{"type": "thinking", "thinking": text, "signature": Sign(text)})
	}
	stop := "end_turn"
	if rep.text != "" {
		content = append(content, map[string]any{"type": "text", "text": rep.text})
	}
	for _, call := range rep.calls {
		stop = "tool_use"
		content = append(content, map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_wm%06d", h.nextID()), "name": call.wire, "input": call.args})
	}
	out, _ := json.Marshal(content)

	total := tokens(len(body))
	var write, read int64
	if c.cacheable {
		toolsJSON, _ := json.Marshal(c.req.Tools)
		prefix := min(total, tokens(len(toolsJSON)+len(c.req.System)))
		write, read = h.cache(hashOf([]byte(c.req.Model), toolsJSON, c.req.System), prefix)
	}
	return map[string]any{
		"id":            fmt.Sprintf("msg_wm%06d", h.nextID()),
		"type":          "message",
		"role":          "assistant",
		"model":         c.req.Model,
		"content":       json.RawMessage(out),
		"stop_reason":   stop,
		"stop_sequence": nil,
		"usage": map[string]any{
			"input_tokens":                total - write - read,
			"output_tokens":               tokens(len(out)),
			"cache_creation_input_tokens": write,
			"cache_read_input_tokens":     read,
			"cache_creation":              map[string]any{"ephemeral_5m_input_tokens": write, "ephemeral_1h_input_tokens": 0},
			"service_tier":                "standard",
		},
	}
}
