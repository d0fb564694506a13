package runner

import (
	"context"
	"fmt"
	"strings"

	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/target"
)

// resume continues cfg.Resume after checking that it measures the same
// thing.
func (r *run) resume(ctx context.Context, conn *target.Conn) (*record.Run, error) {
	old := r.cfg.Resume
	h := old.Header
	var why []string
	if h.Suite.Hash != r.cfg.Suite.Hash {
		why = append(why, fmt.Sprintf("the suite changed (hash %.12s, the run was made with %.12s)", r.cfg.Suite.Hash, h.Suite.Hash))
	}
	if th := ToolsHash(r.shown); th != h.ToolsHash {
		why = append(why, fmt.Sprintf("the target's tool definitions changed (hash %.12s, the run saw %.12s)", th, h.ToolsHash))
	}
	if r.cfg.ModelInfo.Spec != h.Model.Spec {
		why = append(why, fmt.Sprintf("the model or its options changed (%s, the run used %s)", r.cfg.ModelInfo.Spec, h.Model.Spec))
	}
	if !h.Preflight.Valid {
		why = append(why, "the run is invalid (its preflight failed)")
	}
	if len(why) > 0 {
		return nil, fmt.Errorf("cannot resume %s: %s; start a new run instead", old.Dir, strings.Join(why, "; "))
	}
	done := map[record.Planned]bool{}
	for _, a := range old.Attempts {
		done[record.Planned{Case: a.Case, N: a.N}] = true
	}
	var missing []record.Planned
	for _, p := range h.Planned {
		if !done[p] {
			if r.cfg.Suite.Case(p.Case) == nil {
				return nil, fmt.Errorf("cannot resume %s: case %s is no longer in the suite", old.Dir, p.Case)
			}
			missing = append(missing, p)
		}
	}
	r.header = &h
	r.planned = h.Planned
	w, err := record.Append(old.Dir)
	if err != nil {
		return nil, err
	}
	r.w = w
	return r.finish(ctx, conn, old.Dir, missing)
}
