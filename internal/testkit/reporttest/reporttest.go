// Package reporttest holds what the tests of the renderers share: a run's
// action columns to render, a section cut out of a run page (which the
// HTML report and the browser view draw from the same templates), and a
// check that a rendered output says each of several things.
package reporttest

import (
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/grade/actions"
)

// ActionReport is a run's action columns for model: a write kind of three
// attempts (one more excluded for a provider error) that lost an argument,
// and a decline kind of two attempts, one of which changed something; the
// write attempt that failed is listed with its reason.
func ActionReport(model string) *actions.Report {
	col := func(num, den int) actions.Column { return actions.Column{Num: num, Den: den} }
	write := actions.Row{Model: model, Kind: "write", Scored: 3, Excluded: map[string]int{"provider": 1},
		Columns: actions.Columns{Pass: col(2, 3), Reached: col(3, 3), FirstTime: col(2, 3), Arguments: col(5, 6),
			Confirmation: col(0, 0), Clean: col(3, 3), Declined: col(0, 0), Completion: col(3, 3)}}
	decline := actions.Row{Model: model, Kind: "decline", Scored: 2,
		Columns: actions.Columns{Pass: col(1, 2), Reached: col(0, 0), FirstTime: col(0, 0), Arguments: col(0, 0),
			Confirmation: col(0, 0), Clean: col(1, 2), Declined: col(1, 2), Completion: col(2, 2)}}
	all := actions.Row{Model: model, Scored: 5, Excluded: map[string]int{"provider": 1}}
	all.Columns.Add(write.Columns)
	all.Columns.Add(decline.Columns)
	return &actions.Report{Suite: "report-test", Models: []actions.Row{all}, Kinds: []actions.Row{write, decline},
		Attempts: []actions.Scored{{Model: model, Result: actions.Result{Case: "write/make", N: 2, Kind: "write", Reasons: []string{"step 1 (make_thing): argument name: want \"a\", got \"b\""}}}}}
}

// Contains checks that out, the output called what, holds each of wants,
// and reports each one it lacks, showing out.
func Contains(t testing.TB, what, out string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(out, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, out)
		}
	}
}

// Section is the section of an HTML page headed title: from its <h2>
// heading to the next heading, or to the end of the page. The test fails
// when the page has no such section.
func Section(t testing.TB, page, title string) string {
	t.Helper()
	heading := "<h2>" + title + "</h2>"
	_, s, ok := strings.Cut(page, heading)
	if !ok {
		t.Fatalf("the page has no section %q:\n%s", title, page)
	}
	if end := strings.Index(s, "<h2"); end >= 0 {
		s = s[:end]
	}
	return heading + s
}

// JudgedSection is the section of a run page that shows the cases graded
// by a judge.
func JudgedSection(t testing.TB, page string) string {
	t.Helper()
	return Section(t, page, "Judged by a model (graded_by: judge)")
}
