package actions

import (
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/record"
)

// TestAggregateNamesAttempts checks that a warning about an attempt names
// it as every other message does, "case #n".
func TestAggregateNamesAttempts(t *testing.T) {
	run := &record.Run{Header: *header, Attempts: []record.Attempt{{Case: "gone/case", N: 2, End: record.EndAnswered}}}
	run.Header.RunID = "r1"
	rep := aggregate(loadSuite(t, testSuite), run)
	want := "r1: attempt gone/case #2 is of a case the suite no longer has"
	if !strings.Contains(strings.Join(rep.Warnings, "\n"), want) {
		t.Errorf("warnings %q lack %q", rep.Warnings, want)
	}
}
