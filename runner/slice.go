package runner

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/suite"
)

// SliceKey is the key of record.Header.Extra under which a run whose suite
// sets a slice records it: a JSON object with max_tools, seed and the
// domains. The tools each case was shown are under CaseToolsKey.
const SliceKey = "slice"

// ToolChoiceKey is the key of record.Header.Extra under which a run
// records the tool_choice its cases' first requests carried: a JSON
// object from case id to "auto", "any", "none" or "tool:NAME".
const ToolChoiceKey = "tool_choice"

// caseTools returns the names of the tools case c is shown: those its
// tools filter lets through, narrowed to its slice when the suite sets
// one. The error is a slice the case's named tools and domains overflow.
func (r *run) caseTools(c *suite.Case) ([]string, error) {
	var avail []string
	for _, t := range r.tools {
		if r.cfg.Surface.Allows(c.Tools.ToolFilter, t.Name) { // canonical names, through a surface's map
			avail = append(avail, t.Name)
		}
	}
	return r.cfg.Suite.SliceOn(r.cfg.Surface, c, avail) // canonical names, through a surface's map
}

// checkCases stops a run before any model request when a case's slice
// overflows its cap, a slice domain matches no tool the target lists, or
// a case's tool_choice names a tool the case is not shown.
func (r *run) checkCases(listed []string) error {
	s := r.cfg.Suite
	if err := s.CheckSliceDomains(r.cfg.Surface.CanonicalOf(listed)); err != nil {
		return fmt.Errorf("the suite's slice names tools the target does not list:\n%w", err)
	}
	for _, c := range s.Cases {
		names, err := r.caseTools(c)
		if err != nil {
			return fmt.Errorf("%s:%d: %w", c.File, c.Line, err)
		}
		if tc := s.ChoiceOn(r.cfg.Surface, c); tc != nil && tc.Mode == suite.ChoiceTool && !slices.Contains(names, tc.Tool) {
			return fmt.Errorf("%s:%d: case %s: tool_choice names %s, which the case is not shown (the target lists %d tools)", c.File, c.Line, c.ID, tc.Tool, len(listed))
		}
	}
	return nil
}

// toolChoice returns what case c's first request asks of tool use on
// surface sf, or nil.
func toolChoice(s *suite.Suite, sf *suite.Surface, c *suite.Case) *model.ToolChoice {
	tc := s.ChoiceOn(sf, c)
	if tc == nil {
		return nil
	}
	if sf.Search() && tc.Mode == suite.ChoiceTool { // a named tool is called through call_tool (search.go)
		tc.Tool = CallToolTool
	}
	return &model.ToolChoice{Mode: tc.Mode, Tool: tc.Tool}
}

// recordSliceAndChoices writes into the header the suite's slice
// settings and the tool_choice of each case that sets one.
func (r *run) recordSliceAndChoices() {
	put := func(key string, v any) {
		b, err := json.Marshal(v)
		if err != nil {
			return
		}
		if r.header.Extra == nil {
			r.header.Extra = map[string]json.RawMessage{}
		}
		r.header.Extra[key] = b
	}
	if sl := r.cfg.Suite.Slice; sl != nil {
		put(SliceKey, struct {
			MaxTools int                 `json:"max_tools"`
			Seed     int64               `json:"seed"`
			Domains  map[string][]string `json:"domains,omitempty"`
		}{sl.Cap(), sl.Seed, sl.Domains})
	}
	choices := map[string]string{}
	for _, c := range r.cfg.Suite.Cases { // every case, as recordCaseTools
		if tc := r.cfg.Suite.ChoiceOn(r.cfg.Surface, c); tc != nil { // as sent, on the run's surface
			choices[c.ID] = tc.String()
		}
	}
	if len(choices) > 0 {
		put(ToolChoiceKey, choices)
	}
}

// hideUnsliced drops from what the run shows every tool no case's slice
// holds. Dropping them changes no slice: a slice is drawn from the tools
// its case may see, and none of these was drawn.
func (r *run) hideUnsliced() {
	s := r.cfg.Suite
	if s.Slice == nil || len(s.Cases) == 0 {
		return
	}
	in := map[string]bool{}
	for _, c := range s.Cases {
		names, err := r.caseTools(c)
		if err != nil {
			return // checkCases stops the run
		}
		for _, n := range names {
			in[n] = true
		}
	}
	shown, tools := r.shown[:0:0], r.tools[:0:0]
	for i, t := range r.shown {
		if in[t.Name] {
			shown, tools = append(shown, t), append(tools, r.tools[i])
		} else {
			delete(r.known, t.Name)
		}
	}
	r.shown, r.tools = shown, tools
}
