package wiremodel

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
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

func (h *Handler) serveAnthropic(w http.ResponseWriter, r *http.Request, body []byte) {
	bad := func(format string, args ...any) {
		h.fail(w, http.StatusBadRequest, "invalid_request_error", fmt.Sprintf(format, args...))
	}
	if r.Method != http.MethodPost || r.URL.Path != "/v1/messages" {
		h.fail(w, http.StatusNotFound, "not_found_error", "Not Found")
		return
	}
	if !h.checkKey(r) {
		h.fail(w, http.StatusUnauthorized, "authentication_error", "invalid x-api-key")
		return
	}
	if r.Header.Get("Anthropic-Version") == "" {
		bad("anthropic-version: header is required")
		return
	}
	var req antRequest
	if err := json.Unmarshal(body, &req); err != nil {
		bad("There was an error parsing the body: %v", err)
		return
	}
	switch {
	case req.Model == "":
		bad("model: Field required")
		return
	case req.MaxTokens <= 0:
		bad("max_tokens: Field required")
		return
	case req.Stream:
		bad("stream: wiremodel answers only non-streaming requests")
		return
	case len(req.Messages) == 0:
		bad("messages: at least one message is required")
		return
	case req.Messages[0].Role != "user":
		bad("messages: first message must use the \"user\" role")
		return
	}
	cacheable := bytes.Contains(req.System, []byte(`"cache_control"`))
	var offered []string
	seen := map[string]bool{}
	for i, raw := range req.Tools {
		var t antTool
		if err := json.Unmarshal(raw, &t); err != nil {
			bad("tools.%d: %v", i, err)
			return
		}
		if !toolNameRE.MatchString(t.Name) {
			bad("tools.%d.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'", i)
			return
		}
		if seen[t.Name] {
			bad("tools: Tool names must be unique.")
			return
		}
		seen[t.Name] = true
		var schema struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(t.InputSchema, &schema) != nil || schema.Type != "object" {
			bad("tools.%d.custom.input_schema.type: Input should be 'object'", i)
			return
		}
		if len(t.CacheControl) > 0 {
			cacheable = true
		}
		offered = append(offered, t.Name)
	}
	thinking := req.Thinking != nil && (req.Thinking.Type == "enabled" || req.Thinking.Type == "adaptive")
	msgs := make([][]antBlock, len(req.Messages))
	for i, m := range req.Messages {
		bs, err := m.blocks()
		if err != nil {
			bad("messages.%d.content: %v", i, err)
			return
		}
		if m.Role != "user" && m.Role != "assistant" {
			bad("messages.%d.role: Input should be 'user' or 'assistant'", i)
			return
		}
		msgs[i] = bs
	}
	turns := 0
	for i, m := range req.Messages {
		if m.Role != "assistant" {
			continue
		}
		turns++
		var ids []string
		for j, b := range msgs[i] {
			switch b.Type {
			case "tool_use":
				ids = append(ids, b.ID)
				if len(bytes.TrimSpace(b.Input)) == 0 || bytes.TrimSpace(b.Input)[0] != '{' {
					bad("messages.%d.content.%d.tool_use.input: Input should be a valid dictionary", i, j)
					return
				}
			case "thinking":
				if b.Signature != Sign(b.Thinking) {
					bad("messages.%d.content.%d: Invalid `signature` in `thinking` block", i, j)
					return
				}
			}
		}
		if thinking && len(ids) > 0 && (len(msgs[i]) == 0 || (msgs[i][0].Type != "thinking" && msgs[i][0].Type != "redacted_thinking")) {
			first := ""
			if len(msgs[i]) > 0 {
				first = msgs[i][0].Type
			}
			bad("messages.%d.content.0.type: Expected `thinking` or `redacted_thinking`, but found `%s`. When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks).", i, first)
			return
		}
		if len(ids) == 0 {
			continue
		}
		answered := map[string]bool{}
		if i+1 < len(req.Messages) && req.Messages[i+1].Role == "user" {
			for _, b := range msgs[i+1] {
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
		if len(missing) > 0 && i+1 < len(req.Messages) {
			bad("messages.%d: `tool_use` ids were found without `tool_result` blocks immediately after: %s. Each `tool_use` block must have a corresponding `tool_result` block in the next message.", i, strings.Join(missing, ", "))
			return
		}
	}
	for i, m := range req.Messages {
		if m.Role != "user" {
			continue
		}
		prev := map[string]bool{}
		if i > 0 && req.Messages[i-1].Role == "assistant" {
			for _, b := range msgs[i-1] {
				if b.Type == "tool_use" {
					prev[b.ID] = true
				}
			}
		}
		for j, b := range msgs[i] {
			if b.Type == "tool_result" && !prev[b.ToolUseID] {
				bad("messages.%d.content.%d: unexpected `tool_use_id` found in `tool_result` blocks: %s. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.", i, j, b.ToolUseID)
				return
			}
		}
	}
	var prompt []string
	for _, b := range msgs[0] {
		if b.Type == "text" {
			prompt = append(prompt, b.Text)
		}
	}
	rep, err := h.answer(strings.Join(prompt, "\n"), turns, offered)
	if err != nil {
		bad("%v", err)
		return
	}

	var content []map[string]any
	if thinking {
		text := fmt.Sprintf("Turn %d: the key says what to do next.", turns+1)
		content = append(content, map[string]any{"type": "thinking", "thinking": text, "signature": Sign(text)})
	}
	stop := "end_turn"
	if rep.text != "" {
		content = append(content, map[string]any{"type": "text", "text": rep.text})
	}
	for _, c := range rep.calls {
		stop = "tool_use"
		content = append(content, map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_wm%06d", h.nextID()), "name": c.wire, "input": c.args})
	}
	out, _ := json.Marshal(content)

	total := tokens(len(body))
	var write, read int64
	if cacheable {
		toolsJSON, _ := json.Marshal(req.Tools)
		prefix := min(total, tokens(len(toolsJSON)+len(req.System)))
		write, read = h.cache(hashOf([]byte(req.Model), toolsJSON, req.System), prefix)
	}
	h.writeJSON(w, map[string]any{
		"id":            fmt.Sprintf("msg_wm%06d", h.nextID()),
		"type":          "message",
		"role":          "assistant",
		"model":         req.Model,
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
	})
}
