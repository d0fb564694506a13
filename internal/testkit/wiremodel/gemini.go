package wiremodel

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
)

// The generateContent request, as far as the handler reads it. The Gemini
// API and Vertex AI take the same body.
type gemRequest struct {
	Contents          []gemContent `json:"contents"`
	SystemInstruction *gemContent  `json:"systemInstruction"`
	Tools             []struct {
		FunctionDeclarations []struct {
			Name                 string          `json:"name"`
			Parameters           json.RawMessage `json:"parameters"`
			ParametersJSONSchema json.RawMessage `json:"parametersJsonSchema"`
		} `json:"functionDeclarations"`
	} `json:"tools"`
	GenerationConfig struct {
		ThinkingConfig *struct {
			IncludeThoughts bool   `json:"includeThoughts"`
			ThinkingBudget  *int64 `json:"thinkingBudget"`
		} `json:"thinkingConfig"`
	} `json:"generationConfig"`
}

type gemContent struct {
	Role  string    `json:"role"`
	Parts []gemPart `json:"parts"`
}

type gemPart struct {
	Text             string `json:"text"`
	Thought          bool   `json:"thought"`
	ThoughtSignature string `json:"thoughtSignature"`
	FunctionCall     *struct {
		ID   string          `json:"id"`
		Name string          `json:"name"`
		Args json.RawMessage `json:"args"`
	} `json:"functionCall"`
	FunctionResponse *struct {
		ID       string          `json:"id"`
		Name     string          `json:"name"`
		Response json.RawMessage `json:"response"`
	} `json:"functionResponse"`
}

// gemPath matches the Gemini API's and Vertex AI's generateContent paths.
var gemPath = regexp.MustCompile(`^/(?:v1beta|v1)/models/([^/:]+):generateContent$|^/(?:v1beta1|v1)/projects/[^/]+/locations/[^/]+/publishers/google/models/([^/:]+):generateContent$`)

// gemNameRE is what Gemini accepts as a function's name.
var gemNameRE = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$`)

// gemSignature is the thought signature the handler puts on the first
// function call of a turn, and expects back with it. Like Google's, it does
// not depend on how the arguments are spelled when they come back (the SDK
// leaves out empty arguments).
func gemSignature(name string) string {
	return Sign("gemini call\x00" + name)
}

func (h *Handler) serveGemini(w http.ResponseWriter, r *http.Request, body []byte) {
	m := gemPath.FindStringSubmatch(r.URL.Path)
	if r.Method != http.MethodPost || m == nil {
		h.fail(w, http.StatusNotFound, "NOT_FOUND", fmt.Sprintf("The requested URL %s was not found on this server.", r.URL.Path))
		return
	}
	modelName := m[1] + m[2]
	if !h.checkKey(r) {
		if m[1] != "" {
			h.fail(w, http.StatusBadRequest, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key.")
		} else {
			h.fail(w, http.StatusUnauthorized, "UNAUTHENTICATED", "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.")
		}
		return
	}
	bad := func(err error) {
		h.fail(w, http.StatusBadRequest, "INVALID_ARGUMENT", err.Error())
	}
	var req gemRequest
	if err := json.Unmarshal(body, &req); err != nil {
		bad(apiError(fmt.Sprintf("Invalid JSON payload received. %v", err)))
		return
	}
	if len(req.Contents) == 0 {
		bad(errors.New("* GenerateContentRequest.contents: contents is not specified"))
		return
	}
	offered, err := gemTools(req)
	if err != nil {
		bad(err)
		return
	}
	prompt, turns, err := gemContents(req.Contents)
	if err != nil {
		bad(err)
		return
	}
	rep, err := h.answer(prompt, turns, offered)
	if err != nil {
		bad(err)
		return
	}
	h.writeJSON(w, h.gemResponse(req, modelName, turns, rep, body))
}

// gemTools checks the function declarations offered and returns their
// names.
func gemTools(req gemRequest) (offered []string, err error) {
	seen := map[string]bool{}
	for i, t := range req.Tools {
		for j, f := range t.FunctionDeclarations {
			if !gemNameRE.MatchString(f.Name) {
				return nil, apiError(fmt.Sprintf("* GenerateContentRequest.tools[%d].function_declarations[%d].name: Invalid function name. Must start with a letter or an underscore. Must be a-z, A-Z, 0-9, or contain underscores, dots, colons and dashes, with a maximum length of 64.", i, j))
			}
			if seen[f.Name] {
				return nil, fmt.Errorf("* GenerateContentRequest.tools[%d].function_declarations[%d].name: Duplicate function declaration found: %s", i, j, f.Name)
			}
			seen[f.Name] = true
			for _, s := range []json.RawMessage{f.Parameters, f.ParametersJSONSchema} {
				if s := bytes.TrimSpace(s); len(s) > 0 && s[0] != '{' {
					return nil, fmt.Errorf("* GenerateContentRequest.tools[%d].function_declarations[%d].parameters: must be an object", i, j)
				}
			}
			offered = append(offered, f.Name)
		}
	}
	return offered, nil
}

// gemContents checks the conversation, content by content, and returns
// the first content's text (the prompt) and how many model turns it has.
func gemContents(contents []gemContent) (prompt string, turns int, err error) {
	var texts []string
	for i, c := range contents {
		if err := checkGemContent(i, c); err != nil {
			return "", 0, err
		}
		calls, responses, err := checkGemParts(i, c)
		if err != nil {
			return "", 0, err
		}
		if i == 0 {
			texts = gemTexts(c)
		}
		if c.Role == "model" {
			turns++
			if calls > 0 && i+1 < len(contents) && countGem(contents[i+1], gemIsResponse) != calls {
				return "", 0, apiError("Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.")
			}
		}
		if responses > 0 && gemPrevCalls(contents, i) != responses {
			return "", 0, apiError("Please ensure that function response turn comes immediately after a function call turn.")
		}
	}
	return strings.Join(texts, "\n"), turns, nil
}

// checkGemContent checks content i's role and that it has parts.
func checkGemContent(i int, c gemContent) error {
	switch c.Role {
	case "user", "model":
	default:
		return apiError("Please use a valid role: user, model.")
	}
	if len(c.Parts) == 0 {
		return apiError(fmt.Sprintf("* GenerateContentRequest.contents[%d].parts: contents.parts must not be empty.", i))
	}
	if i == 0 && c.Role != "user" {
		return apiError("Please ensure that multiturn requests alternate between user and model, starting with user.")
	}
	return nil
}

// checkGemParts checks content i's function calls (from the model, with
// object arguments, the first carrying its thought signature) and counts
// its function calls and responses.
func checkGemParts(i int, c gemContent) (calls, responses int, err error) {
	for j, p := range c.Parts {
		if p.FunctionResponse != nil {
			responses++
		}
		if p.FunctionCall == nil {
			continue
		}
		if c.Role != "model" {
			return 0, 0, apiError(fmt.Sprintf("* GenerateContentRequest.contents[%d].parts[%d]: a function call must come from the model.", i, j))
		}
		if args := bytes.TrimSpace(p.FunctionCall.Args); len(args) > 0 && args[0] != '{' {
			return 0, 0, fmt.Errorf("* GenerateContentRequest.contents[%d].parts[%d].function_call.args: must be an object", i, j)
		}
		if calls == 0 && p.ThoughtSignature != gemSignature(p.FunctionCall.Name) {
			return 0, 0, apiError(fmt.Sprintf("Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call `default_api:%s` , position %d.", p.FunctionCall.Name, j+1))
		}
		calls++
	}
	return calls, responses, nil
}

// gemTexts returns the non-empty texts of c's parts.
func gemTexts(c gemContent) []string {
	var texts []string
	for _, p := range c.Parts {
		if p.Text != "" {
			texts = append(texts, p.Text)
		}
	}
	return texts
}

func gemIsCall(p gemPart) bool     { return p.FunctionCall != nil }
func gemIsResponse(p gemPart) bool { return p.FunctionResponse != nil }

// countGem counts c's parts that are what it says.
func countGem(c gemContent, is func(gemPart) bool) int {
	n := 0
	for _, p := range c.Parts {
		if is(p) {
			n++
		}
	}
	return n
}

// gemPrevCalls counts the function calls of the content before i when the
// model sent it.
func gemPrevCalls(contents []gemContent, i int) int {
	if i == 0 || contents[i-1].Role != "model" {
		return 0
	}
	return countGem(contents[i-1], gemIsCall)
}

// gemResponse is generateContent's answer giving rep, with its usage.
func (h *Handler) gemResponse(req gemRequest, modelName string, turns int, rep reply, body []byte) map[string]any {
	thinking := req.GenerationConfig.ThinkingConfig != nil && req.GenerationConfig.ThinkingConfig.IncludeThoughts
	var parts []map[string]any
	var thoughts int64
	if thinking {
		text := fmt.Sprintf("Turn %d: the key says what to do next.", turns+1)
		thoughts = tokens(len(text))
		parts = append(parts, map[string]any{"text": text, "thought": true})
	}
	if rep.text != "" {
		parts = append(parts, map[string]any{"text": rep.text})
	}
	for i, c := range rep.calls {
		p := map[string]any{"functionCall": map[string]any{"name": c.wire, "args": c.args}}
		if i == 0 {
			p["thoughtSignature"] = gemSignature(c.wire)
		}
		parts = append(parts, p)
	}
	out, _ := json.Marshal(parts)

	total := tokens(len(body))
	toolsJSON, _ := json.Marshal(req.Tools)
	sysJSON, _ := json.Marshal(req.SystemInstruction)
	prefix := min(total, tokens(len(toolsJSON)+len(sysJSON)))
	// Gemini caches implicitly: a repeated prefix is read, never billed as
	// written.
	_, cached := h.cache(hashOf([]byte("gemini"), []byte(modelName), toolsJSON, sysJSON), prefix)
	usage := map[string]any{
		"promptTokenCount":     total,
		"candidatesTokenCount": tokens(len(out)) - thoughts,
		"totalTokenCount":      total + tokens(len(out)),
	}
	if cached > 0 {
		usage["cachedContentTokenCount"] = cached
	}
	if thoughts > 0 {
		usage["thoughtsTokenCount"] = thoughts
	}
	return map[string]any{
		"candidates": []any{map[string]any{
			"content":      map[string]any{"role": "model", "parts": json.RawMessage(out)},
			"finishReason": "STOP",
			"index":        0,
		}},
		"usageMetadata": usage,
		"modelVersion":  modelName,
		"responseId":    fmt.Sprintf("wm%06d", h.nextID()),
	}
}

// geminiError is Google's error body: {"error":{"code":…,"message":…,"status":…}}.
func geminiError(status int, kind, msg string) string {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"code": status, "message": msg, "status": kind}})
	return string(b)
}
