package wiremodel

import (
	"fmt"
	"net/http"
	"regexp"
)

// azurePath matches Azure OpenAI's chat completions path for a deployment.
var azurePath = regexp.MustCompile(`^/openai/deployments/([^/]+)/chat/completions$`)

// serveAzure answers Azure OpenAI's chat completions: the OpenAI body under
// /openai/deployments/NAME/chat/completions?api-version=V, with the key in
// an api-key header.
func (h *Handler) serveAzure(w http.ResponseWriter, r *http.Request, body []byte) {
	if r.Method != http.MethodPost || !azurePath.MatchString(r.URL.Path) {
		h.fail(w, http.StatusNotFound, "404", fmt.Sprintf("Resource not found (%s %s)", r.Method, r.URL.Path))
		return
	}
	if r.URL.Query().Get("api-version") == "" {
		h.fail(w, http.StatusNotFound, "404", "Resource not found: the api-version query parameter is missing")
		return
	}
	if !h.checkKey(r) {
		h.fail(w, http.StatusUnauthorized, "401", "Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.")
		return
	}
	r2 := r.Clone(r.Context())
	r2.URL.Path = "/v1/chat/completions"
	r2.URL.RawPath = ""
	h.serveOpenAI(w, r2, body)
}
