package grade

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// confusionSuite has a case whose key calls get_accounts then
// get_holdings, one with no key calls, and an action case whose step
// calls close_account.
func confusionSuite() *suite.Suite {
	return &suite.Suite{Name: "t", Cases: []*suite.Case{
		{ID: "a/two", Key: suite.Key{Calls: []suite.KeyCall{{Tool: "get_accounts"}, {Tool: "get_holdings"}}}},
		{ID: "a/none", Key: suite.Key{Answer: "no tools"}},
		{ID: "a/act", Action: &suite.Action{Steps: []suite.Step{{Tool: "close_account"}}}},
	}}
}

// attempt is an attempt of case id, number n, making calls of tools, one
// a turn.
func confusionAttempt(id string, n int, tools ...string) record.Attempt {
	a := record.Attempt{Case: id, N: n, End: record.EndAnswered}
	for _, t := range tools {
		a.Turns = append(a.Turns, record.Turn{Calls: []record.Call{{Name: t, Shown: true}}})
	}
	return a
}

func confusionRun(as ...record.Attempt) *record.Run {
	h := record.Header{RunID: "r", Preflight: record.Preflight{Valid: true}, Tools: []record.Tool{
		{Name: "get_accounts", Description: "Lists accounts."},
		{Name: "get_holdings", Description: "Lists holdings."},
		{Name: "get_cashflow", Description: "Cash in and out."},
		{Name: "unused", Description: "Never named."},
	}}
	return &record.Run{Header: h, Attempts: as}
}

// pairs returns cells as "wanted>called=count" strings.
func pairs(cells []ConfusionCell) []string {
	var out []string
	for _, c := range cells {
		out = append(out, c.Wanted+">"+c.Called+"="+string(rune('0'+c.Count)))
	}
	return out
}

func TestConfusionCells(t *testing.T) {
	for _, tc := range []struct {
		name        string
		attempts    []record.Attempt
		first, call []string
	}{
		{"right tools", []record.Attempt{confusionAttempt("a/two", 1, "get_accounts", "get_holdings")},
			[]string{"get_accounts>get_accounts=1"}, []string{"get_accounts>get_accounts=1", "get_holdings>get_holdings=1"}},
		{"right tools out of order", []record.Attempt{confusionAttempt("a/two", 1, "get_holdings", "get_accounts")},
			[]string{"get_accounts>get_holdings=1"}, []string{"get_accounts>get_accounts=1", "get_holdings>get_holdings=1"}},
		{"one tool mistaken", []record.Attempt{confusionAttempt("a/two", 1, "get_cashflow", "get_holdings")},
			[]string{"get_accounts>get_cashflow=1"}, []string{"get_accounts>get_cashflow=1", "get_holdings>get_holdings=1"}},
		{"nothing called", []record.Attempt{confusionAttempt("a/two", 1)},
			[]string{"get_accounts>=1"}, []string{"get_accounts>=1", "get_holdings>=1"}},
		{"a second call of a key tool is not a confusion", []record.Attempt{confusionAttempt("a/two", 1, "get_accounts", "get_accounts", "get_holdings")},
			[]string{"get_accounts>get_accounts=1"}, []string{"get_accounts>get_accounts=1", "get_holdings>get_holdings=1"}},
		{"unexpected calls pair with missed ones in order", []record.Attempt{confusionAttempt("a/two", 1, "x", "y")},
			[]string{"get_accounts>x=1"}, []string{"get_accounts>x=1", "get_holdings>y=1"}},
		{"an action case's steps are its key", []record.Attempt{confusionAttempt("a/act", 1, "delete_account")},
			[]string{"close_account>delete_account=1"}, []string{"close_account>delete_account=1"}},
		{"counts add up, the most frequent first", []record.Attempt{
			confusionAttempt("a/two", 1, "get_cashflow", "get_holdings"),
			confusionAttempt("a/two", 2, "get_cashflow", "get_holdings"),
			confusionAttempt("a/two", 3, "get_accounts", "get_holdings")},
			[]string{"get_accounts>get_cashflow=2", "get_accounts>get_accounts=1"},
			[]string{"get_holdings>get_holdings=3", "get_accounts>get_cashflow=2", "get_accounts>get_accounts=1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := ConfusionOf(confusionSuite(), confusionRun(tc.attempts...))
			if c == nil {
				t.Fatal("no confusion")
			}
			if d := cmp.Diff(tc.first, pairs(c.First)); d != "" {
				t.Errorf("first (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.call, pairs(c.Calls)); d != "" {
				t.Errorf("calls (-want +got):\n%s", d)
			}
		})
	}
}

// TestConfusionLeavesOut checks the attempts that must make no cell: an
// error, a case whose key calls nothing, a case the suite lacks.
func TestConfusionLeavesOut(t *testing.T) {
	errored := confusionAttempt("a/two", 1, "get_cashflow")
	errored.End = record.EndError
	r := confusionRun(errored, confusionAttempt("a/none", 1, "get_cashflow"), confusionAttempt("gone", 1, "get_cashflow"))
	if c := ConfusionOf(confusionSuite(), r); c != nil {
		t.Errorf("confusion %+v, want none", c)
	}
}

func TestConfusionAttemptsAndTools(t *testing.T) {
	r := confusionRun(confusionAttempt("a/two", 2, "get_cashflow"), confusionAttempt("a/two", 1, "get_cashflow"))
	r.Header.Overlay = &record.Overlay{Path: "o.yaml"}
	c := ConfusionOf(confusionSuite(), r)
	top := c.Top(1)
	if len(top) != 1 || top[0].Wanted != "get_accounts" || top[0].Called != "get_cashflow" {
		t.Fatalf("top = %+v", top)
	}
	if d := cmp.Diff([]AttemptRef{{"a/two", 1}, {"a/two", 2}}, top[0].Attempts); d != "" {
		t.Errorf("attempts (-want +got):\n%s", d)
	}
	want := map[string]string{"get_accounts": "Lists accounts.", "get_holdings": "Lists holdings.", "get_cashflow": "Cash in and out."}
	if d := cmp.Diff(want, c.Tools); d != "" {
		t.Errorf("tools (-want +got):\n%s", d)
	}
	if c.Overlay != "o.yaml" || c.Attempts != 2 {
		t.Errorf("overlay %q, attempts %d", c.Overlay, c.Attempts)
	}
	// Run carries the same confusion in its result.
	if d := cmp.Diff(c, Run(confusionSuite(), r).Confusion); d != "" {
		t.Errorf("Run's confusion (-ConfusionOf +Run):\n%s", d)
	}
}

// A cell names at most MaxCellAttempts attempts and counts the rest, so
// that a run of any size keeps a bounded confusion.
func TestConfusionCellAttemptsBounded(t *testing.T) {
	// Read last first, as a merged record may hold them: the cell still
	// names the first MaxCellAttempts.
	var as []record.Attempt
	for n := 3*MaxCellAttempts + 7; n >= 1; n-- {
		as = append(as, confusionAttempt("a/two", n, "get_accounts", "get_accounts", "get_holdings"))
	}
	c := ConfusionOf(confusionSuite(), confusionRun(as...))
	cell := c.Calls[0]
	if cell.Count != 3*MaxCellAttempts+7 || len(cell.Attempts) != MaxCellAttempts || cell.More != 2*MaxCellAttempts+7 {
		t.Errorf("cell counts %d, names %d attempts and %d more; want %d, %d and %d", cell.Count, len(cell.Attempts), cell.More, 3*MaxCellAttempts+7, MaxCellAttempts, 2*MaxCellAttempts+7)
	}
	if first, last := cell.Attempts[0], cell.Attempts[len(cell.Attempts)-1]; first.N != 1 || last.N != MaxCellAttempts {
		t.Errorf("the cell names attempts #%d to #%d, want #1 to #%d", first.N, last.N, MaxCellAttempts)
	}
}
