package fake

import (
	"context"
	"encoding/json"

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
func (m *Model) OnSurface(sf *suite.Surface, canonical []model.Tool) model.Model {
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
