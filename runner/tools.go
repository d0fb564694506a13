package runner

import (
	"encoding/json"

	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// CaseToolsKey is the key of record.Header.Extra under which a run records
// the tools shown to the cases whose tools filter narrows what the header's
// Tools list: a JSON object from case id to the names of the tools that
// case's model was shown, in the header's order.
const CaseToolsKey = "case_tools"

// hideTools drops from what the run shows the model every tool the
// suite's tools filter hides, and every tool no case is shown (each case's
// tools.include and tools.exclude narrow the suite's, and the suite's
// slice narrows each case's to its slice). It returns the
// tools of writes that remain shown: the read-only guard looks only at
// those, so a write tool the model is never shown does not stop a
// read-only run.
func (r *run) hideTools(writes []string) []string {
	shows := func(name string) bool {
		s := r.cfg.Suite
		if !s.ShowsOn(r.cfg.Surface, nil, name) { // canonical names, through a surface's map
			return false
		}
		for _, c := range s.Cases {
			if s.ShowsOn(r.cfg.Surface, c, name) {
				return true
			}
		}
		return len(s.Cases) == 0
	}
	shown, tools := r.shown[:0:0], r.tools[:0:0]
	for i, t := range r.shown {
		if shows(t.Name) {
			shown, tools = append(shown, t), append(tools, r.tools[i])
		} else {
			delete(r.known, t.Name)
		}
	}
	r.shown, r.tools = shown, tools
	r.hideUnsliced()
	var kept []string
	for _, w := range writes {
		if r.known[w] {
			kept = append(kept, w)
		}
	}
	return kept
}

// forCase returns the run as case c sees it: r itself, or, when c's tools
// filter or the suite's slice narrows what the run shows, a copy showing
// only c's tools. A call of a tool c is not shown is then recorded as not
// shown and never sent.
func (r *run) forCase(c *suite.Case) *run {
	if c == nil || c.Tools.ToolFilter.IsZero() && r.cfg.Suite.Slice == nil {
		return r
	}
	names, err := r.caseTools(c)
	if err != nil { // checked before the run: not reached
		return r
	}
	in := map[string]bool{}
	for _, n := range names {
		in[n] = true
	}
	cr := *r
	cr.tools, cr.known = nil, map[string]bool{}
	for _, t := range r.tools {
		if in[t.Name] {
			cr.tools = append(cr.tools, t)
			cr.known[t.Name] = true
		}
	}
	if cr.tools == nil {
		cr.tools = []model.Tool{}
	}
	return &cr
}

// recordCaseTools writes into the header, under CaseToolsKey, the tools
// each case is shown where that differs from the header's Tools. Every
// case of the suite is listed, planned or not, so that the shards of a run
// record the same header and their merge keeps what each case was shown.
func (r *run) recordCaseTools() {
	byCase := map[string][]string{}
	for _, c := range r.cfg.Suite.Cases {
		if c.Tools.ToolFilter.IsZero() && r.cfg.Suite.Slice == nil {
			continue
		}
		names := []string{}
		for _, t := range r.forCase(c).tools {
			names = append(names, t.Name)
		}
		if len(names) != len(r.tools) {
			byCase[c.ID] = names
		}
	}
	r.recordSliceAndChoices()
	if len(byCase) == 0 {
		return
	}
	b, err := json.Marshal(byCase)
	if err != nil {
		return
	}
	if r.header.Extra == nil {
		r.header.Extra = map[string]json.RawMessage{}
	}
	r.header.Extra[CaseToolsKey] = b
}

// CaseTools returns the names of the tools case id was shown in the run
// with header h: the case's own list when the run recorded one under
// CaseToolsKey, else every tool of h.Tools.
func CaseTools(h *record.Header, id string) []string {
	if raw, ok := h.Extra[CaseToolsKey]; ok {
		var byCase map[string][]string
		if json.Unmarshal(raw, &byCase) == nil {
			if names, ok := byCase[id]; ok {
				return names
			}
		}
	}
	names := make([]string, 0, len(h.Tools))
	for _, t := range h.Tools {
		names = append(names, t.Name)
	}
	return names
}
