package grade

import (
	"testing"

	"github.com/mcpeval/mcpeval/record"
)

// TestFigureIsTheAnswer holds the rule that a figure passes only when the
// answer states it as the answer (docs/suite.md, "Which figure is the
// answer"): wrong answers that hold the expected figure somewhere fail,
// with a reason that names what the answer does with it; right answers
// that give context figures pass.
func TestFigureIsTheAnswer(t *testing.T) {
	march := []cs{{"get_net_worth_history", `{"months": 10}`}}
	nw := []cs{{"get_net_worth", ""}}
	vest := []cs{{"get_holdings", ""}, {"get_upcoming_vests", ""}}
	const mcase = "dates/net-worth-march-2026"
	runGradeCases(t, []gradeCase{
		// Wrong: the expected figure named only as the comparison.
		{name: "wrong month, right one as the comparison", caseID: mcase, calls: march,
			answer: "At the end of March 2026 your net worth was SGD 2,271,632, up from SGD 2,261,924 in December 2025.",
			want:   []string{"figures: SGD 2,261,924 appears only as the comparison"}},
		{name: "right figure credited to another month", caseID: mcase, calls: march,
			answer: "Your net worth at the end of March 2026 was SGD 2,243,222. In December 2025 it was SGD 2,261,924.",
			want:   []string{"figures: the answer credits SGD 2,261,924 to another period"}},
		{name: "right figure called last year's", caseID: mcase, calls: march,
			answer: "It was SGD 2,243,222; the SGD 2,261,924 is last year's figure.",
			want:   []string{"figures: the answer credits SGD 2,261,924 to another period"}},
		{name: "hedge between two months", caseID: mcase, calls: march,
			answer: "It was either SGD 2,261,924 or SGD 2,271,632, depending on which month-end you mean.",
			want:   []string{"figures: the answer hedges between SGD 2,261,924 and SGD 2,271,632"}},
		{name: "hedge with a slash", caseID: mcase, calls: march,
			answer: "Net worth: SGD 2,261,924 / SGD 2,243,222.",
			want:   []string{"figures: the answer hedges between"}},
		{name: "a range wider than the tolerance", caseID: mcase, calls: march,
			answer: "Somewhere between SGD 2.2M and SGD 2.3M.",
			want:   []string{"figures: "}},
		{name: "negated", caseID: mcase, calls: march,
			answer: "It was not SGD 2,261,924 but SGD 2,271,632.",
			want:   []string{"figures: the answer says it is not SGD 2,261,924"}},
		{name: "only a term of a sum", caseID: mcase, calls: march,
			answer: "Your net worth at the end of March 2026 was SGD 2,261,924 + SGD 9,708 = SGD 2,271,632.",
			want:   []string{"figures: SGD 2,261,924 appears only as a term of a calculation"}},
		{name: "maybe", caseID: mcase, calls: march,
			answer: "It might be SGD 2,261,924, but I'm not sure.",
			want:   []string{"figures: the answer hedges on SGD 2,261,924"}},
		{name: "a count of months is not a count of units", caseID: "multi-tool/voo-vs-next-vest", calls: vest,
			answer: "You hold 450 VOO units; the next vest comes in 400 days.",
			want:   []string{"figures: the answer's 400 days counts days"}},
		{name: "last year's figure, no period asked", caseID: "single-tool/fixed-deposit", calls: []cs{{"get_accounts", ""}},
			answer: "It holds SGD 200,000. The SGD 210,000 was last year's balance.",
			want:   []string{"figures: the answer credits SGD 210,000 to another period"}},
		{name: "a rival held by the thing asked", caseID: "single-tool/fixed-deposit", calls: []cs{{"get_accounts", ""}},
			answer: "The accounts list shows SGD 210,000, but the history's latest figure is lower, so the fixed deposit holds SGD 200,000.",
			want:   []string{"figures: the answer states SGD 210,000 but also states SGD 200,000"}},
		{name: "a rival for the period asked", caseID: mcase, calls: march,
			answer: "The history shows SGD 2,261,924. In March 2026 it was SGD 2,299,614 once April's revaluation is included.",
			want:   []string{"figures: the answer states SGD 2,261,924 but also states SGD 2,299,614"}},
		{name: "a rise stated for a fall", caseID: "single-tool/brokerage-return-12m", calls: []cs{{"get_returns", ""}},
			edit: func(a *record.Attempt) {}, answer: "The return fell 14.86% over the last 12 months.",
			want: []string{"figures: "}},
		{name: "ambiguous dot", caseID: "single-tool/fixed-deposit", calls: []cs{{"get_accounts", ""}},
			answer: "The fixed deposit holds 210.000.",
			want:   []string{"figures: the answer's 210.000 is ambiguous: 210 or 210,000"}},
		// Right: context figures a right answer gives.
		{name: "one amount in two currencies", caseID: "fx/yen-in-sgd", calls: []cs{{"get_fx_exposure", ""}},
			answer: "You hold JPY 4,300,000, or SGD 37,840."},
		{name: "a difference beside the figures", caseID: "multi-tool/voo-vs-next-vest", calls: vest,
			answer: "Yes: 450 VOO units against 400 FXTC shares, so 50 more VOO units than the vest delivers."},
		{name: "a share out of a total", caseID: mcase, calls: march,
			answer: "At the end of March 2026 it was SGD 2,261,924, out of SGD 2,300,000 in gross assets."},
		{name: "arguments written as code", caseID: mcase, calls: march,
			answer: "`get_net_worth_history(months=10)` gives **SGD 2,261,924** for March 2026."},
		{name: "last year's figure as context, no period asked", caseID: "single-tool/fixed-deposit", calls: []cs{{"get_accounts", ""}},
			answer: "The fixed deposit holds SGD 210,000; last year it held SGD 200,000."},
		{name: "comparison after the answer", caseID: mcase, calls: march,
			answer: "At the end of March 2026 your net worth was SGD 2,261,924, up from SGD 2,243,222 in January 2026."},
		{name: "other months named as such", caseID: mcase, calls: march,
			answer: "In December 2025 it was SGD 2,271,632 and in March 2026 it was SGD 2,261,924."},
		{name: "the month from a change", caseID: mcase, calls: march,
			answer: "Net worth rose from SGD 2,243,222 in January to SGD 2,261,924 at the end of March 2026."},
		{name: "a breakdown", caseID: mcase, calls: march,
			answer: "End of March 2026: cash 72,480 + CPF 200,000 + IBKR 351,604 + yen 37,840 + home 1,600,000 = SGD 2,261,924."},
		{name: "a heading", caseID: mcase, calls: march,
			answer: "**Net worth, March 2026:** SGD 2,261,924\n\nFor comparison, December 2025: SGD 2,271,632."},
		{name: "a table of months", caseID: mcase, calls: march,
			answer: "| Month | Net worth |\n|---|---|\n| Dec 2025 | SGD 2,271,632 |\n| Mar 2026 | **SGD 2,261,924** |"},
		{name: "before the renewal", caseID: "single-tool/net-worth-now", calls: nw,
			answer: "Your net worth is SGD 2,394,755; the fixed deposit was 200,000 before the June renewal."},
		{name: "since last year", caseID: mcase, calls: march,
			answer: "It grew since last year to SGD 2,261,924 at the end of March 2026."},
		{name: "a range within the tolerance", caseID: mcase, calls: march,
			answer: "Between S$2.26M and S$2.262M."},
		{name: "units and days", caseID: "multi-tool/voo-vs-next-vest", calls: vest,
			answer: "Yes: 450 VOO units against 400 FXTC shares vesting in 30 days."},
	})
}
