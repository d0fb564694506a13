package redact_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/mcpeval/mcpeval/internal/testkit/mcphttp"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/runner"
	"github.com/mcpeval/mcpeval/suite"
	"github.com/mcpeval/mcpeval/target"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Planted secrets: what the operator's configuration holds.
const (
	plantedToken    = "tok-PLANTED-7f3a9c2e11"
	plantedPassword = "pw-PLANTED-5511"
	plantedQuery    = "q-PLANTED-88aa77"
)

type empty struct{}

// secretServer serves a read-only MCP server over HTTP that checks the
// bearer token, and whose "drop" tool cuts the connection mid-call.
func secretServer(t *testing.T) *httptest.Server {
	var ts *httptest.Server
	server := mcp.NewServer(&mcp.Implementation{Name: "secret-test", Version: "1"}, nil)
	ro := &mcp.ToolAnnotations{ReadOnlyHint: true}
	mcp.AddTool(server, &mcp.Tool{Name: "get_total", Description: "the total", Annotations: ro},
		func(ctx context.Context, req *mcp.CallToolRequest, in empty) (*mcp.CallToolResult, map[string]int, error) {
			return nil, map[string]int{"total": 42}, nil
		})
	mcp.AddTool(server, &mcp.Tool{Name: "drop", Description: "cuts the connection", Annotations: ro},
		func(ctx context.Context, req *mcp.CallToolRequest, in empty) (*mcp.CallToolResult, map[string]int, error) {
			ts.CloseClientConnections()
			return nil, map[string]int{}, nil
		})
	ts = mcphttp.BehindToken(t, server, plantedToken)
	return ts
}

// callModel calls the case's tool, then answers.
type callModel struct{}

func (callModel) Generate(ctx context.Context, req *model.Request) (*model.Response, error) {
	if len(req.Messages) > 1 {
		return &model.Response{Message: model.Message{Blocks: []model.Block{{Kind: model.Text, Text: "The total is 42."}}}}, nil
	}
	tool := "get_total"
	if req.CaseID == "c/drop" {
		tool = "drop"
	}
	return &model.Response{Message: model.Message{Blocks: []model.Block{{Kind: model.ToolUse, Call: &model.Call{ID: "1", Name: tool, Args: json.RawMessage(`{}`)}}}}}, nil
}

const secretSuite = `name: secret-test
system_prompt: Use the tools.
attempts: 1
cases:
  - id: c/total
    prompt: What is the total?
    tools: {required: [get_total]}
    figures: [{value: 42, kind: count}]
    key: {calls: [{tool: get_total}], answer: The total is 42.}
  - id: c/drop
    prompt: Drop it.
    tools: {required: [drop]}
    key: {calls: [{tool: drop}], answer: Done.}
`

// TestRecordsHoldNoSecrets runs against an HTTP target whose URL carries
// user info and a token parameter and whose bearer token comes from
// ${ENV}, with an attempt whose connection is cut mid-call (an error
// message quoting the request), and checks what the runner writes: the
// record holds no token, no password and not the endpoint.
func TestRecordsHoldNoSecrets(t *testing.T) {
	ts := secretServer(t)
	t.Setenv("MCPEVAL_PLANTED_TOKEN", plantedToken)
	host := strings.TrimPrefix(ts.URL, "http://")
	spec := "http://eval:" + plantedPassword + "@" + host + "/mcp?token=" + plantedQuery
	s, err := suite.LoadFS(fstest.MapFS{"suite.yaml": {Data: []byte(secretSuite)}}, "suite.yaml", "test")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	rec, err := runner.Run(context.Background(), runner.Config{
		Suite: s, Model: callModel{}, ModelInfo: model.Info{Spec: "test:call", Provider: "test", Name: "call"},
		Target:      target.Config{Spec: spec, Headers: map[string]string{"Authorization": "Bearer ${MCPEVAL_PLANTED_TOKEN}"}},
		OutDir:      dir,
		Concurrency: 1,
		CallTimeout: 5 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	var dropped *record.Attempt
	for i := range rec.Attempts {
		if rec.Attempts[i].Case == "c/drop" {
			dropped = &rec.Attempts[i]
		}
	}
	if dropped == nil || dropped.Error == nil {
		t.Fatalf("the dropped call did not end in an error: %+v", dropped)
	}
	t.Logf("target recorded as %q; the dropped call's error: %q", rec.Header.Target.Spec, dropped.Error.Message)
	data, err := os.ReadFile(filepath.Join(dir, record.FileName))
	if err != nil {
		t.Fatal(err)
	}
	for what, v := range map[string]string{
		"the bearer token": plantedToken, "the URL's password": plantedPassword,
		"the URL's token parameter": plantedQuery, "the endpoint": host,
	} {
		if strings.Contains(string(data), v) {
			t.Errorf("the record holds %s (%q)", what, v)
		}
	}
}
