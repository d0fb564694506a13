package usage_test

import (
	"encoding/json"
	"testing"

	"github.com/mcpeval/mcpeval/internal/usage"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/runner"
)

// TestToolTokensAsTheCacheWarning: the tokens a tool list takes per
// request are estimated as the prompt-cache warning estimates them, so the
// two figures a user sees agree.
func TestToolTokensAsTheCacheWarning(t *testing.T) {
	tools := []record.Tool{
		{Name: "create_volume", Title: "Create a volume", Description: "Creates a named volume.", InputSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}}}`)},
		{Name: "volumes", Description: "Acts on volumes: the action picks what to do."},
	}
	got, want := usage.ToolTokens(tools), runner.EstimateTokens("", tools)
	if got != want || got == 0 {
		t.Errorf("ToolTokens = %d, runner.EstimateTokens = %d", got, want)
	}
	if usage.ToolTokens(nil) != 0 {
		t.Errorf("no tools take tokens")
	}
}
