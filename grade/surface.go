package grade

import (
	"github.com/mcpeval/mcpeval/grade/actions"
	"github.com/mcpeval/mcpeval/record"
)

// onCanonical returns header h and attempt a as they read on the suite's
// canonical surface, so that every check grades a run on any surface by
// the same key (see actions.OnCanonical).
func onCanonical(h *record.Header, a *record.Attempt) (*record.Header, *record.Attempt) {
	return actions.OnCanonical(h, a)
}
