package gemini_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpeval/mcpeval/internal/testkit/providertest"
	"github.com/mcpeval/mcpeval/internal/testkit/wiremodel"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/gemini"
	"github.com/mcpeval/mcpeval/suite"
)

func stand(t *testing.T, key string) (*wiremodel.Handler, string) {
	st := providertest.Serve(t, providertest.Provider{API: wiremodel.Gemini, HandlerKey: key})
	return st.H, st.URL
}

func body(t *testing.T, r wiremodel.Request) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(r.Body, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestRequestOnTheWire: the options, the system instruction and the tools
// (mapped names, schemas as parametersJsonSchema) as sent; then the call
// goes back verbatim (thought signature included, no id the API did not
// give) with its result as a functionResponse under the wire name, and
// the thought goes back too.
func TestRequestOnTheWire(t *testing.T) {
	h, url := stand(t, apiKey)
	m := providertest.MustOpen(t, "gemini:gemini-test;max_tokens=900;temperature=0.5;top_p=0.9;seed=7;thinking=1024", gemini.Config{APIKey: apiKey, BaseURL: url}, gemini.New)
	req := providertest.Request()
	resp, err := m.Generate(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	got := body(t, h.Requests()[0])
	want := map[string]any{
		"maxOutputTokens": 900.0, "temperature": 0.5, "topP": 0.9, "seed": 7.0,
		"thinkingConfig": map[string]any{"thinkingBudget": 1024.0, "includeThoughts": true},
	}
	if d := cmp.Diff(want, got["generationConfig"]); d != "" {
		t.Errorf("generationConfig (-want +got):\n%s", d)
	}
	if d := cmp.Diff(map[string]any{"role": "user", "parts": []any{map[string]any{"text": "You operate containers."}}}, got["systemInstruction"]); d != "" {
		t.Errorf("systemInstruction (-want +got):\n%s", d)
	}
	decls := got["tools"].([]any)[0].(map[string]any)["functionDeclarations"].([]any)
	d0 := decls[0].(map[string]any)
	if d0["name"] != "list_containers" || d0["description"] != "Lists containers." ||
		d0["parametersJsonSchema"].(map[string]any)["properties"].(map[string]any)["limit"].(map[string]any)["maximum"] != 100.0 {
		t.Errorf("first declaration %v", d0)
	}
	if n := decls[2].(map[string]any)["name"].(string); len(n) > 64 || !strings.HasPrefix(n, "xxx") {
		t.Errorf("long name sent as %q", n)
	}
	bs := resp.Message.Blocks
	if len(bs) != 2 || bs[0].Kind != model.Thinking || bs[0].Text == "" || bs[1].Kind != model.ToolUse || bs[1].Call.ID != "gemini-1-1" {
		t.Fatalf("blocks %+v", bs)
	}
	if resp.Usage.Output == 0 || resp.StopReason != "STOP" {
		t.Errorf("usage %+v stop %q", resp.Usage, resp.StopReason)
	}
	call := bs[1].Call
	req.Messages = append(req.Messages, resp.Message, model.Message{Role: model.User, Blocks: []model.Block{
		{Kind: model.ToolResult, Result: &model.Result{CallID: call.ID, Name: call.Name, Content: "web", IsError: true}},
	}})
	if _, err := m.Generate(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	contents := body(t, h.Requests()[1])["contents"].([]any)
	modelTurn := contents[1].(map[string]any)
	if modelTurn["role"] != "model" {
		t.Errorf("second content %v", modelTurn)
	}
	parts := modelTurn["parts"].([]any)
	if p := parts[0].(map[string]any); p["thought"] != true {
		t.Errorf("the thought did not go back: %v", p)
	}
	fc := parts[1].(map[string]any)
	if fc["thoughtSignature"] == nil || fc["functionCall"].(map[string]any)["id"] != nil || fc["functionCall"].(map[string]any)["name"] != "list_containers" {
		t.Errorf("the call went back as %v", fc)
	}
	fr := contents[2].(map[string]any)["parts"].([]any)[0].(map[string]any)["functionResponse"]
	if d := cmp.Diff(map[string]any{"name": "list_containers", "response": map[string]any{"error": "web"}}, fr); d != "" {
		t.Errorf("functionResponse (-want +got):\n%s", d)
	}
}

// TestUsageCountsCachedTokens: cachedContentTokenCount is a cache read,
// taken out of the prompt; thoughts are output.
func TestUsageCountsCachedTokens(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"candidates":[{"content":{"role":"model","parts":[{"text":"Hi."}]},"finishReason":"STOP"}],
			"usageMetadata":{"promptTokenCount":2000,"cachedContentTokenCount":1500,"candidatesTokenCount":30,"thoughtsTokenCount":20,"toolUsePromptTokenCount":5,"totalTokenCount":2055}}`)
	}))
	defer srv.Close()
	m := providertest.MustOpen(t, "gemini:gemini-test", gemini.Config{APIKey: apiKey, BaseURL: srv.URL}, gemini.New)
	resp, err := m.Generate(context.Background(), providertest.Request())
	if err != nil {
		t.Fatal(err)
	}
	if want := (model.Usage{Input: 505, Output: 50, CacheRead: 1500}); resp.Usage != want {
		t.Errorf("usage %+v, want %+v", resp.Usage, want)
	}
}

// TestVertex: with vertex=true the request goes to the project's and
// location's path with the credentials' token, and no API key, even one in
// the environment.
func TestVertex(t *testing.T) {
	t.Setenv("GEMINI_API_KEY", apiKey)
	t.Setenv("GOOGLE_CLOUD_PROJECT", "env-project")
	t.Setenv("GOOGLE_CLOUD_LOCATION", "europe-west4")
	h, url := stand(t, token)
	info, _ := model.ParseSpec("gemini:gemini-test;vertex=true;location=us-central1")
	cfg := gemini.FromEnv(info)
	if cfg.APIKey != "" || cfg.Project != "env-project" {
		t.Fatalf("FromEnv with vertex=true: %+v", cfg)
	}
	cfg.BaseURL, cfg.Credentials = url, staticToken(token)
	m, err := gemini.New(info, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Generate(context.Background(), providertest.Request()); err != nil {
		t.Fatal(err)
	}
	r := h.Requests()[0]
	if r.Path != "/v1beta1/projects/env-project/locations/us-central1/publishers/google/models/gemini-test:generateContent" {
		t.Errorf("path %s", r.Path)
	}
	if r.Header.Get("Authorization") != "Bearer "+token || r.Header.Get("X-Goog-Api-Key") != "" {
		t.Errorf("authorization %q, api key sent: %v", r.Header.Get("Authorization"), r.Header.Get("X-Goog-Api-Key") != "")
	}
}

func TestFromEnv(t *testing.T) {
	t.Setenv("GEMINI_API_KEY", "gemini-key")
	t.Setenv("GOOGLE_API_KEY", "")
	t.Setenv("GOOGLE_GEMINI_BASE_URL", "http://gemini.test")
	if c := gemini.FromEnv(model.Info{}); c.APIKey != "gemini-key" || c.BaseURL != "http://gemini.test" {
		t.Errorf("FromEnv: %+v", c)
	}
	t.Setenv("GOOGLE_API_KEY", "google-key")
	if c := gemini.FromEnv(model.Info{}); c.APIKey != "google-key" {
		t.Errorf("GOOGLE_API_KEY is the SDK's first choice: %+v", c)
	}
}

// TestOptionsRefused: an unknown option or a bad value is refused before
// anything is sent, with what is allowed.
func TestOptionsRefused(t *testing.T) {
	providertest.Refuses(t, gemini.New, gemini.Config{APIKey: apiKey, Credentials: staticToken(token)}, map[string]string{
		"gemini:g;effort=high":                 "allowed: location, max_tokens, project, seed, temperature, thinking, top_p, vertex",
		"gemini:g;temperature=3":               "from 0 to 2",
		"gemini:g;top_p=-1":                    "from 0 to 1",
		"gemini:g;max_tokens=0":                "positive whole number",
		"gemini:g;seed=1.5":                    "whole number",
		"gemini:g;thinking=lots":               "off, dynamic, or a budget",
		"gemini:g;vertex=yes":                  "true or false",
		"gemini:g;project=p":                   "add vertex=true",
		"gemini:g;vertex=true;project=a/b":     "project name",
		"gemini:g;vertex=true;location=europe": "needs a project and a location",
		"bedrock:g":                            "not gemini",
	})
	providertest.Refuses(t, gemini.New, gemini.Config{}, map[string]string{"gemini:g": "GEMINI_API_KEY"})
}

// TestNamesStartWithALetter: Gemini refuses a function name that starts
// with a digit or a dash; such a tool is offered with an underscore before
// its name, and the call is mapped back to the MCP name.
func TestNamesStartWithALetter(t *testing.T) {
	h := &wiremodel.Handler{API: wiremodel.Gemini, APIKey: apiKey, Keys: map[string]suite.Key{"Look it up.": {
		Calls: []suite.KeyCall{{Tool: "1password lookup", Args: map[string]any{"item": "wifi"}}},
	}}}
	srv := httptest.NewServer(h)
	defer srv.Close()
	m := providertest.MustOpen(t, "gemini:gemini-test", gemini.Config{APIKey: apiKey, BaseURL: srv.URL}, gemini.New)
	resp, err := m.Generate(context.Background(), &model.Request{
		Tools:    []model.Tool{{Name: "1password lookup"}, {Name: "-dash"}, {Name: "ok_name"}},
		Messages: []model.Message{{Role: model.User, Blocks: []model.Block{{Kind: model.Text, Text: "Look it up."}}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	calls := resp.Message.Calls()
	if len(calls) != 1 || calls[0].Name != "1password lookup" || calls[0].WireName != "_1password_lookup" {
		t.Errorf("calls %+v", calls)
	}
	var got struct {
		Tools []struct{ FunctionDeclarations []struct{ Name string } }
	}
	json.Unmarshal(h.Requests()[0].Body, &got)
	var sent []string
	for _, d := range got.Tools[0].FunctionDeclarations {
		sent = append(sent, d.Name)
	}
	if want := []string{"_1password_lookup", "_-dash", "ok_name"}; !cmp.Equal(sent, want) {
		t.Errorf("declared %v, want %v", sent, want)
	}
}
