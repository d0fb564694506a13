package wiremodel_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/internal/testkit/wiremodel"
)

// TestErrorBodies checks a fault's status answered in each provider's own
// words: its error type (Bedrock's in the X-Amzn-ErrorType header) and
// message, and the catch-all for a status the provider has no word for.
func TestErrorBodies(t *testing.T) {
	for _, c := range []struct {
		api    wiremodel.API
		status int
		kind   string // in the body, or Bedrock's header
		msg    string
	}{
		{wiremodel.Anthropic, 529, `"type":"overloaded_error"`, "Overloaded"},
		{wiremodel.Anthropic, 502, `"type":"api_error"`, "Internal server error"},
		{wiremodel.OpenAI, 503, `"type":"server_error"`, "The engine is currently overloaded"},
		{wiremodel.AzureOpenAI, 429, `"type":"requests"`, "Rate limit reached for requests"},
		{wiremodel.OpenAI, 418, `"type":"server_error"`, "Sorry about that!"},
		{wiremodel.Gemini, 429, `"status":"RESOURCE_EXHAUSTED"`, "Resource has been exhausted"},
		{wiremodel.Gemini, 500, `"status":"INTERNAL"`, "An internal error has occurred"},
		{wiremodel.Bedrock, 429, "ThrottlingException", "Too many requests"},
		{wiremodel.AnthropicBedrock, 424, "ModelErrorException", "internal error"},
		{wiremodel.Bedrock, 500, "InternalServerException", "internal error"},
	} {
		h := &wiremodel.Handler{API: c.api, Faults: []wiremodel.Fault{{Status: c.status}}}
		srv := httptest.NewServer(h)
		resp, err := http.Post(srv.URL+"/any", "application/json", strings.NewReader(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		srv.Close()
		body := string(b)
		kindAt := body
		if c.api == wiremodel.Bedrock || c.api == wiremodel.AnthropicBedrock {
			kindAt = resp.Header.Get("X-Amzn-Errortype")
		}
		if resp.StatusCode != c.status || !strings.Contains(kindAt, c.kind) || !strings.Contains(body, c.msg) {
			t.Errorf("%s %d: status %d, type in %q, body %s; want %s and %q", c.api, c.status, resp.StatusCode, kindAt, body, c.kind, c.msg)
		}
	}
}
