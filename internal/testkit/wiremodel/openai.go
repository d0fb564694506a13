package wiremodel

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// The chat completions request, as far as the handler reads it.
type oaRequest struct {
	Model    string      `json:"model"`
	Messages []oaMessage `json:"messages"`
	Tools    []struct {
		Type     string `json:"type"`
		Function struct {
			Name       string          `json:"name"`
			Parameters json.RawMessage `json:"parameters"`
		} `json:"function"`
	} `json:"tools"`
	Stream bool `json:"stream"`
}

type oaMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCallID string          `json:"tool_call_id"`
	ToolCalls  []struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

// text reads a message's content: a string, a list of parts, or null.
func (m oaMessage) text() (string, error) {
	c := bytes.TrimSpace(m.Content)
	if len(c) == 0 || string(c) == "null" {
		return "", nil
	}
	if c[0] == '"' {
		var s string
		err := json.Unmarshal(c, &s)
		return s, err
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(c, &parts); err != nil {
		return "", err
	}
	var ts []string
	for _, p := range parts {
		if p.Type == "text" {
			ts = append(ts, p.Text)
		}
	}
	return strings.Join(ts, "\n"), nil
}

func (h *Handler) serveOpenAI(w http.ResponseWriter, r *http.Request, body []byte) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		h.fail(w, http.StatusNotFound, "invalid_request_error", fmt.Sprintf("Invalid URL (%s %s)", r.Method, r.URL.Path))
		return
	}
	if !h.checkKey(r) {
		h.fail(w, http.StatusUnauthorized, "invalid_request_error", "Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.")
		return
	}
	bad := func(err error) {
		h.fail(w, http.StatusBadRequest, "invalid_request_error", err.Error())
	}
	var req oaRequest
	if err := json.Unmarshal(body, &req); err != nil {
		bad(apiError(fmt.Sprintf("We could not parse the JSON body of your request. (%v)", err)))
		return
	}
	if err := checkOAFields(req); err != nil {
		bad(err)
		return
	}
	offered, err := oaTools(req)
	if err != nil {
		bad(err)
		return
	}
	conv, err := readOAConversation(req.Messages)
	if err != nil {
		bad(err)
		return
	}
	rep, err := h.answer(conv.prompt, conv.turns, offered)
	if err != nil {
		bad(err)
		return
	}
	h.writeJSON(w, h.oaResponse(req, conv.system, rep, body))
}

// checkOAFields refuses a request without a model or messages, or asking
// for a stream.
func checkOAFields(req oaRequest) error {
	switch {
	case req.Model == "":
		return errors.New("you must provide a model parameter")
	case req.Stream:
		return errors.New("stream: wiremodel answers only non-streaming requests")
	case len(req.Messages) == 0:
		return errors.New("[] is too short - 'messages'")
	}
	return nil
}

// oaTools checks the tools offered and returns their names.
func oaTools(req oaRequest) (offered []string, err error) {
	seen := map[string]bool{}
	for i, t := range req.Tools {
		if t.Type != "function" {
			return nil, apiError(fmt.Sprintf("Invalid value for 'tools[%d].type': only 'function' is supported here.", i))
		}
		if !toolNameRE.MatchString(t.Function.Name) {
			return nil, apiError(fmt.Sprintf("Invalid 'tools[%d].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.", i))
		}
		if seen[t.Function.Name] {
			return nil, apiError(fmt.Sprintf("Invalid 'tools': duplicate function name %q.", t.Function.Name))
		}
		seen[t.Function.Name] = true
		if p := bytes.TrimSpace(t.Function.Parameters); len(p) > 0 && p[0] != '{' {
			return nil, apiError(fmt.Sprintf("Invalid type for 'tools[%d].function.parameters': expected an object.", i))
		}
		offered = append(offered, t.Function.Name)
	}
	return offered, nil
}

// oaConversation is what the handler reads from a conversation's messages.
type oaConversation struct {
	prompt     string   // the first user message's text
	promptSeen bool     // there is a user message
	system     []string // the system and developer texts before the prompt
	turns      int      // assistant messages
	// The tool calls of the last assistant message not yet answered by a
	// tool message, and all of its calls' ids in order.
	pending      map[string]bool
	pendingOrder []string
}

// readOAConversation checks the messages, in order, and reads them.
func readOAConversation(msgs []oaMessage) (*oaConversation, error) {
	c := &oaConversation{pending: map[string]bool{}}
	for i, m := range msgs {
		text, err := m.text()
		if err != nil {
			return nil, apiError(fmt.Sprintf("Invalid 'messages[%d].content': %v", i, err))
		}
		if m.Role != "tool" && len(c.pending) > 0 {
			return nil, apiError(fmt.Sprintf("An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: %s", strings.Join(c.missing(), ", ")))
		}
		if err := c.add(m, text); err != nil {
			return nil, err
		}
	}
	if !c.promptSeen {
		return nil, errors.New("wiremodel: the conversation has no user message")
	}
	return c, nil
}

// add reads one message, whose content is text, by its role.
func (c *oaConversation) add(m oaMessage, text string) error {
	switch m.Role {
	case "system", "developer":
		if !c.promptSeen {
			c.system = append(c.system, text)
		}
	case "user":
		if !c.promptSeen {
			c.prompt, c.promptSeen = text, true
		}
	case "assistant":
		c.turns++
		c.pending, c.pendingOrder = map[string]bool{}, nil
		for _, tc := range m.ToolCalls {
			c.pending[tc.ID] = true
			c.pendingOrder = append(c.pendingOrder, tc.ID)
		}
	case "tool":
		if !c.pending[m.ToolCallID] {
			return apiError("Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.")
		}
		delete(c.pending, m.ToolCallID)
	default:
		return apiError(fmt.Sprintf("Invalid value: '%s'. Supported values are: 'system', 'assistant', 'user', 'tool', and 'developer'.", m.Role))
	}
	return nil
}

// missing returns the ids of the pending tool calls, in the order they
// were made.
func (c *oaConversation) missing() []string {
	var missing []string
	for _, id := range c.pendingOrder {
		if c.pending[id] {
			missing = append(missing, id)
		}
	}
	return missing
}

// oaResponse is the chat completion giving rep, with its usage.
func (h *Handler) oaResponse(req oaRequest, system []string, rep reply, body []byte) map[string]any {
	msg := map[string]any{"role": "assistant", "content": nil, "refusal": nil, "annotations": []any{}}
	finish := "stop"
	if rep.text != "" {
		msg["content"] = rep.text
	}
	if len(rep.calls) > 0 {
		finish = "tool_calls"
		var tcs []map[string]any
		for _, c := range rep.calls {
			tcs = append(tcs, map[string]any{
				"id": fmt.Sprintf("call_wm%06d", h.nextID()), "type": "function",
				"function": map[string]any{"name": c.wire, "arguments": string(c.args)},
			})
		}
		msg["tool_calls"] = tcs
	}
	out, _ := json.Marshal(msg)

	total := tokens(len(body))
	toolsJSON, _ := json.Marshal(req.Tools)
	sys := strings.Join(system, "\x00")
	prefix := min(total, tokens(len(toolsJSON)+len(sys)))
	_, cached := h.cache(hashOf([]byte(req.Model), toolsJSON, []byte(sys)), prefix)
	completion := tokens(len(out))
	return map[string]any{
		"id":      fmt.Sprintf("chatcmpl-wm%06d", h.nextID()),
		"object":  "chat.completion",
		"created": time.Now().Unix(),
		"model":   req.Model,
		"choices": []any{map[string]any{
			"index": 0, "message": json.RawMessage(out), "logprobs": nil, "finish_reason": finish,
		}},
		"usage": map[string]any{
			"prompt_tokens":     total,
			"completion_tokens": completion,
			"total_tokens":      total + completion,
			"prompt_tokens_details": map[string]any{
				"cached_tokens": cached, "audio_tokens": 0,
			},
			"completion_tokens_details": map[string]any{
				"reasoning_tokens": 0, "audio_tokens": 0, "accepted_prediction_tokens": 0, "rejected_prediction_tokens": 0,
			},
		},
		"service_tier":       "default",
		"system_fingerprint": "fp_wiremodel",
	}
}
