package anthropic_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/internal/probe"
	"github.com/mcpeval/mcpeval/internal/testserver/wiremodel"
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
		info, err := model.ParseSpec(spec)
		if err != nil {
			t.Fatal(err)
		}
		m, err := anthropic.New(info, anthropic.Config{APIKey: "sk-ant-test", BaseURL: srv.URL})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	m := open("anthropic:claude-test")
	dotted := model.Tool{Name: "files.read", InputSchema: json.RawMessage(`{"type":"object"}`)}
	for _, tc := range []struct {
		choice *model.ToolChoice
		want   string
	}{
		{nil, ``},
		{&model.ToolChoice{Mode: model.ChoiceAuto}, `{"type":"auto"}`},
		{&model.ToolChoice{Mode: model.ChoiceAny}, `{"type":"any"}`},
		{&model.ToolChoice{Mode: model.ChoiceNone}, `{"type":"none"}`},
		{&model.ToolChoice{Mode: model.ChoiceTool, Tool: probe.Tool.Name}, `{"name":"probe_echo","type":"tool"}`},
		{&model.ToolChoice{Mode: model.ChoiceTool, Tool: "files.read"}, `{"name":"files_read","type":"tool"}`},
	} {
		req := probe.Request(dotted)
		req.ToolChoice = tc.choice
		n := h.Count()
		if _, err := m.Generate(context.Background(), req); err != nil {
			t.Fatalf("%s: %v", tc.choice, err)
		}
		reqs := h.Requests()
		if len(reqs) != n+1 {
			t.Fatalf("%s: %d requests sent", tc.choice, len(reqs)-n)
		}
		var body struct {
			ToolChoice json.RawMessage `json:"tool_choice"`
		}
		if err := json.Unmarshal(reqs[n].Body, &body); err != nil {
			t.Fatal(err)
		}
		if got := string(body.ToolChoice); got != tc.want {
			t.Errorf("%s: tool_choice %s, want %s", tc.choice, got, tc.want)
		}
	}
	n := h.Count()
	req := probe.Request()
	req.ToolChoice = &model.ToolChoice{Mode: model.ChoiceTool, Tool: "absent"}
	if _, err := m.Generate(context.Background(), req); err == nil || !strings.Contains(err.Error(), "tool_choice names absent, which the request does not offer") {
		t.Errorf("an absent tool: %v", err)
	}
	req.ToolChoice = &model.ToolChoice{Mode: model.ChoiceAny}
	if _, err := open("anthropic:claude-test;thinking=2048").Generate(context.Background(), req); err == nil || !strings.Contains(err.Error(), "refuses with thinking on") {
		t.Errorf("any with thinking: %v", err)
	}
	if h.Count() != n {
		t.Errorf("%d refused requests were sent", h.Count()-n)
	}
}
