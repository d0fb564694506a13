package runner

import (
	"context"

	"github.com/mcpeval/mcpeval/target"
)

// LeftoverChecker is implemented by Fixtures that can check, once a run's
// attempts are done, that nothing the attempts made or the fixtures built
// is left on the target. What it returns is recorded in the record's end
// (record.End.Warnings) and reported as warnings of the run.
type LeftoverChecker interface {
	// Leftovers checks the target through conn (nil when the run has no
	// connection left) and returns what was left behind, one message each.
	Leftovers(ctx context.Context, conn *target.Conn) []string
}

// TokenRememberer is implemented by Fixtures whose leftovers check must
// also look for the tokens of attempts they did not set up: those of the
// run being resumed, made by an earlier process.
type TokenRememberer interface {
	// Remember adds the token an attempt of case id was given.
	Remember(token, id string)
}

// leftovers runs the configured fixtures' leftovers check, if they have
// one, over the tokens of this process's attempts and, on a resumed run,
// those of the attempts already recorded. It runs even when the run was
// interrupted: what the finished attempts left is worth knowing.
func (r *run) leftovers(ctx context.Context, conn *target.Conn) []string {
	lc, ok := r.cfg.Fixtures.(LeftoverChecker)
	if !ok {
		return nil
	}
	if tr, ok := r.cfg.Fixtures.(TokenRememberer); ok && r.cfg.Resume != nil {
		for _, a := range r.cfg.Resume.Attempts {
			if a.Fixture != nil {
				tr.Remember(a.Fixture.Token, a.Case)
			}
		}
	}
	return lc.Leftovers(context.WithoutCancel(ctx), conn)
}
