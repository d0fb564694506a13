package report

import (
	"fmt"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/report/format"
)

// ResourceReadsLine says how often the model read the server's resources
// (a suite with resources: true), as every renderer writes it:
// "resource reads: 3 (in 2 attempts)"; "" when it read none.
func ResourceReadsLine(rr *grade.ResourceReads) string {
	if rr == nil || rr.Reads == 0 {
		return ""
	}
	return fmt.Sprintf("resource reads: %d (in %s)", rr.Reads, format.N(rr.Attempts, "attempt"))
}
