package openai_test

import (
	"net/http/httptest"
	"testing"

	"github.com/mcpeval/mcpeval/internal/probe"
	"github.com/mcpeval/mcpeval/internal/testkit/providertest"
	"github.com/mcpeval/mcpeval/internal/testkit/wiremodel"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/openai"
)

// TestToolChoiceOnTheWire: each tool choice reaches the chat completions as
// its tool_choice, a named tool under its wire name; a request without one
// sends none; a tool the request does not offer is refused before
// anything is sent.
func TestToolChoiceOnTheWire(t *testing.T) {
	h := wiremodel.NewOpenAI(nil)
	srv := httptest.NewServer(h)
	defer srv.Close()
	m := providertest.MustOpen(t, "openai:gpt-test", openai.Config{APIKey: "sk-test", BaseURL: srv.URL + "/v1"}, openai.New)
	providertest.ToolChoiceOnTheWire(t, h, m, []providertest.ChoiceWire{
		{Want: ``},
		{Choice: &model.ToolChoice{Mode: model.ChoiceAuto}, Want: `"auto"`},
		{Choice: &model.ToolChoice{Mode: model.ChoiceAny}, Want: `"required"`},
		{Choice: &model.ToolChoice{Mode: model.ChoiceNone}, Want: `"none"`},
		{Choice: &model.ToolChoice{Mode: model.ChoiceTool, Tool: probe.Tool.Name}, Want: `{"function":{"name":"probe_echo"},"type":"function"}`},
		{Choice: &model.ToolChoice{Mode: model.ChoiceTool, Tool: "files.read"}, Want: `{"function":{"name":"files_read"},"type":"function"}`},
	})
}
