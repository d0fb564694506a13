package fake

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/suite"
)

// OnSurface returns the fake playing its suite's key on surface sf, whose
// canonical tools are canonical (as the canonical surface lists them): it
// plays each turn as on the canonical surface, reading the canonical
// tools' schemas (for the approval argument and for wrong values), then
// sends every call to the surface's tool with the fixed arguments of its
// map (see suite.Surface.Forward). The runner calls it for a run on a
// surface (runner.SurfaceModel).
//
// On a search surface it plays each call of the key in three turns: it
// searches for the tool by its name's words (search_tools), describes it
// (describe_tool), then calls it through call_tool.
func (m *Model) OnSurface(sf *suite.Surface, canonical []model.Tool) model.Model {
	if sf.Search() {
		return &searchModel{m: m, canonical: canonical}
	}
	if sf == nil || sf.Canonical() {
		return m
	}
	return &surfaceModel{m: m, sf: sf, canonical: canonical}
}

// surfaceModel is a fake on a mapped surface.
type surfaceModel struct {
	m         *Model
	sf        *suite.Surface
	canonical []model.Tool
}

// Generate implements model.Model.
func (s *surfaceModel) Generate(ctx context.Context, req *model.Request) (*model.Response, error) {
	view := *req
	view.Tools = s.canonical
	resp, err := s.m.Generate(ctx, &view)
	if err != nil {
		return nil, err
	}
	for _, b := range resp.Message.Blocks {
		if b.Call == nil {
			continue
		}
		var args map[string]any
		if json.Unmarshal(b.Call.Args, &args) != nil {
			continue
		}
		tool, targs := s.sf.Forward(b.Call.Name, args)
		raw, err := json.Marshal(targs)
		if err != nil {
			continue
		}
		b.Call.Name, b.Call.Args = tool, raw
	}
	return resp, nil
}

// searchModel is a fake on a search surface.
type searchModel struct {
	m         *Model
	canonical []model.Tool
}

// Generate implements model.Model. The fake is asked over the
// conversation as it would read on the canonical surface (its searches
// and descriptions left out, each call_tool read as the call it made), and
// the calls it makes there become the next move of the three: a search
// after a call or an answer, a description after a search, the call_tool
// after a description.
func (s *searchModel) Generate(ctx context.Context, req *model.Request) (*model.Response, error) {
	view := *req
	view.Tools = s.canonical
	view.Messages = canonicalMessages(req.Messages)
	resp, err := s.m.Generate(ctx, &view)
	if err != nil {
		return nil, err
	}
	next := suite.SearchToolsTool
	if last := lastCalls(req.Messages); len(last) > 0 {
		switch last[0].Name {
		case suite.SearchToolsTool:
			next = suite.DescribeToolTool
		case suite.DescribeToolTool:
			next = suite.CallToolTool
		}
	}
	for i, b := range resp.Message.Blocks {
		if b.Call == nil {
			continue
		}
		c := *b.Call
		var args any
		switch next {
		case suite.SearchToolsTool:
			args = map[string]any{"query": strings.NewReplacer("_", " ", "-", " ").Replace(c.Name)}
			c.ID += "_search"
		case suite.DescribeToolTool:
			args = map[string]any{"name": c.Name}
			c.ID += "_describe"
		default:
			args = map[string]any{"name": c.Name, "arguments": json.RawMessage(c.Args)}
		}
		raw, err := json.Marshal(args)
		if err != nil {
			continue
		}
		c.Name, c.Args = next, raw
		resp.Message.Blocks[i].Call = &c
	}
	return resp, nil
}

// lastCalls are the calls of the last assistant message of msgs.
func lastCalls(msgs []model.Message) []model.Call {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == model.Assistant {
			return msgs[i].Calls()
		}
	}
	return nil
}

// canonicalMessages is the conversation msgs of a search surface as it
// would read on the canonical surface: the turns that searched or
// described, and their results, left out; each call_tool the call it made.
func canonicalMessages(msgs []model.Message) []model.Message {
	var out []model.Message
	skipResults := false
	for _, m := range msgs {
		if m.Role != model.Assistant {
			if skipResults && hasResults(m) {
				skipResults = false
				continue
			}
			out = append(out, m)
			continue
		}
		skipResults = false
		calls := m.Calls()
		if len(calls) > 0 && (calls[0].Name == suite.SearchToolsTool || calls[0].Name == suite.DescribeToolTool) {
			skipResults = true
			continue
		}
		c := m
		c.Blocks = make([]model.Block, len(m.Blocks))
		for i, b := range m.Blocks {
			if b.Call != nil && b.Call.Name == suite.CallToolTool {
				var made struct {
					Name      string          `json:"name"`
					Arguments json.RawMessage `json:"arguments"`
				}
				if json.Unmarshal(b.Call.Args, &made) == nil {
					call := *b.Call
					call.Name, call.Args = made.Name, made.Arguments
					b.Call = &call
				}
			}
			c.Blocks[i] = b
		}
		out = append(out, c)
	}
	return out
}

// hasResults reports whether m carries tool results.
func hasResults(m model.Message) bool {
	for _, b := range m.Blocks {
		if b.Kind == model.ToolResult {
			return true
		}
	}
	return false
}
