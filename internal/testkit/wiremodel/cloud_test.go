package wiremodel_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/internal/testkit/wiremodel"
	"github.com/mcpeval/mcpeval/suite"
)

// send posts body to the handler at path with the given headers and
// returns the status, the X-Amzn-Errortype header and the body.
func send(t *testing.T, h *wiremodel.Handler, path, body string, header ...string) (int, string, string) {
	t.Helper()
	srv := httptest.NewServer(h)
	defer srv.Close()
	req, _ := http.NewRequest(http.MethodPost, srv.URL+path, strings.NewReader(body))
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("X-Amzn-Errortype"), string(b)
}

var cloudKeys = map[string]suite.Key{"Hi.": {Calls: []suite.KeyCall{{Tool: "t"}}}}

const goodSig = "AWS4-HMAC-SHA256 Credential=AKIATEST/20261130/us-east-1/bedrock/aws4_request, SignedHeaders=content-type;host;x-amz-date, Signature=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

// TestBedrockRefusesUnsigned: Converse without a SigV4 signature, with one
// for another service, by another key, or without its date, is refused
// with 403 UnrecognizedClientException; a well-formed one is answered.
func TestBedrockRefusesUnsigned(t *testing.T) {
	body := `{"messages":[{"role":"user","content":[{"text":"Hi."}]}]}`
	h := &wiremodel.Handler{API: wiremodel.Bedrock, Keys: cloudKeys, APIKey: "AKIATEST"}
	for name, hdr := range map[string][]string{
		"none":          {},
		"bearer":        {"Authorization", "Bearer abc"},
		"other service": {"Authorization", strings.Replace(goodSig, "/bedrock/", "/s3/", 1), "X-Amz-Date", "20261130T101010Z"},
		"other key":     {"Authorization", strings.Replace(goodSig, "AKIATEST", "AKIAOTHER", 1), "X-Amz-Date", "20261130T101010Z"},
		"no date":       {"Authorization", goodSig},
	} {
		if status, kind, _ := send(t, h, "/model/m/converse", body, hdr...); status != 403 || kind != "UnrecognizedClientException" {
			t.Errorf("%s: %d %q, want 403 UnrecognizedClientException", name, status, kind)
		}
	}
	if status, _, b := send(t, h, "/model/m/converse", body, "Authorization", goodSig, "X-Amz-Date", "20261130T101010Z"); status != 200 || !strings.Contains(b, `"toolUse"`) {
		t.Errorf("signed: %d %s", status, b)
	}
}

// TestBedrockRefusesUnansweredToolUse: a toolResult with no toolUse before
// it, and a toolUse left unanswered, are ValidationExceptions.
func TestBedrockRefusesUnansweredToolUse(t *testing.T) {
	h := &wiremodel.Handler{API: wiremodel.Bedrock, Keys: cloudKeys}
	sig := []string{"Authorization", goodSig, "X-Amz-Date", "20261130T101010Z"}
	for name, body := range map[string]string{
		"stray result": `{"messages":[{"role":"user","content":[{"text":"Hi."},{"toolResult":{"toolUseId":"x","content":[{"text":"r"}]}}]}]}`,
		"unanswered": `{"messages":[{"role":"user","content":[{"text":"Hi."}]},{"role":"assistant","content":[{"toolUse":{"toolUseId":"a","name":"t","input":{}}}]},
			{"role":"user","content":[{"text":"go on"}]}]}`,
	} {
		if status, kind, b := send(t, h, "/model/m/converse", body, sig...); status != 400 || kind != "ValidationException" {
			t.Errorf("%s: %d %q %s", name, status, kind, b)
		}
	}
}

// TestGeminiRefuses: a wrong key; a function call sent back without its
// thought signature; function responses that do not match the calls.
func TestGeminiRefuses(t *testing.T) {
	h := &wiremodel.Handler{API: wiremodel.Gemini, Keys: cloudKeys, APIKey: "k"}
	path := "/v1beta/models/g:generateContent"
	user := `{"role":"user","parts":[{"text":"Hi."}]}`
	if status, _, b := send(t, h, path, `{"contents":[`+user+`]}`, "X-Goog-Api-Key", "wrong"); status != 400 || !strings.Contains(b, "API key not valid") {
		t.Errorf("wrong key: %d %s", status, b)
	}
	for name, c := range map[string]struct{ body, want string }{
		"no signature":  {`{"contents":[` + user + `,{"role":"model","parts":[{"functionCall":{"name":"t","args":{}}}]},{"role":"user","parts":[{"functionResponse":{"name":"t","response":{"output":"r"}}}]}]}`, "thought_signature"},
		"bad signature": {`{"contents":[` + user + `,{"role":"model","parts":[{"functionCall":{"name":"t"},"thoughtSignature":"eA=="}]},{"role":"user","parts":[{"text":"go on"}]}]}`, "thought_signature"},
		"stray":         {`{"contents":[` + user + `,{"role":"model","parts":[{"text":"ok"}]},{"role":"user","parts":[{"functionResponse":{"name":"t","response":{}}}]}]}`, "immediately after a function call"},
	} {
		if status, _, b := send(t, h, path, c.body, "X-Goog-Api-Key", "k"); status != 400 || !strings.Contains(b, c.want) || !strings.Contains(b, `"status":"INVALID_ARGUMENT"`) {
			t.Errorf("%s: %d %s, want 400 saying %q", name, status, b, c.want)
		}
	}
	if status, _, b := send(t, h, path, `{"contents":[`+user+`]}`, "X-Goog-Api-Key", "k"); status != 200 || !strings.Contains(b, `"thoughtSignature"`) {
		t.Errorf("first turn: %d %s", status, b)
	}
}

// TestAzureRefuses: no api-version, or a wrong api-key.
func TestAzureRefuses(t *testing.T) {
	h := &wiremodel.Handler{API: wiremodel.AzureOpenAI, Keys: cloudKeys, APIKey: "k"}
	body := `{"model":"d","messages":[{"role":"user","content":"Hi."}]}`
	if status, _, _ := send(t, h, "/openai/deployments/d/chat/completions", body, "Api-Key", "k"); status != 404 {
		t.Errorf("no api-version: %d", status)
	}
	if status, _, _ := send(t, h, "/openai/deployments/d/chat/completions?api-version=2024-10-21", body, "Api-Key", "x"); status != 401 {
		t.Errorf("wrong key: %d", status)
	}
	if status, _, b := send(t, h, "/openai/deployments/d/chat/completions?api-version=2024-10-21", body, "Api-Key", "k"); status != 200 || !strings.Contains(b, "tool_calls") {
		t.Errorf("good: %d %s", status, b)
	}
}
