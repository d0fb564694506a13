package runner

import (
	"context"
	"slices"

	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// followTools lists the target's tools again when the server has said
// they changed since the conversation last looked, records in the attempt
// what was added, removed or changed, and gives the model's next request
// the tools as they now are. A case or suite with a tools filter, a
// slice or an overlay is not shown a tool added during the run; a tool
// removed or changed is followed everywhere. A listing that fails leaves
// the tools as they were: the calls that follow will tell.
func (cv *conversation) followTools(ctx context.Context) {
	n := cv.conn.ToolsChanged()
	if n == cv.changes {
		return
	}
	cv.changes = n
	listed, err := cv.conn.Tools(ctx)
	if err != nil {
		return
	}
	r := cv.r
	if listed, err = r.withResourceTools(cv.conn, listed); err != nil {
		return
	}
	readOnly := readOnlySet(r.cfg.Suite)
	hidden := map[string]bool{} // listed at the start, and filtered out of the run
	for _, name := range r.all {
		hidden[name] = !slices.ContainsFunc(r.listed, func(t record.Tool) bool { return t.Name == name })
	}
	var now []record.Tool
	for _, t := range listed {
		if hidden[t.Name] {
			continue
		}
		rt, err := listedTool(cv.conn, t, readOnly)
		if err != nil {
			return
		}
		now = append(now, rt)
	}
	change := diffTools(cv.current, now)
	cv.current = now
	if len(change.Added)+len(change.Changed)+len(change.Removed) == 0 {
		return
	}
	change.Turn = len(cv.a.Turns)
	change.ToolsHash = ToolsHash(now)
	cv.a.ToolChanges = append(cv.a.ToolChanges, change)
	cv.applyChange(change)
}

// applyChange gives the conversation the tools after change: a copy of
// its run whose tools and known names follow it.
func (cv *conversation) applyChange(change record.ToolChange) {
	cr := *cv.r
	defs := map[string]record.Tool{}
	for _, t := range change.Changed {
		defs[t.Name] = t
	}
	cr.known = map[string]bool{}
	cr.tools = nil
	for _, t := range cv.r.tools {
		if slices.Contains(change.Removed, t.Name) {
			continue
		}
		if d, ok := defs[t.Name]; ok {
			t = model.Tool{Name: d.Name, Description: d.Description, InputSchema: d.InputSchema}
		}
		cr.tools = append(cr.tools, t)
		cr.known[t.Name] = true
	}
	if showsAdded(cv.r.cfg, cv.c) {
		for _, t := range change.Added {
			cr.tools = append(cr.tools, model.Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema})
			cr.known[t.Name] = true
		}
	}
	if cr.tools == nil {
		cr.tools = []model.Tool{}
	}
	cv.r = &cr
	cv.req.Tools = cr.modelTools() // on a search surface, the search tools (search.go)
}

// showsAdded reports whether case c is shown a tool the server adds
// during the run: only when nothing narrows or rewrites what it is shown.
func showsAdded(cfg Config, c *suite.Case) bool {
	return cfg.Suite.Tools.IsZero() && c.Tools.ToolFilter.IsZero() && cfg.Suite.Slice == nil && cfg.Overlay == nil
}

// diffTools returns what changed from the tools was to now, each list in
// the order now (or was, for removed names) lists them.
func diffTools(was, now []record.Tool) record.ToolChange {
	var ch record.ToolChange
	old := map[string]record.Tool{}
	for _, t := range was {
		old[t.Name] = t
	}
	in := map[string]bool{}
	for _, t := range now {
		in[t.Name] = true
		o, ok := old[t.Name]
		switch {
		case !ok:
			ch.Added = append(ch.Added, t)
		case ToolsHash([]record.Tool{o}) != ToolsHash([]record.Tool{t}):
			ch.Changed = append(ch.Changed, t)
		}
	}
	for _, t := range was {
		if !in[t.Name] {
			ch.Removed = append(ch.Removed, t.Name)
		}
	}
	return ch
}
