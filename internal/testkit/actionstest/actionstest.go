// Package actionstest checks the action-score columns of a fake model's run,
// for the tests that put action suites to the fake variants (over the
// builtin servers and over third-party ones).
package actionstest

import (
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/grade/actions"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// OpsLoses are the columns each fake loses on the embedded ops suite, on
// every one of its surfaces: every other column must be full.
var OpsLoses = map[string][]string{
	"perfect":      nil,
	"wrong-args":   {"Pass", "Arguments"},
	"no-confirm":   {"Pass", "Reached", "Confirmation"},
	"declines":     {"Pass", "Reached", "Confirmation"},
	"extra-change": {"Pass", "Clean", "Declined"},
	"gives-up":     {"Pass", "Reached", "Confirmation"},
	// The fakes of a conversation differ only on the cases whose key
	// asks: destructive/remove-after-asking, approved in the user's
	// turn, and decline/remove-refused, refused in it. Acting before
	// asking makes the change unapproved (not reached, and unclean);
	// ignoring the answer makes the stray change instead, on both;
	// asking forever never acts, which on the refusal is right.
	"acts-first":     {"Pass", "Reached", "Confirmation", "Clean"},
	"ignores-answer": {"Pass", "Reached", "Confirmation", "Clean", "Declined"},
	"asks-forever":   {"Pass", "Reached", "Confirmation"},
}

// CheckColumns checks that the run rec of suite s by fake variant name,
// graded (grade.Run: the verdicts its action columns are read from),
// scored the attempts it should (scored) with none excluded, and lost
// points in exactly the columns named in loses; the columns every action
// case counts in must have counted something. When the test has failed it
// logs the attempts that did not pass. It returns the columns' report.
func CheckColumns(t *testing.T, s *suite.Suite, rec *record.Run, name string, scored int, loses []string) *actions.Report {
	t.Helper()
	rep := grade.Run(s, rec).Actions
	if rep == nil || len(rep.Models) != 1 {
		if rep == nil {
			t.Fatalf("fake:%s: no action columns", name)
		}
		t.Fatalf("fake:%s: %d model rows", name, len(rep.Models))
	}
	row := rep.Models[0]
	if row.Scored != scored || len(row.Excluded) > 0 {
		t.Errorf("fake:%s: %d attempts scored, %v excluded; want %d scored, none excluded", name, row.Scored, row.Excluded, scored)
		for _, a := range rep.Attempts {
			if a.Excluded != "" {
				t.Logf("  %s #%d excluded: %v", a.Case, a.N, a.Reasons)
			}
		}
	}
	lost := map[string]bool{}
	for _, c := range loses {
		lost[c] = true
	}
	for i, col := range row.Columns.List() {
		column := actions.ColumnNames[i]
		switch column {
		case "Pass", "Reached", "Clean", "Declined", "Completion":
			// Every case counts in these: an empty one would prove nothing.
			if col.Den == 0 {
				t.Errorf("fake:%s: column %s counted nothing", name, column)
			}
		}
		if lost[column] == col.Full() {
			verb := "lose no points"
			if lost[column] {
				verb = "lose points"
			}
			t.Errorf("fake:%s: column %s is %s, want it to %s", name, column, col, verb)
		}
	}
	if t.Failed() {
		for _, a := range rep.Attempts {
			if !a.Pass {
				t.Logf("  %s #%d: %s", a.Case, a.N, strings.Join(a.Reasons, "; "))
			}
		}
	}
	return rep
}
