package compare

import (
	"fmt"

	"github.com/mcpeval/mcpeval/record"
)

// Related returns an error, saying why, when runs of the suites named
// baseSuite and newSuite, which planned the cases baseCases and newCases,
// measure unrelated things: the suites differ by name, or no case is in
// both. A gate on such a pair would pass or fail on nothing.
func Related(baseSuite string, baseCases []string, newSuite string, newCases []string) error {
	if baseSuite != newSuite {
		return fmt.Errorf("the runs measure different suites (%q and %q): a gate compares runs of one suite", baseSuite, newSuite)
	}
	in := map[string]bool{}
	for _, c := range baseCases {
		in[c] = true
	}
	for _, c := range newCases {
		if in[c] {
			return nil
		}
	}
	return fmt.Errorf("the runs of suite %q have no case in common (%d and %d cases planned): a gate compares runs of the same cases", baseSuite, len(distinct(baseCases)), len(distinct(newCases)))
}

// RelatedRuns is Related for two recorded runs.
func RelatedRuns(base, nw *record.Run) error {
	return Related(base.Header.Suite.Name, PlannedCases(base), nw.Header.Suite.Name, PlannedCases(nw))
}

// PlannedCases returns the ids of the cases run planned, each once, in
// plan order.
func PlannedCases(run *record.Run) []string {
	var ids []string
	for _, p := range run.Header.Planned {
		ids = append(ids, p.Case)
	}
	return distinct(ids)
}

func distinct(ids []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}
