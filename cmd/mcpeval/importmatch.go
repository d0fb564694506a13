package main

import (
	"github.com/mcpeval/mcpeval/internal/ingest"
	"github.com/mcpeval/mcpeval/suite"
)

// suiteMatch is how import matches conversations to the cases of s: as
// --match says (m), else as the suite's import: settings say.
func suiteMatch(m ingest.Match, s *suite.Suite) (ingest.Match, error) {
	if m.By != "" {
		return m, nil
	}
	if sm, ok := ingest.SuiteMatch(s); ok {
		return sm, nil
	}
	return ingest.Match{}, usagef("say how conversations are matched to cases: --match prompt or --match attribute[=KEY], or import: {match: ...} in suite %s (see mcpeval help import)", s.Name)
}
