package wiremodel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"

	"github.com/mcpeval/mcpeval/suite"
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
	bad := func(format string, args ...any) {
		h.fail(w, http.StatusBadRequest, "INVALID_ARGUMENT", fmt.Sprintf(format, args...))
	}
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
	var req gemRequest
	if err := json.Unmarshal(body, &req); err != nil {
		bad("Invalid JSON payload received. %v", err)
		return
	}
	if len(req.Contents) == 0 {
		bad("* GenerateContentRequest.contents: contents is not specified")
		return
	}
	var offered []string
	seen := map[string]bool{}
	for i, t := range req.Tools {
		for j, f := range t.FunctionDeclarations {
			if !gemNameRE.MatchString(f.Name) {
				bad("* GenerateContentRequest.tools[%d].function_declarations[%d].name: Invalid function name. Must start with a letter or an underscore. Must be a-z, A-Z, 0-9, or contain underscores, dots, colons and dashes, with a maximum length of 64.", i, j)
				return
			}
			if seen[f.Name] {
				bad("* GenerateContentRequest.tools[%d].function_declarations[%d].name: Duplicate function declaration found: %s", i, j, f.Name)
				return
			}
			seen[f.Name] = true
			for _, s := range []json.RawMessage{f.Parameters, f.ParametersJSONSchema} {
				if s := bytes.TrimSpace(s); len(s) > 0 && s[0] != '{' {
					bad("* GenerateContentRequest.tools[%d].function_declarations[%d].parameters: must be an object", i, j)
					return
				}
			}
			offered = append(offered, f.Name)
		}
	}
	turns := 0
	var prompt []string
	for i, c := range req.Contents {
		switch c.Role {
		case "user", "model":
		default:
			bad("Please use a valid role: user, model.")
			return
		}
		if len(c.Parts) == 0 {
			bad("* GenerateContentRequest.contents[%d].parts: contents.parts must not be empty.", i)
			return
		}
		if i == 0 && c.Role != "user" {
			bad("Please ensure that multiturn requests alternate between user and model, starting with user.")
			return
		}
		calls, responses := 0, 0
		for j, p := range c.Parts {
			if p.FunctionCall != nil {
				if c.Role != "model" {
					bad("* GenerateContentRequest.contents[%d].parts[%d]: a function call must come from the model.", i, j)
					return
				}
				args := bytes.TrimSpace(p.FunctionCall.Args)
				if len(args) > 0 && args[0] != '{' {
					bad("* GenerateContentRequest.contents[%d].parts[%d].function_call.args: must be an object", i, j)
					return
				}
				if calls == 0 && p.ThoughtSignature != gemSignature(p.FunctionCall.Name) {
					bad("Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call `default_api:%s` , position %d.", p.FunctionCall.Name, j+1)
					return
				}
				calls++
			}
			if p.FunctionResponse != nil {
				responses++
			}
			if i == 0 && p.Text != "" {
				prompt = append(prompt, p.Text)
			}
		}
		if c.Role == "model" {
			turns++
			if calls > 0 && i+1 < len(req.Contents) {
				got := 0
				for _, p := range req.Contents[i+1].Parts {
					if p.FunctionResponse != nil {
						got++
					}
				}
				if got != calls {
					bad("Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.")
					return
				}
			}
		}
		if responses > 0 {
			prev := 0
			if i > 0 && req.Contents[i-1].Role == "model" {
				for _, p := range req.Contents[i-1].Parts {
					if p.FunctionCall != nil {
						prev++
					}
				}
			}
			if prev != responses {
				bad("Please ensure that function response turn comes immediately after a function call turn.")
				return
			}
		}
	}
	rep, err := h.answer(strings.Join(prompt, "\n"), turns, offered)
	if err != nil {
		bad("%v", err)
		return
	}
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
	h.writeJSON(w, map[string]any{
		"candidates": []any{map[string]any{
			"content":      map[string]any{"role": "model", "parts": json.RawMessage(out)},
			"finishReason": "STOP",
			"index":        0,
		}},
		"usageMetadata": usage,
		"modelVersion":  modelName,
		"responseId":    fmt.Sprintf("wm%06d", h.nextID()),
	})
}

// geminiError is Google's error body: {"error":{"code":…,"message":…,"status":…}}.
func geminiError(status int, kind, msg string) string {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"code": status, "message": msg, "status": kind}})
	return string(b)
}

// geminiErrorBody is Google's own error body for status.
func geminiErrorBody(status int) string {
	kind, msg := "INTERNAL", "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting"
	switch status {
	case 400:
		kind, msg = "INVALID_ARGUMENT", "Request contains an invalid argument."
	case 401:
		kind, msg = "UNAUTHENTICATED", "Request had invalid authentication credentials."
	case 403:
		kind, msg = "PERMISSION_DENIED", "The caller does not have permission"
	case 404:
		kind, msg = "NOT_FOUND", "Requested entity was not found."
	case 429:
		kind, msg = "RESOURCE_EXHAUSTED", "Resource has been exhausted (e.g. check quota)."
	case 503:
		kind, msg = "UNAVAILABLE", "The model is overloaded. Please try again later."
	case 504:
		kind, msg = "DEADLINE_EXCEEDED", "Deadline expired before operation could complete."
	}
	return geminiError(status, kind, msg)
}

// NewGemini returns a generateContent handler (Gemini API and Vertex AI
// paths) answering s's cases and the probe.
func NewGemini(s *suite.Suite) *Handler { return newHandler(Gemini, s) }

// NewBedrock returns a Bedrock Converse handler answering s's cases and the
// probe; it requires a well-formed SigV4 signature.
func NewBedrock(s *suite.Suite) *Handler { return newHandler(Bedrock, s) }

// NewAzureOpenAI returns an Azure OpenAI chat completions handler answering
// s's cases and the probe.
func NewAzureOpenAI(s *suite.Suite) *Handler { return newHandler(AzureOpenAI, s) }
