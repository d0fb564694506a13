package grade

import (
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/record"
)

// cs names a call: a tool and its arguments as JSON ("" for none).
type cs struct{ tool, args string }

// gradeCase is one answer to grade and what its grade must be.
type gradeCase struct {
	name   string
	caseID string
	calls  []cs
	answer string
	writes bool                  // show the write tools too
	edit   func(*record.Attempt) // change the attempt before grading
	// want are "check: text" pairs each failing reason must include, in
	// order; none means the attempt must pass.
	want []string
}

func runGradeCases(t *testing.T, tests []gradeCase) {
	t.Helper()
	hh := loadHousehold(t)
	s := loadSuite(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mustCase(t, s, tt.caseID)
			var calls []record.Call
			for _, x := range tt.calls {
				calls = append(calls, hh.call(t, x.tool, x.args))
			}
			a := answered(c, tt.answer, calls...)
			if tt.edit != nil {
				tt.edit(a)
			}
			g := Attempt(s, c, hh.header(tt.writes), a)
			if len(tt.want) == 0 {
				if g.Outcome != Pass {
					t.Fatalf("outcome %s, want pass; reasons:%s", g.Outcome, reasonsText(g.Reasons))
				}
				return
			}
			if g.Outcome != Fail {
				t.Fatalf("outcome %s, want fail with %q", g.Outcome, tt.want)
			}
			if len(g.Reasons) != len(tt.want) {
				t.Fatalf("%d reasons, want %d %q; reasons:%s", len(g.Reasons), len(tt.want), tt.want, reasonsText(g.Reasons))
			}
			for i, w := range tt.want {
				check, text, _ := strings.Cut(w, ": ")
				if g.Reasons[i].Check != check || !strings.Contains(g.Reasons[i].Message, text) {
					t.Errorf("reason %d = %s\nwant check %q containing %q", i, g.Reasons[i], check, text)
				}
			}
		})
	}
}

// TestWrongAnswers is a set of targeted wrong answers, each of which must
// be caught with the right reason.
func TestWrongAnswers(t *testing.T) {
	march := []cs{{"get_net_worth_history", `{"months": 12}`}}
	runGradeCases(t, []gradeCase{
		{
			name: "wrong month (December for March)", caseID: "dates/net-worth-march-2026", calls: march,
			answer: "At the end of March 2026 your net worth was SGD 2,271,631.60.",
			want:   []string{"figures: expected SGD 2,261,924 (±0.25%); answer states SGD 2,271,631.60 (0.43% off)"},
		},
		{
			name: "neighbouring month, rounded", caseID: "dates/net-worth-march-2026", calls: march,
			answer: "It was about S$2.27M at the end of March 2026.",
			want:   []string{"figures: answer states S$2.27M (0.36% off)"},
		},
		{
			name: "right month rounded past the tolerance", caseID: "dates/net-worth-march-2026", calls: march,
			answer: "Roughly S$2.3 million.",
			want:   []string{"figures: expected SGD 2,261,924 (±0.25%); answer states S$2.3 million (1.68% off)"},
		},
		{
			name: "month left out: the default 6 months stop at April", caseID: "dates/net-worth-march-2026",
			calls:  []cs{{"get_net_worth_history", ""}},
			answer: "In April 2026 your net worth was SGD 2,299,613.80; March is not in the data I got.",
			want: []string{
				"args: get_net_worth_history.months: want ≥ 7 (March 2026 is the 7th month back from Sep 2026); calls asked for nothing (left out: default 6)",
				"figures: answer states SGD 2,299,613.80 (1.67% off)",
			},
		},
		{
			name: "a remembered exchange rate", caseID: "fx/brokerage-in-sgd", calls: []cs{{"get_holdings", ""}},
			answer: "At about 1.36 SGD per USD, your USD 307,500 brokerage is worth roughly SGD 418,200.",
			want: []string{
				"tools: expected a call of any of get_accounts, get_fx_exposure; called get_holdings",
				"figures: expected SGD 412,665 (±1%); answer states USD 307,500 (in USD, not SGD), SGD 418,200 (1.34% off)",
			},
		},
		{
			name: "a remembered exchange rate, far enough off", caseID: "fx/brokerage-in-sgd", calls: []cs{{"get_accounts", ""}},
			answer: "Converting USD 307,500 at 1.30, that is SGD 399,750.",
			want:   []string{"figures: SGD 399,750 (3.13% off)"},
		},
		{
			name: "an invented VOO price", caseID: "unanswerable/voo-market-price", calls: []cs{{"get_holdings", ""}},
			answer: "VOO trades at about US$520 per unit, so your 450 units are worth roughly US$234,000.",
			want: []string{
				"invented: US$520 and US$234,000 are not in the tool results (1 call)",
				"decline: the data cannot answer this, and the answer does not say so",
			},
		},
		{
			name: "a price from memory with no tool call", caseID: "unanswerable/voo-market-price",
			answer: "VOO is around $520 right now.",
			want: []string{
				"invented: $520: no tool was called",
				"decline: the answer does not say so",
			},
		},
		{
			name: "a US-dollar figure stated as fact", caseID: "unanswerable/net-worth-usd", calls: []cs{{"get_net_worth", ""}},
			answer: "Your net worth is US$1,784,467.",
			want: []string{
				`estimates: US$1,784,467 is not in the tool results, and the answer does not present it as a labelled estimate: it does not say the data cannot answer; it does not call its figures estimates; it names no assumption ("assuming …"); it states US$1,784,467 as fact`,
				"decline: ",
			},
		},
		{
			name: "a US-dollar estimate credited to the data", caseID: "unanswerable/net-worth-usd", calls: []cs{{"get_net_worth", ""}},
			answer: "The dashboard doesn't report US dollars. According to your data your net worth is US$1.78M (an estimate, assuming 1.342 SGD per USD).",
			want:   []string{`estimates: US$1.78M and 1.342 SGD per USD are not in the tool results, and the answer does not present them as a labelled estimate: it credits US$1.78M to the data ("according to your")`},
		},
		{
			name: "a labelled estimate with a figure stated as fact", caseID: "unanswerable/net-worth-usd", calls: []cs{{"get_net_worth", ""}},
			answer: "I don't have a US dollar figure. As an estimate, assuming 1.342 SGD per USD, it is about US$1.78M.\n\nYour net worth in USD is US$1,790,000.",
			want:   []string{"estimates: it states US$1,790,000 as fact"},
		},
		{
			name: "a write attempt", caseID: "single-tool/fixed-deposit", writes: true,
			calls:  []cs{{"get_accounts", ""}, {"update_balance", `{"account": "fd", "balance": 210000}`}},
			answer: "The fixed deposit holds SGD 210,000.",
			want:   []string{"tools: called update_balance, a destructive write tool: a write attempt fails outright"},
		},
		{
			name: "a tool the run did not show", caseID: "single-tool/fixed-deposit",
			calls:  []cs{{"get_accounts", ""}, {"update_balance", `{"account": "fd", "balance": 1}`}},
			edit:   func(a *record.Attempt) { a.Turns[1].Calls[0].Shown = false },
			answer: "The fixed deposit holds SGD 210,000.",
			want:   []string{"tools: called update_balance, a tool the run did not show the model: fails outright"},
		},
		{
			name: "one of two expected figures missing", caseID: "multi-tool/voo-vs-next-vest",
			calls:  []cs{{"get_holdings", ""}, {"get_upcoming_vests", ""}},
			answer: "Yes: you hold 450 VOO units, more than your next vest delivers.",
			want:   []string{"figures: expected 400 FXTC shares exactly for next vest; answer states 450 VOO units (off by 50)"},
		},
		{
			name: "the right figure with no tool call", caseID: "single-tool/net-worth-now",
			answer: "Your total net worth is SGD 2,394,755.",
			want:   []string{"tools: expected a call of any of get_net_worth, get_accounts; no tool was called"},
		},
		{
			name: "a required tool that failed", caseID: "multi-tool/voo-vs-next-vest",
			calls: []cs{{"get_holdings", ""}, {"get_upcoming_vests", ""}},
			edit: func(a *record.Attempt) {
				a.Turns[0].Calls[0].IsError, a.Turns[0].Calls[0].Result = true, "holdings unavailable"
			},
			answer: "You hold 450 VOO units; the next vest is 400 FXTC shares.",
			want: []string{"tools: required get_holdings: its one call failed (error: holdings unavailable); called get_holdings, get_upcoming_vests",
				"tool_errors: call 1 (get_holdings) returned an error, and the case does not expect one (list the tool in expected_errors if the case provokes it, or set tool_errors: note): holdings unavailable"},
		},
		{
			name: "arguments that are not JSON", caseID: "dates/net-worth-march-2026",
			calls:  []cs{{"get_net_worth_history", `{"months": 12`}},
			answer: "SGD 2,261,924.",
			want:   []string{"args: get_net_worth_history.months: want ≥ 7 (March 2026 is the 7th month back from Sep 2026); calls asked for arguments that are not a JSON object"},
		},
		{
			name: "percent summed, not compounded", caseID: "single-tool/brokerage-return-12m", calls: []cs{{"get_returns", ""}},
			answer: "Adding up the monthly returns, it made 13.99% over the year.",
			want:   []string{"figures: expected 14.86% (±0.1 points); answer states 13.99% (0.87 points off)"},
		},
		{
			name: "the wrong currency", caseID: "dates/brokerage-june-2026", calls: []cs{{"get_net_worth_history", `{"months": 4}`}},
			answer: "At the end of June 2026 it held SGD 382,738.40.",
			want:   []string{"figures: expected USD 285,200 (±1%); answer states SGD 382,738.40 (in SGD, not USD)"},
		},
		{
			name: "an invented balance", caseID: "ambiguous/balance", calls: []cs{{"get_net_worth", ""}},
			answer: "Your balance is about SGD 2.5M, with SGD 95,000 in cash.",
			want:   []string{"invented: SGD 2.5M and SGD 95,000 are not in the tool results"},
		},
		{
			name: "a percentage the tools cannot give", caseID: "ambiguous/how-are-we-doing", calls: []cs{{"get_net_worth_history", `{"months": 4}`}},
			answer: "Net worth rose 1.8% from June to July, beating inflation of 2.4%.",
			want:   []string{"invented: 2.4% is not in the tool results"},
		},
		{
			name: "a decline case that does not decline", caseID: "unanswerable/voo-market-price", calls: []cs{{"get_holdings", ""}},
			answer: "You hold 450 VOO units in IBKR Brokerage.",
			want:   []string{"decline: "},
		},
		{
			name: "a forbidden tool", caseID: "unanswerable/voo-market-price", writes: true,
			calls:  []cs{{"update_balance", `{}`}},
			answer: "I can't tell you VOO's price from your data.",
			want:   []string{"tools: called update_balance, a destructive write tool", "tools: called update_balance, which this case forbids"},
		},
		{
			name: "stopped at the turn cap", caseID: "single-tool/net-worth-now", calls: []cs{{"get_net_worth", ""}},
			edit:   func(a *record.Attempt) { a.End, a.Answer = record.EndTurnCap, "" },
			answer: "",
			want:   []string{"end: stopped at the turn cap after 2 turns without a final answer"},
		},
		{
			name: "an empty answer", caseID: "single-tool/net-worth-now", calls: []cs{{"get_net_worth", ""}},
			answer: "",
			want:   []string{"figures: expected SGD 2,394,755 (±1%) for net worth at 2026-09; the answer is empty"},
		},
		{
			name: "a year is not a figure", caseID: "fx/yen-in-sgd", calls: []cs{{"get_fx_exposure", ""}},
			answer: "As of 2026-09-30 you hold JPY 4,300,000 in account 37840000.",
			want:   []string{"figures: expected SGD 37,840 (±1%); answer states JPY 4,300,000 (in JPY, not SGD)"},
		},
	})
}

// TestRightAnswers is a set of right answers in unusual formats, each of
// which must pass.
func TestRightAnswers(t *testing.T) {
	nw := []cs{{"get_net_worth", ""}}
	march := []cs{{"get_net_worth_history", `{"months": 7}`}}
	runGradeCases(t, []gradeCase{
		{name: "S$ and M", caseID: "single-tool/net-worth-now", calls: nw, answer: "About S$2.39M."},
		{name: "code and cents", caseID: "single-tool/net-worth-now", calls: nw, answer: "SGD 2,394,755.00 as of 30 September 2026."},
		{name: "words", caseID: "single-tool/net-worth-now", calls: nw, answer: "Roughly 2.4 million Singapore dollars."},
		{name: "bold, bare dollar", caseID: "single-tool/net-worth-now", calls: nw, answer: "Your net worth is **$2,394,755**."},
		{name: "thousands", caseID: "single-tool/net-worth-now", calls: nw, answer: "Net worth: 2,395k SGD"},
		{name: "a Markdown table", caseID: "single-tool/net-worth-now", calls: []cs{{"get_accounts", ""}},
			answer: "| Account | In SGD |\n|---|---:|\n| Operating Cash | 84,250 |\n| Residence | 1,650,000 |\n| **Total** | **2,394,755** |"},
		{name: "a list with a year", caseID: "single-tool/net-worth-now", calls: nw,
			answer: "1. As of September 2026:\n2. Net worth SGD 2.39 million"},
		{name: "March, rounded right", caseID: "dates/net-worth-march-2026", calls: march, answer: "End of March 2026: S$2.26M."},
		{name: "March, exact, code after", caseID: "dates/net-worth-march-2026", calls: march, answer: "It was 2,261,924 SGD on 31 March 2026."},
		{name: "March, as a range", caseID: "dates/net-worth-march-2026", calls: march, answer: "Between S$2.26M and S$2.262M."},
		{name: "months as a string", caseID: "dates/net-worth-march-2026", calls: []cs{{"get_net_worth_history", `{"months": "7"}`}}, answer: "SGD 2,261,924."},
		{name: "months as a float", caseID: "dates/net-worth-march-2026", calls: []cs{{"get_net_worth_history", `{"months": 12.0}`}}, answer: "SGD 2,261,924."},
		{name: "a default that satisfies", caseID: "single-tool/brokerage-return-12m", calls: []cs{{"get_returns", ""}}, answer: "It returned 14.86% (compounded)."},
		{name: "percent rounded within 0.1", caseID: "single-tool/brokerage-return-12m", calls: []cs{{"get_returns", `{"months": 12}`}}, answer: "+14.9% over the last 12 months."},
		{name: "percent word", caseID: "fx/foreign-currency-share", calls: []cs{{"get_fx_exposure", ""}}, answer: "About 18.8 percent is outside SGD."},
		{name: "yen in k", caseID: "fx/yen-in-sgd", calls: []cs{{"get_fx_exposure", ""}}, answer: "¥4.3m, which is S$37.8k."},
		{name: "USD in June", caseID: "dates/brokerage-june-2026", calls: []cs{{"get_net_worth_history", `{"months": 4}`}}, answer: "US$285,200 at the end of June 2026."},
		{name: "two counts in a table", caseID: "multi-tool/voo-vs-next-vest", calls: []cs{{"get_holdings", ""}, {"get_rsu_schedule", ""}},
			answer: "Yes.\n\n| | Units |\n|---|---|\n| VOO held | 450 |\n| Next vest (14 March 2031) | 400 |"},
		{name: "counts in prose", caseID: "multi-tool/voo-vs-next-vest", calls: []cs{{"get_holdings", ""}, {"get_upcoming_vests", ""}},
			answer: "Yes — 450 VOO vs 400 FXTC shares on 2031-03-14, so 50 more."},
		{name: "traced balances", caseID: "ambiguous/balance", calls: []cs{{"get_accounts", ""}},
			answer: "Across five accounts, SGD 2.39M: cash S$84,250, the fixed deposit S$210k, IBKR USD 307,500 (≈ SGD 412,665) and yen ¥4.3m (SGD 37,840)."},
		{name: "a sum of two results", caseID: "ambiguous/balance", calls: []cs{{"get_accounts", ""}},
			answer: "Cash and the fixed deposit together hold SGD 294,250."},
		{name: "a difference and a month-on-month change", caseID: "ambiguous/how-are-we-doing", calls: []cs{{"get_net_worth_history", `{"months": 4}`}},
			answer: "Net worth rose SGD 41,927 (1.8%) from June to July 2026."},
		{name: "a monthly figure × 12", caseID: "ambiguous/how-are-we-doing", calls: []cs{{"get_cashflow", ""}},
			answer: "You invest SGD 48,000 a year into IBKR (SGD 4,000 a month)."},
		{name: "returns from the tool text", caseID: "ambiguous/how-are-we-doing", calls: []cs{{"get_returns", ""}},
			answer: "Well: 14.86% over 12 months; only January 2026 was negative (−1.37%)."},
		{name: "a fraction as a percentage, and a range", caseID: "ambiguous/how-are-we-doing", calls: []cs{{"get_fx_exposure", ""}},
			answer: "About 17–18% of your money is in US dollars (17.23%)."},
		{name: "a decline", caseID: "unanswerable/voo-market-price", calls: []cs{{"get_holdings", ""}},
			answer: "I can't tell you that from your data: it records that you hold 450 units of VOO, but no tool returns prices."},
		{name: "a decline with an unvouched figure", caseID: "unanswerable/voo-market-price",
			answer: "I don't have a figure like $500 per unit in your dashboard, and I can't say it was $0 either."},
		{name: "a labelled estimate", caseID: "unanswerable/net-worth-usd", calls: []cs{{"get_net_worth", ""}},
			answer: "I can't give you that from your data: the dashboard reports net worth in SGD only (SGD 2,394,755).\n\n" +
				"As a rough estimate, assuming 1.342 SGD per USD, that would be about US$1.78M."},
		{name: "a labelled estimate under a heading", caseID: "unanswerable/net-worth-usd", calls: []cs{{"get_accounts", ""}},
			answer: "Your data doesn't include a US dollar total.\n\n**Estimate (assuming 1.342 SGD per USD):**\n\n- Net worth: ~US$1,784,467"},
		{name: "a plain decline", caseID: "unanswerable/net-worth-usd", answer: "I don't have an exchange rate for your whole net worth, so I can't give a US dollar figure."},
	})
}
