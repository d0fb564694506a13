package wiremodel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
)

// The Converse request, as far as the handler reads it.
type brRequest struct {
	Messages        []brMessage      `json:"messages"`
	System          []map[string]any `json:"system"`
	ToolConfig      *brToolConfig    `json:"toolConfig"`
	InferenceConfig *struct {
		MaxTokens *int64 `json:"maxTokens"`
	} `json:"inferenceConfig"`
}

type brToolConfig struct {
	Tools []struct {
		ToolSpec   *brToolSpec     `json:"toolSpec"`
		CachePoint json.RawMessage `json:"cachePoint"`
	} `json:"tools"`
}

type brToolSpec struct {
	Name        string `json:"name"`
	InputSchema struct {
		JSON json.RawMessage `json:"json"`
	} `json:"inputSchema"`
}

type brMessage struct {
	Role    string    `json:"role"`
	Content []brBlock `json:"content"`
}

type brBlock struct {
	Text    *string `json:"text"`
	ToolUse *struct {
		ToolUseID string          `json:"toolUseId"`
		Name      string          `json:"name"`
		Input     json.RawMessage `json:"input"`
	} `json:"toolUse"`
	ToolResult *struct {
		ToolUseID string            `json:"toolUseId"`
		Content   []json.RawMessage `json:"content"`
		Status    string            `json:"status"`
	} `json:"toolResult"`
	ReasoningContent json.RawMessage `json:"reasoningContent"`
	CachePoint       json.RawMessage `json:"cachePoint"`
}

// brPath matches the Converse path; the model id is escaped in it.
var brPath = regexp.MustCompile(`^/model/([^/]+)/converse$`)

// SigV4RE matches a well-formed AWS Signature Version 4 Authorization
// header for Bedrock: its submatches are the access key id, the date, the
// region, the signed headers and the signature.
var SigV4RE = regexp.MustCompile(`^AWS4-HMAC-SHA256 Credential=([A-Z0-9]{4,128})/(\d{8})/([a-z0-9-]+)/bedrock/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$`)

// checkSigV4 reports what is wrong with r's signature, or "" when it is a
// well-formed SigV4 signature by the expected access key id (Handler.APIKey,
// when set) that signs the host and date.
func (h *Handler) checkSigV4(r *http.Request) string {
	m := SigV4RE.FindStringSubmatch(r.Header.Get("Authorization"))
	if m == nil {
		return "Authorization header requires 'Credential', 'Signature' and 'SignedHeaders' parameters in the form AWS4-HMAC-SHA256 Credential=…/bedrock/aws4_request."
	}
	date := r.Header.Get("X-Amz-Date")
	if len(date) != 16 || date[:8] != m[2] {
		return "The request signature we calculated does not match the signature you provided: X-Amz-Date is missing or not the credential's date."
	}
	signed := strings.Split(m[4], ";")
	for _, want := range []string{"host", "x-amz-date"} {
		found := false
		for _, s := range signed {
			found = found || s == want
		}
		if !found {
			return fmt.Sprintf("SignedHeaders must include %s.", want)
		}
	}
	if h.APIKey != "" && m[1] != h.APIKey {
		return "The security token included in the request is invalid."
	}
	return ""
}

// bedrockCall returns the submatches of path in a signed POST to a Bedrock
// operation at path; for any other request it answers as Bedrock does (an
// unknown operation, or a signature it does not recognise) and returns nil.
func (h *Handler) bedrockCall(w http.ResponseWriter, r *http.Request, path *regexp.Regexp) []string {
	m := path.FindStringSubmatch(r.URL.EscapedPath())
	if r.Method != http.MethodPost || m == nil {
		h.fail(w, http.StatusNotFound, "UnknownOperationException", "")
		return nil
	}
	if msg := h.checkSigV4(r); msg != "" {
		h.fail(w, http.StatusForbidden, "UnrecognizedClientException", msg)
		return nil
	}
	return m
}

func (h *Handler) serveBedrock(w http.ResponseWriter, r *http.Request, body []byte) {
	m := h.bedrockCall(w, r, brPath)
	if m == nil {
		return
	}
	bad := func(err error) {
		h.fail(w, http.StatusBadRequest, "ValidationException", err.Error())
	}
	var req brRequest
	if err := json.Unmarshal(body, &req); err != nil {
		h.fail(w, http.StatusBadRequest, "SerializationException", err.Error())
		return
	}
	if len(req.Messages) == 0 {
		bad(apiError("A conversation must start with a user message. Try again with a conversation that starts with a user message."))
		return
	}
	sys, cacheSys := brSystem(req.System)
	offered, toolsJSON, cacheTools, err := brTools(req.ToolConfig)
	if err != nil {
		bad(err)
		return
	}
	prompt, turns, err := brMessages(req.Messages)
	if err != nil {
		bad(err)
		return
	}
	rep, err := h.answer(prompt, turns, offered)
	if err != nil {
		bad(err)
		return
	}
	content, stop := h.brContent(rep)
	out, _ := json.Marshal(content)
	total := tokens(len(body))
	var write, read int64
	if cacheSys || cacheTools {
		prefix := min(total, tokens(len(toolsJSON)+len(sys)))
		write, read = h.cache(hashOf([]byte("bedrock"), []byte(m[1]), toolsJSON, []byte(sys)), prefix)
	}
	output := tokens(len(out))
	h.writeJSON(w, map[string]any{
		"output":     map[string]any{"message": map[string]any{"role": "assistant", "content": json.RawMessage(out)}},
		"stopReason": stop,
		"usage": map[string]any{
			"inputTokens":           total - write - read,
			"outputTokens":          output,
			"totalTokens":           total + output,
			"cacheReadInputTokens":  read,
			"cacheWriteInputTokens": write,
		},
		"metrics": map[string]any{"latencyMs": 1},
	})
}

// brSystem returns the system texts, joined by NULs as the cache key
// reads them, and whether a cache point marks them.
func brSystem(system []map[string]any) (sys string, cacheable bool) {
	var texts []string
	for _, s := range system {
		if _, ok := s["cachePoint"]; ok {
			cacheable = true
		}
		if t, ok := s["text"].(string); ok {
			texts = append(texts, t)
		}
	}
	return strings.Join(texts, "\x00"), cacheable
}

// brTools checks the tools offered and returns their names, the tools as
// JSON for the cache key (nil without a toolConfig) and whether a cache
// point follows them.
func brTools(tc *brToolConfig) (offered []string, toolsJSON []byte, cacheable bool, err error) {
	if tc == nil {
		return nil, nil, false, nil
	}
	toolsJSON, _ = json.Marshal(tc.Tools)
	seen := map[string]bool{}
	for i, t := range tc.Tools {
		if len(t.CachePoint) > 0 {
			cacheable = true
			continue
		}
		if err := checkBrTool(i, t.ToolSpec, seen); err != nil {
			return nil, nil, false, err
		}
		offered = append(offered, t.ToolSpec.Name)
	}
	return offered, toolsJSON, cacheable, nil
}

// checkBrTool checks the toolSpec of tool i (a name matching the pattern,
// unique among those seen, and an object schema) and marks its name seen.
func checkBrTool(i int, spec *brToolSpec, seen map[string]bool) error {
	if spec == nil {
		return fmt.Errorf("1 validation error detected: Value at 'toolConfig.tools.%d' failed to satisfy constraint: Member must have one of toolSpec, cachePoint", i+1)
	}
	if !toolNameRE.MatchString(spec.Name) {
		return fmt.Errorf("1 validation error detected: Value at 'toolConfig.tools.%d.member.toolSpec.name' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+", i+1)
	}
	if seen[spec.Name] {
		return apiError("The toolConfig field must be defined with unique tool names.")
	}
	seen[spec.Name] = true
	var schema struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(spec.InputSchema.JSON, &schema) != nil || schema.Type != "object" {
		return apiError(fmt.Sprintf("The value at toolConfig.tools.%d.toolSpec.inputSchema.json.type must be object.", i))
	}
	return nil
}

// brMessages checks the conversation, message by message, and returns the
// first message's text (the prompt) and how many assistant turns it has.
func brMessages(msgs []brMessage) (prompt string, turns int, err error) {
	var texts []string
	for i, msg := range msgs {
		if err := checkBrMessage(i, msg); err != nil {
			return "", 0, err
		}
		uses, err := checkBrBlocks(msgs, i)
		if err != nil {
			return "", 0, err
		}
		if i == 0 {
			texts = brTexts(msg)
		}
		if msg.Role != "assistant" {
			continue
		}
		turns++
		if err := checkBrAnswered(msgs, i, uses); err != nil {
			return "", 0, err
		}
	}
	return strings.Join(texts, "\n"), turns, nil
}

// checkBrMessage checks that message i has the role its place asks for
// (user first, then alternating) and content.
func checkBrMessage(i int, msg brMessage) error {
	want := "user"
	if i%2 == 1 {
		want = "assistant"
	}
	if msg.Role != want {
		return apiError("A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again.")
	}
	if len(msg.Content) == 0 {
		return apiError(fmt.Sprintf("The content field in the Message object at messages.%d is empty. Add a ContentBlock object to the content field and try again.", i))
	}
	return nil
}

// checkBrBlocks checks the toolUse blocks of message i (only from the
// assistant, with an object input) and its toolResult blocks (each
// answering a toolUse of the message before), and returns its toolUse ids.
func checkBrBlocks(msgs []brMessage, i int) (uses map[string]bool, err error) {
	msg := msgs[i]
	uses = map[string]bool{}
	for j, c := range msg.Content {
		switch {
		case c.ToolUse != nil:
			if msg.Role != "assistant" {
				return nil, apiError(fmt.Sprintf("messages.%d.content.%d: toolUse blocks are allowed only in assistant messages.", i, j))
			}
			if in := bytes.TrimSpace(c.ToolUse.Input); len(in) == 0 || in[0] != '{' {
				return nil, apiError(fmt.Sprintf("The format of the value at messages.%d.content.%d.toolUse.input is invalid. Provide a json object for the field and try again.", i, j))
			}
			uses[c.ToolUse.ToolUseID] = true
		case c.ToolResult != nil:
			if i == 0 || !prevUse(msgs[i-1], c.ToolResult.ToolUseID) {
				return nil, apiError(fmt.Sprintf("The number of toolResult blocks at messages.%d.content exceeds the number of toolUse blocks of previous turn.", i))
			}
		}
	}
	return uses, nil
}

// brTexts returns the texts of msg's text blocks (a block with a tool use
// or result too counts as that).
func brTexts(msg brMessage) []string {
	var texts []string
	for _, c := range msg.Content {
		if c.ToolUse == nil && c.ToolResult == nil && c.Text != nil {
			texts = append(texts, *c.Text)
		}
	}
	return texts
}

// checkBrAnswered refuses toolUse ids of assistant message i that the
// next message, when there is one, does not answer with a toolResult. It
// deletes the answered ids from uses.
func checkBrAnswered(msgs []brMessage, i int, uses map[string]bool) error {
	if len(uses) == 0 || i+1 >= len(msgs) {
		return nil
	}
	for _, c := range msgs[i+1].Content {
		if c.ToolResult != nil {
			delete(uses, c.ToolResult.ToolUseID)
		}
	}
	if len(uses) > 0 {
		return apiError(fmt.Sprintf("Expected toolResult blocks at messages.%d.content for the following Ids: %s", i+1, strings.Join(sortedKeys(uses), ", ")))
	}
	return nil
}

// brContent is the Converse answer's content giving rep, and its stop
// reason.
func (h *Handler) brContent(rep reply) (content []map[string]any, stop string) {
	stop = "end_turn"
	if rep.text != "" {
		content = append(content, map[string]any{"text": rep.text})
	}
	for _, c := range rep.calls {
		stop = "tool_use"
		content = append(content, map[string]any{"toolUse": map[string]any{
			"toolUseId": fmt.Sprintf("tooluse_wm%06d", h.nextID()), "name": c.wire, "input": c.args,
		}})
	}
	return content, stop
}

func prevUse(m brMessage, id string) bool {
	for _, c := range m.Content {
		if c.ToolUse != nil && c.ToolUse.ToolUseID == id {
			return true
		}
	}
	return false
}

func sortedKeys(m map[string]bool) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	for i := 1; i < len(ks); i++ {
		for j := i; j > 0 && ks[j] < ks[j-1]; j-- {
			ks[j], ks[j-1] = ks[j-1], ks[j]
		}
	}
	return ks
}

// bedrockError is Bedrock's error body; its kind goes in the
// X-Amzn-ErrorType header (see bedrockErrorType).
func bedrockError(msg string) string {
	b, _ := json.Marshal(map[string]any{"message": msg})
	return string(b)
}

// bedrockErrorType is the exception Bedrock names for status.
func bedrockErrorType(status int) string { return problemFor(bedrockErrors, status).kind }

// bedrock reports whether the handler speaks for Bedrock, whose errors
// name their kind in a header.
func (h *Handler) bedrock() bool { return h.API == Bedrock || h.API == AnthropicBedrock }

// brInvokePath matches InvokeModel's path.
var brInvokePath = regexp.MustCompile(`^/model/([^/]+)/invoke$`)

// serveAnthropicBedrock answers Claude on Bedrock: a signed POST
// /model/ID/invoke whose body is the Messages API's without model and
// stream, with an anthropic_version (Bedrock documents
// "bedrock-2023-05-31"; anthropic-sdk-go v2.15.0 sends its own API version).
// It is answered as the Messages API answers.
func (h *Handler) serveAnthropicBedrock(w http.ResponseWriter, r *http.Request, body []byte) {
	m := h.bedrockCall(w, r, brInvokePath)
	if m == nil {
		return
	}
	var req map[string]json.RawMessage
	if err := json.Unmarshal(body, &req); err != nil {
		h.fail(w, http.StatusBadRequest, "ValidationException", "Malformed input request: "+err.Error())
		return
	}
	var version string
	json.Unmarshal(req["anthropic_version"], &version)
	if version == "" {
		h.fail(w, http.StatusBadRequest, "ValidationException", "Malformed input request: #: required key [anthropic_version] not found")
		return
	}
	for _, k := range []string{"model", "stream"} {
		if _, ok := req[k]; ok {
			h.fail(w, http.StatusBadRequest, "ValidationException", "Malformed input request: #: extraneous key ["+k+"] is not permitted")
			return
		}
	}
	id, err := url.PathUnescape(m[1])
	if err != nil {
		id = m[1]
	}
	h.serveAsMessages(w, r, req, id, version)
}
