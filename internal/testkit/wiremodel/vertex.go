package wiremodel

import (
	"encoding/json"
	"net/http"
	"regexp"
)

// vertexPath matches Claude's rawPredict path on Vertex AI.
var vertexPath = regexp.MustCompile(`^/v1/projects/([^/]+)/locations/([^/]+)/publishers/anthropic/models/([^/:]+):rawPredict$`)

// serveAnthropicVertex answers Claude on Vertex AI: POST
// /v1/projects/P/locations/L/publishers/anthropic/models/M:rawPredict with a
// bearer token, whose body is the Messages API's without model, with an
// anthropic_version. It is answered as the Messages API answers.
func (h *Handler) serveAnthropicVertex(w http.ResponseWriter, r *http.Request, body []byte) {
	m := vertexPath.FindStringSubmatch(r.URL.Path)
	if r.Method != http.MethodPost || m == nil {
		h.fail(w, http.StatusNotFound, "not_found_error", "The requested URL "+r.URL.Path+" was not found on this server.")
		return
	}
	if !h.checkKey(r) {
		h.fail(w, http.StatusUnauthorized, "authentication_error", "Request had invalid authentication credentials. Expected OAuth 2 access token.")
		return
	}
	var req map[string]json.RawMessage
	if err := json.Unmarshal(body, &req); err != nil {
		h.fail(w, http.StatusBadRequest, "invalid_request_error", "Invalid JSON payload received. "+err.Error())
		return
	}
	var version string
	json.Unmarshal(req["anthropic_version"], &version)
	if version == "" {
		h.fail(w, http.StatusBadRequest, "invalid_request_error", "anthropic_version: Field required")
		return
	}
	if _, ok := req["model"]; ok {
		h.fail(w, http.StatusBadRequest, "invalid_request_error", "model: Extra inputs are not permitted")
		return
	}
	h.serveAsMessages(w, r, req, m[3], version)
}

// serveAsMessages answers a cloud's request for Claude (Bedrock's
// InvokeModel, Vertex AI's rawPredict), whose body req names no model and
// carries anthropic_version, as the Messages API answers the same request
// for model with that version.
func (h *Handler) serveAsMessages(w http.ResponseWriter, r *http.Request, req map[string]json.RawMessage, model, version string) {
	req["model"], _ = json.Marshal(model)
	delete(req, "anthropic_version")
	body, _ := json.Marshal(req)
	r2 := r.Clone(r.Context())
	r2.URL.Path, r2.URL.RawPath = "/v1/messages", ""
	r2.Header.Set("Anthropic-Version", version)
	h.serveAnthropic(w, r2, body)
}
