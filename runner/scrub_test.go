package runner_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/report/htmlreport"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/runner"
	"github.com/mcpeval/mcpeval/suite"
	"github.com/mcpeval/mcpeval/target"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Planted secrets: what mcpeval's environment and the target's
// configuration hold, in shapes no first-pass pattern knows.
const (
	plantedProviderKey = "groq-CUSTOMKEY-PLANTED-0451"
	plantedAnthropic   = "sk-ant-api03-PLANTED-aaaaaaaaaaaaaaaaaaaa"
	plantedTargetEnv   = "tenv-PLANTED-77889900"
	plantedExpanded    = "expanded-PLANTED-123456"
	plantedProxyPass   = "proxypass-PLANTED-31"
	plantedURLPass     = "urlpass-PLANTED-42"
)

type noArgs struct{}

// echoModel calls the echo tool, then answers with what it returned.
type echoModel struct{}

func (echoModel) Generate(ctx context.Context, req *model.Request) (*model.Response, error) {
	last := req.Messages[len(req.Messages)-1]
	for _, b := range last.Blocks {
		if b.Kind == model.ToolResult && b.Result != nil {
			return &model.Response{Message: model.Message{Blocks: []model.Block{{Kind: model.Text, Text: "The tool said: " + b.Result.Content}}}}, nil
		}
	}
	return &model.Response{Message: model.Message{Blocks: []model.Block{{Kind: model.ToolUse, Call: &model.Call{ID: "1", Name: "echo", Args: json.RawMessage(`{}`)}}}}}, nil
}

// TestKnownSecretsNeverRecorded runs a case whose tool echoes every
// secret mcpeval holds (provider keys from the environment, a target
// environment value, a ${VAR} expansion, the password of the proxy URL in
// HTTPS_PROXY) and a URL with user info, and whose model repeats them in
// its answer: neither record.jsonl nor the HTML page made from it holds
// any of them.
func TestKnownSecretsNeverRecorded(t *testing.T) {
	t.Setenv("GROQ_API_KEY", plantedProviderKey)
	t.Setenv("ANTHROPIC_API_KEY", plantedAnthropic)
	t.Setenv("MCPEVAL_TEST_EXPANDED", plantedExpanded)
	t.Setenv("HTTPS_PROXY", "http://proxyuser:"+plantedProxyPass+"@proxy.corp:3128")
	echoed := strings.Join([]string{plantedProviderKey, plantedAnthropic, plantedTargetEnv, plantedExpanded,
		"proxy " + plantedProxyPass, "db https://alice:" + plantedURLPass + "@db.example/x"}, " ")
	builtins := target.Builtins{"echo": func(bool) (*mcp.Server, error) {
		s := mcp.NewServer(&mcp.Implementation{Name: "echo " + plantedProviderKey, Version: "1"}, nil)
		mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "echoes", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
			func(ctx context.Context, req *mcp.CallToolRequest, in noArgs) (*mcp.CallToolResult, any, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: echoed}}}, nil, nil
			})
		return s, nil
	}}
	const src = `name: echo-test
system_prompt: Use the tools.
attempts: 1
cases:
  - id: c/echo
    prompt: What does the tool say?
    tools: {required: [echo]}
    answer: {contains: [tool]}
    key: {calls: [{tool: echo}], answer: The tool said it.}
`
	s, err := suite.LoadFS(fstest.MapFS{"suite.yaml": {Data: []byte(src)}}, "suite.yaml", "test")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	rec, err := runner.Run(context.Background(), runner.Config{
		Suite: s, Model: echoModel{}, ModelInfo: model.Info{Spec: "test:echo", Provider: "test", Name: "echo"},
		Target: target.Config{Spec: "builtin:echo", Builtins: builtins,
			Env: map[string]string{"A": plantedTargetEnv, "B": "${MCPEVAL_TEST_EXPANDED}"}},
		OutDir: dir, Concurrency: 1, CallTimeout: 5 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, record.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte("[redacted:secret]")) {
		t.Fatalf("the record shows no redaction; the tool's echo did not reach it:\n%s", data)
	}
	var page bytes.Buffer
	if err := htmlreport.Run(&page, &htmlreport.RunPage{Run: rec, Result: grade.Run(s, rec)}); err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{plantedProviderKey, plantedAnthropic, plantedTargetEnv, plantedExpanded, plantedProxyPass, plantedURLPass} {
		if bytes.Contains(data, []byte(v)) {
			t.Errorf("record.jsonl holds %q", v)
		}
		if bytes.Contains(page.Bytes(), []byte(v)) {
			t.Errorf("the HTML page holds %q", v)
		}
	}
}
