package runner

import (
	"context"
	"fmt"
	"sort"

	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
	"github.com/mcpeval/mcpeval/target"
)

// A run on a surface of its suite (Config.Surface; see suite.Surface)
// connects to the surface's target and shows the model the surface's
// tools. The cases, fixtures and preflight name canonical tools: the
// harness's own calls go to the surface through its map, and a run on a
// mapped surface starts the canonical surface's target once, before any
// model request, to record the canonical tools' definitions that grading
// reads the surface's calls back to. It makes no call on it. A run on a
// search surface connects to its target as to the canonical one and shows
// the model the search tools over its tools instead (search.go).

// SurfaceFixtures is implemented by Fixtures that can make their calls on
// a surface: OnSurface returns fixtures whose calls of canonical tools go
// to the surface's tools through its map.
type SurfaceFixtures interface {
	Fixtures
	OnSurface(sf *suite.Surface) Fixtures
}

// SurfaceModel is implemented by models that play a suite's key (fakes):
// OnSurface returns the model making its calls on the surface sf, whose
// canonical tools are canonical.
type SurfaceModel interface {
	model.Model
	OnSurface(sf *suite.Surface, canonical []model.Tool) model.Model
}

// onSurface prepares a run on cfg.Surface, once its target's tools are
// listed: it checks the surface's map against the
// canonical and the surface's catalogs, records the canonical tools, and
// puts the fixtures and a key-playing model on the surface. Nothing is
// done without a surface.
func (r *run) onSurface(ctx context.Context) (*record.Surface, error) {
	sf := r.cfg.Surface
	if err := r.sameSurface(); err != nil {
		return nil, err
	}
	if sf == nil {
		return nil, nil
	}
	listed := append([]string(nil), r.all...) // every tool the target lists, shown or not
	sort.Strings(listed)
	info := &record.Surface{Name: sf.Name}
	if fx, ok := r.cfg.Fixtures.(SurfaceFixtures); ok {
		r.cfg.Fixtures = fx.OnSurface(sf)
	}
	if sf.Search() { // the search tools serve the run's own tools (search.go)
		if err := r.searchNamesFree(); err != nil {
			return nil, err
		}
		info.Kind = suite.SurfaceSearch
		for _, t := range searchToolDefs() {
			info.Shown = append(info.Shown, record.Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema})
		}
		r.surfaceModel(sf, r.tools)
		return info, nil
	}
	if sf.Canonical() {
		return info, nil
	}
	canon, err := r.canonicalTools(ctx)
	if err != nil {
		return nil, err
	}
	var names []string
	var tools []model.Tool
	for _, t := range canon {
		names = append(names, t.Name)
		tools = append(tools, model.Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema})
	}
	if err := r.cfg.Suite.CheckSurface(sf, names, listed); err != nil {
		return nil, fmt.Errorf("surface %s does not fit its targets:\n%w", sf.Name, err)
	}
	info.Canonical = canon
	info.Map = map[string]record.SurfaceCall{}
	for c, to := range sf.Map {
		info.Map[c] = record.SurfaceCall{Tool: to.Tool, Args: to.Args, Under: to.Under}
	}
	r.surfaceModel(sf, tools)
	return info, nil
}

// surfaceModel puts a key-playing model on surface sf, whose canonical
// tools are canonical.
func (r *run) surfaceModel(sf *suite.Surface, canonical []model.Tool) {
	if a, ok := r.cfg.Model.(*adaptive); ok {
		if m, ok := a.m.(SurfaceModel); ok {
			a.m = m.OnSurface(sf, canonical)
		}
	} else if m, ok := r.cfg.Model.(SurfaceModel); ok {
		r.cfg.Model = m.OnSurface(sf, canonical)
	}
}

// sameSurface refuses to resume a run on a surface other than the one it
// ran on: its attempts so far were made on that surface's tools.
func (r *run) sameSurface() error {
	if r.cfg.Resume == nil {
		return nil
	}
	name := func(s string) string {
		if s == "" {
			return "no surface"
		}
		return "surface " + s
	}
	was, is := "", ""
	if h := r.cfg.Resume.Header.Surface; h != nil {
		was = h.Name
	}
	if r.cfg.Surface != nil {
		is = r.cfg.Surface.Name
	}
	if was != is {
		return fmt.Errorf("cannot resume %s: it ran on %s, and this run is on %s; resume it on the surface it ran on", r.cfg.Resume.Dir, name(was), name(is))
	}
	return nil
}

// canonicalTools starts the suite's canonical surface and lists its tools,
// as the header records tools.
func (r *run) canonicalTools(ctx context.Context) ([]record.Tool, error) {
	return SurfaceTools(ctx, r.cfg.Suite, r.cfg.Suite.CanonicalSurface(), r.cfg.Target)
}

// SurfaceTools starts the server of surface sf of suite s (the suite's
// target for a nil sf) and lists its tools, with their schemas and
// annotations as a record keeps them. base gives what the suite does not:
// the builtin targets, the client's version and how many stderr lines to
// keep.
func SurfaceTools(ctx context.Context, s *suite.Suite, sf *suite.Surface, base target.Config) ([]record.Tool, error) {
	t, err := ResolveTarget(s, TargetOverrides{Surface: sf, Base: base})
	if err != nil {
		return nil, err
	}
	name := "the suite's target"
	if sf != nil {
		name = "surface " + sf.Name
	}
	conn, err := target.Dial(ctx, t)
	if err != nil {
		return nil, fmt.Errorf("starting %s, for its tools' definitions (before any model request): %w", name, err)
	}
	defer conn.Close()
	listed, err := conn.Tools(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing the tools of %s (before any model request): %w", name, err)
	}
	readOnly := readOnlySet(s)
	var out []record.Tool
	for _, lt := range listed {
		rt, err := recordTool(lt, readOnly)
		if err != nil {
			return nil, fmt.Errorf("tool %s of %s: encoding input schema: %w", lt.Name, name, err)
		}
		out = append(out, rt)
	}
	return out, nil
}
