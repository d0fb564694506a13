package main

import (
	"fmt"
	"path/filepath"

	"github.com/mcpeval/mcpeval/grade/actions"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// actionReport writes RUN/actions.json and, unless asJSON, prints the
// scoring columns (Pass, Reached, First time, Arguments, Confirmation,
// Clean, Declined, Completion) when the suite has action cases.
func actionReport(e *env, asJSON bool, s *suite.Suite, rec *record.Run) error {
	has := false
	for _, c := range s.Cases {
		if c.Action != nil {
			has = true
			break
		}
	}
	if !has {
		return nil
	}
	rep := actions.Aggregate(s, rec)
	if err := writeJSON(filepath.Join(rec.Dir, "actions.json"), rep); err != nil {
		return err
	}
	if asJSON {
		return nil
	}
	fmt.Fprintln(e.stdout)
	return actions.Text(e.stdout, rep)
}
