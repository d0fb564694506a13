package wiremodel

import (
	"bytes"
	"encoding/json"
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
	bad := func(format string, args ...any) {
		h.fail(w, http.StatusBadRequest, "invalid_request_error", fmt.Sprintf(format, args...))
	}
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		h.fail(w, http.StatusNotFound, "invalid_request_error", fmt.Sprintf("Invalid URL (%s %s)", r.Method, r.URL.Path))
		return
	}
	if !h.checkKey(r) {
		h.fail(w, http.StatusUnauthorized, "invalid_request_error", "Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.")
		return
	}
	var req oaRequest
	if err := json.Unmarshal(body, &req); err != nil {
		bad("We could not parse the JSON body of your request. (%v)", err)
		return
	}
	switch {
	case req.Model == "":
		bad("you must provide a model parameter")
		return
	case req.Stream:
		bad("stream: wiremodel answers only non-streaming requests")
		return
	case len(req.Messages) == 0:
		bad("[] is too short - 'messages'")
		return
	}
	var offered []string
	seen := map[string]bool{}
	for i, t := range req.Tools {
		if t.Type != "function" {
			bad("Invalid value for 'tools[%d].type': only 'function' is supported here.", i)
			return
		}
		if !toolNameRE.MatchString(t.Function.Name) {
			bad("Invalid 'tools[%d].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.", i)
			return
		}
		if seen[t.Function.Name] {
			bad("Invalid 'tools': duplicate function name %q.", t.Function.Name)
			return
		}
		seen[t.Function.Name] = true
		if p := bytes.TrimSpace(t.Function.Parameters); len(p) > 0 && p[0] != '{' {
			bad("Invalid type for 'tools[%d].function.parameters': expected an object.", i)
			return
		}
		offered = append(offered, t.Function.Name)
	}
	prompt, turns, promptSeen := "", 0, false
	var system []string
	pending := map[string]bool{} // tool calls awaiting a tool message
	var pendingOrder []string
	for i, m := range req.Messages {
		text, err := m.text()
		if err != nil {
			bad("Invalid 'messages[%d].content': %v", i, err)
			return
		}
		if m.Role != "tool" && len(pending) > 0 {
			var missing []string
			for _, id := range pendingOrder {
				if pending[id] {
					missing = append(missing, id)
				}
			}
			bad("An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: %s", strings.Join(missing, ", "))
			return
		}
		switch m.Role {
		case "system", "developer":
			if !promptSeen {
				system = append(system, text)
			}
		case "user":
			if !promptSeen {
				prompt, promptSeen = text, true
			}
		case "assistant":
			turns++
			pending, pendingOrder = map[string]bool{}, nil
			for _, tc := range m.ToolCalls {
				pending[tc.ID] = true
				pendingOrder = append(pendingOrder, tc.ID)
			}
		case "tool":
			if !pending[m.ToolCallID] {
				bad("Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.")
				return
			}
			delete(pending, m.ToolCallID)
		default:
			bad("Invalid value: '%s'. Supported values are: 'system', 'assistant', 'user', 'tool', and 'developer'.", m.Role)
			return
		}
	}
	if !promptSeen {
		bad("wiremodel: the conversation has no user message")
		return
	}
	rep, err := h.answer(prompt, turns, offered)
	if err != nil {
		bad("%v", err)
		return
	}

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
	h.writeJSON(w, map[string]any{
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
	})
}
