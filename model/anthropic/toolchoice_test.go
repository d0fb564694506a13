package anthropic_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/internal/probe"
	"github.com/mcpeval/mcpeval/internal/testkit/providertest"
	"github.com/mcpeval/mcpeval/internal/testkit/wiremodel"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/anthropic"
)

// TestToolChoiceOnTheWire: each tool choice reaches the Messages API as
// its tool_choice, a named tool under its wire name; a request without one
// sends none; a forced choice with thinking on, and a tool the request
// does not offer, are refused before anything is sent.
func TestToolChoiceOnTheWire(t *testing.T) {
	h := wiremodel.NewAnthropic(nil)
	srv := httptest.NewServer(h)
	defer srv.Close()
	open := func(spec string) model.Model {
		return providertest.MustOpen(t, spec, anthropic.Config{APIKey: "sk-ant-test", BaseURL: srv.URL}, anthropic.New)
	}
	providertest.ToolChoiceOnTheWire(t, h, open("anthropic:claude-test"), []providertest.ChoiceWire{
		{Want: ``},
		{Choice: &model.ToolChoice{Mode: model.ChoiceAuto}, Want: `{"type":"auto"}`},
		{Choice: &model.ToolChoice{Mode: model.ChoiceAny}, Want: `{"type":"any"}`},
		{Choice: &model.ToolChoice{Mode: model.ChoiceNone}, Want: `{"type":"none"}`},
		{Choice: &model.ToolChoice{Mode: model.ChoiceTool, Tool: probe.Tool.Name}, Want: `{"name":"probe_echo","type":"tool"}`},
		{Choice: &model.ToolChoice{Mode: model.ChoiceTool, Tool: "files.read"}, Want: `{"name":"files_read","type":"tool"}`},
	})
	n := h.Count()
	req := probe.Request()
	req.ToolChoice = &model.ToolChoice{Mode: model.ChoiceAny}
	if _, err := open("anthropic:claude-test;thinking=2048").Generate(context.Background(), req); err == nil || !strings.Contains(err.Error(), "refuses with thinking on") {
		t.Errorf("any with thinking: %v", err)
	}
	if h.Count() != n {
		t.Errorf("%d refused requests were sent", h.Count()-n)
	}
}
