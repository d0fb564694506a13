package grade

import (
	"encoding/json"
	"fmt"

	"github.com/mcpeval/mcpeval/record"
)

// sliceKey is the header's Extra key under which the runner records a
// suite's slice (runner.SliceKey; grade does not import the runner).
const sliceKey = "slice"

// sliceWarnings says, for a run whose attempts were each shown a slice of
// the target's tools, that its figures measure choice within the slice.
func sliceWarnings(h *record.Header) []string {
	raw, ok := h.Extra[sliceKey]
	if !ok {
		return nil
	}
	var sl struct {
		MaxTools int   `json:"max_tools"`
		Seed     int64 `json:"seed"`
	}
	if err := json.Unmarshal(raw, &sl); err != nil {
		return []string{"the record's slice setting cannot be read: each attempt was shown part of the target's tools"}
	}
	return []string{fmt.Sprintf("each attempt was shown a slice of the target's tools (those its case names, their domains, and distractors up to %d, seed %d): the figures measure choice within the slice, not across the whole catalog", sl.MaxTools, sl.Seed)}
}
