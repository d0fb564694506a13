package bedrock_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpeval/mcpeval/internal/testkit/providertest"
	"github.com/mcpeval/mcpeval/internal/testkit/wiremodel"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/bedrock"
)

func stand(t *testing.T) (*wiremodel.Handler, string) {
	st := providertest.Serve(t, providertest.Provider{API: wiremodel.Bedrock, HandlerKey: accessKeyID})
	return st.H, st.URL
}

// TestSignedRequestOnTheWire: the request is signed with SigV4 by the
// environment's access key for the region the spec names, for bedrock, at
// the model's Converse path; the body carries the options, the system
// prompt and the mapped tools each followed by a cache point; the result
// goes back as a toolResult with status error; the cached prefix is
// written once and read after.
func TestSignedRequestOnTheWire(t *testing.T) {
	staticEnv(t)
	h, url := stand(t)
	m := providertest.MustOpen(t, "bedrock:anthropic.claude-test-v1:0;region=ap-southeast-1;max_tokens=900;temperature=0.5;top_p=0.9", bedrock.Config{BaseEndpoint: url}, bedrock.New)
	req := providertest.Request()
	resp, err := m.Generate(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	r := h.Requests()[0]
	sig := wiremodel.SigV4RE.FindStringSubmatch(r.Header.Get("Authorization"))
	if sig == nil || sig[1] != accessKeyID || sig[2] != time.Now().UTC().Format("20060102") || sig[3] != "ap-southeast-1" {
		t.Errorf("Authorization %q", r.Header.Get("Authorization"))
	}
	if r.Path != "/model/anthropic.claude-test-v1:0/converse" {
		t.Errorf("path %s", r.Path)
	}
	var got map[string]any
	json.Unmarshal(r.Body, &got)
	if d := cmp.Diff(map[string]any{"maxTokens": 900.0, "temperature": 0.5, "topP": 0.9}, got["inferenceConfig"]); d != "" {
		t.Errorf("inferenceConfig (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]any{map[string]any{"text": "You operate containers."}, map[string]any{"cachePoint": map[string]any{"type": "default"}}}, got["system"]); d != "" {
		t.Errorf("system (-want +got):\n%s", d)
	}
	tools := got["toolConfig"].(map[string]any)["tools"].([]any)
	spec := tools[0].(map[string]any)["toolSpec"].(map[string]any)
	if len(tools) != 4 || spec["name"] != "list_containers" || spec["inputSchema"].(map[string]any)["json"].(map[string]any)["type"] != "object" || tools[3].(map[string]any)["cachePoint"] == nil {
		t.Errorf("tools %v", tools)
	}
	if resp.Usage.CacheWrite == 0 || resp.Usage.CacheRead != 0 || resp.StopReason != "tool_use" {
		t.Errorf("first turn usage %+v, stop %q", resp.Usage, resp.StopReason)
	}
	call := resp.Message.Calls()[0]
	req.Messages = append(req.Messages, resp.Message, model.Message{Role: model.User, Blocks: []model.Block{
		{Kind: model.ToolResult, Result: &model.Result{CallID: call.ID, Name: call.Name, Content: "no such container", IsError: true}},
	}})
	resp, err = m.Generate(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Usage.CacheRead == 0 || resp.Usage.CacheWrite != 0 {
		t.Errorf("second turn usage %+v, want the prefix read", resp.Usage)
	}
	json.Unmarshal(h.Requests()[1].Body, &got)
	tr := got["messages"].([]any)[2].(map[string]any)["content"].([]any)[0].(map[string]any)["toolResult"]
	want := map[string]any{"toolUseId": call.ID, "status": "error", "content": []any{map[string]any{"text": "no such container"}}}
	if d := cmp.Diff(want, tr); d != "" {
		t.Errorf("toolResult (-want +got):\n%s", d)
	}
}

// TestCacheOff: cache=false sends no cache point, and a model that does
// not take them gets none by default.
func TestCacheOff(t *testing.T) {
	staticEnv(t)
	for _, spec := range []string{"bedrock:anthropic.claude-test-v1:0;cache=false", "bedrock:meta.llama-test-v1:0"} {
		h, url := stand(t)
		m := providertest.MustOpen(t, spec, bedrock.Config{BaseEndpoint: url}, bedrock.New)
		if _, err := m.Generate(context.Background(), providertest.Request()); err != nil {
			t.Fatal(err)
		}
		if b := h.Requests()[0].Body; strings.Contains(string(b), "cachePoint") {
			t.Errorf("%s: a cache point was sent: %s", spec, b)
		}
	}
}

// TestOptionsRefused: an unknown option, a bad value, or no region, is
// refused before anything is sent.
func TestOptionsRefused(t *testing.T) {
	staticEnv(t)
	providertest.Refuses(t, bedrock.New, bedrock.Config{}, map[string]string{
		"bedrock:m;effort=high":    "allowed: cache, max_tokens, region, temperature, top_p",
		"bedrock:m;temperature=2":  "from 0 to 1",
		"bedrock:m;top_p=NaN":      "from 0 to 1",
		"bedrock:m;max_tokens=-1":  "positive whole number",
		"bedrock:m;region=a/b":     "AWS region",
		"bedrock:m;cache=sometime": "true or false",
		"gemini:m":                 "not bedrock",
	})
	t.Setenv("AWS_REGION", "")
	providertest.Refuses(t, bedrock.New, bedrock.Config{}, map[string]string{"bedrock:m": "AWS_REGION"})
}
