package grade

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/grade/figures"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

func one(t *testing.T, text string) figures.Figure {
	t.Helper()
	fs := figures.Claims(text)
	if len(fs) != 1 {
		t.Fatalf("%q: %d claims, want 1", text, len(fs))
	}
	return fs[0]
}

func tol(t *testing.T, s string) suite.Tolerance {
	t.Helper()
	v, err := suite.ParseTolerance(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestMatch pins down the tolerance and rounding rule.
func TestMatch(t *testing.T) {
	money := func(v float64, cur string) suite.Figure {
		return suite.Figure{Value: v, Kind: suite.Money, Currency: cur}
	}
	pct := suite.Figure{Value: 17.24, Kind: suite.Percent}
	tests := []struct {
		text string
		want suite.Figure
		tol  string
		ok   bool
	}{
		{"S$2.39M", money(2394755, "SGD"), "1%", true},       // 0.2% off
		{"2.4M", money(2394755, "SGD"), "1%", true},          // 0.2% off
		{"$2,394,755", money(2394755, "SGD"), "1%", true},    // a bare $ stands for SGD
		{"2M", money(2394755, "SGD"), "1%", false},           // 16% off; one digit is not forgiven
		{"US$2,394,755", money(2394755, "SGD"), "1%", false}, // another currency
		{"¥2,394,755", money(2394755, "SGD"), "1%", false},
		{"S$2.26M", money(2261924, "SGD"), "0.25%", true},  // 0.08% off
		{"S$2.27M", money(2261924, "SGD"), "0.25%", false}, // December, 0.36% off
		{"S$2.3M", money(2261924, "SGD"), "0.25%", false},  // rounds right, but two digits cannot tell the months apart
		{"2,261,924.4", money(2261924, "SGD"), "0", false}, // exact tolerance, more digits than the truth
		{"2,261,924", money(2261924.4, "SGD"), "0", true},  // rounded to the written precision
		{"2.262M", money(2261924.4, "SGD"), "0", true},     // four digits, rounded right
		{"2.263M", money(2261924.4, "SGD"), "0", false},    // four digits, rounded wrong
		{"-$1,200", money(1200, ""), "1%", false},          // a stated sign is kept
		{"(1,200)", money(1200, ""), "1%", true},           // parentheses may annotate
		{"1,200", money(-1200, ""), "1%", true},            // "a loss of 1,200"
		{"17.2%", pct, "0.1", true},                        // 0.04 points
		{"17.3%", pct, "0.1", true},                        // 0.06 points
		{"17%", pct, "0.1", false},                         // 0.24 points; two digits not forgiven
		{"17.24", pct, "0.1", false},                       // not written as a percentage
		{"-17.24%", pct, "0.1", false},                     // a stated sign is kept
		{"450 units", suite.Figure{Value: 450, Kind: suite.Count}, "", true},
		{"VOO 450", suite.Figure{Value: 450, Kind: suite.Count}, "", true},
		{"449.6 units", suite.Figure{Value: 450, Kind: suite.Count}, "", false},
		{"$450", suite.Figure{Value: 450, Kind: suite.Count}, "", false},
		{"0.45k", suite.Figure{Value: 450, Kind: suite.Count}, "", false},
	}
	for _, tt := range tests {
		f := one(t, tt.text)
		tl := suite.Tolerance{Set: true}
		if tt.tol != "" {
			tl = tol(t, tt.tol)
		}
		if got := Match(f, tt.want, tl); got != tt.ok {
			t.Errorf("Match(%q, %v %s, %s) = %v, want %v", tt.text, tt.want.Value, tt.want.Currency, tt.tol, got, tt.ok)
		}
	}
}

func TestGroupDigits(t *testing.T) {
	for v, want := range map[float64]string{2394755: "2,394,755", 2271631.6: "2,271,631.6", 17.24: "17.24", -1200: "-1,200", 0: "0", 999: "999", 0.0088: "0.0088"} {
		if got := groupDigits(v); got != want {
			t.Errorf("groupDigits(%v) = %q, want %q", v, got, want)
		}
	}
}

// tracerFor is a tracer over one call's result.
func tracerFor(result string, structured string) *Tracer {
	a := &record.Attempt{Turns: []record.Turn{{Calls: []record.Call{{Name: "t", Shown: true, Result: result, Structured: json.RawMessage(structured)}}}}}
	return NewTracer(a)
}

func TestTracer(t *testing.T) {
	tr := tracerFor("Net worth SGD 2,394,755; cash SGD 84,250; deposit SGD 210,000; rate 0.172; as of 2026-09-30.",
		`{"history":[{"month":"2026-07","v":2365805.4},{"month":"2026-06","v":2323878.4},{"month":"2026-08","v":2373100}],
		  "lines":[{"amount":4000},{"amount":5350}],
		  "by_month":{"2026-01":100,"2026-02":110}}`)
	tests := []struct {
		text string
		ok   bool
	}{
		{"SGD 2,394,755", true},
		{"S$2.39M", true},           // rounded as people round
		{"2.4 million", true},       // ±50k
		{"S$2.7M", false},           // no figure, sum or difference near
		{"2.5M", true},              // 2,394,755 + 84,250, or 210,000 × 12
		{"SGD 1,000,000", true},     // 84,250 × 12 = 1,011,000, within 50k
		{"2M", false},               // one digit does not trace to everything in 1.5M–2.5M
		{"SGD 294,250", true},       // a sum of two
		{"SGD 2,310,505", true},     // a difference of two
		{"SGD 41,927", true},        // month-on-month change, absolute (the series is sorted by month)
		{"1.8%", true},              // month-on-month change in percent, June to July
		{"0.31%", true},             // July to August
		{"10%", true},               // an object keyed by month
		{"3.05%", false},            // June to September is not month-on-month
		{"SGD 48,000", true},        // 4,000 a month × 12
		{"SGD 9,350", true},         // the total of a returned list (also a sum of two)
		{"17.2%", true},             // a fraction as a percentage
		{"SGD 3,000,000", false},    // invented
		{"$0", false},               // zero is not a difference of a number with itself
		{"2,026", false},            // the date's year is not a figure returned
		{"SGD 2,394,755.50", false}, // more precision than the data gives
	}
	for _, tt := range tests {
		if got := tr.Traces(one(t, tt.text)); got != tt.ok {
			t.Errorf("Traces(%q) = %v, want %v", tt.text, got, tt.ok)
		}
	}
	if !tr.Within(2.3e6, 2.4e6) || tr.Within(3e6, 4e6) {
		t.Error("Within: want a returned figure within 2.3M–2.4M and none in 3M–4M")
	}
}

func TestTracerPrompt(t *testing.T) {
	a := &record.Attempt{Prompt: "If we save SGD 1,500 a month, how much is that a year?"}
	tr := NewTracer(a)
	for text, ok := range map[string]bool{"SGD 1,500": true, "SGD 18,000": true, "SGD 20,000": false} {
		if got := tr.Traces(one(t, text)); got != ok {
			t.Errorf("Traces(%q) = %v, want %v", text, got, ok)
		}
	}
}

func TestClaimChecked(t *testing.T) {
	for text, want := range map[string]bool{
		"$5": true, "5%": true, "520": true, "1.35": true, "37.8k": true,
		"12 months": false, "450 units": false, "5": false, "99": false,
	} {
		if got := claimChecked(one(t, text)); got != want {
			t.Errorf("claimChecked(%q) = %v, want %v", text, got, want)
		}
	}
}

func TestEqual(t *testing.T) {
	tests := []struct {
		got, want any
		ok        bool
	}{
		{json.Number("7"), 7, true},
		{json.Number("7.0"), 7, true},
		{"7", 7, true},
		{json.Number("7"), "7", true},
		{json.Number("7"), 7.5, false},
		{"2026-03", "2026-03", true},
		{" SGD ", "sgd", true},
		{"true", true, true},
		{true, "false", false},
		{[]any{json.Number("1"), "a"}, []any{1, "A"}, true},
		{map[string]any{"m": json.Number("3")}, map[string]any{"m": 3}, true},
		{nil, 0, false},
	}
	for _, tt := range tests {
		if got := Equal(tt.got, tt.want); got != tt.ok {
			t.Errorf("Equal(%#v, %#v) = %v, want %v", tt.got, tt.want, got, tt.ok)
		}
	}
}

func TestArgs(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	h := &record.Header{Tools: []record.Tool{
		{Name: "hist", ReadOnly: true, InputSchema: json.RawMessage(`{"type":"object","properties":{"months":{"type":"integer","default":6},"currency":{"type":"string","default":"SGD"}}}`)},
		{Name: "plain", ReadOnly: true, InputSchema: json.RawMessage(`{"type":"object","properties":{"months":{"type":"integer"}}}`)},
	}}
	call := func(tool, args string) record.Call {
		return record.Call{Name: tool, Args: json.RawMessage(args), Shown: true}
	}
	tests := []struct {
		name  string
		rule  suite.ArgRule
		calls []record.Call
		want  string // "" to pass, else text the reason holds
	}{
		{"min met", suite.ArgRule{Tool: "hist", Arg: "months", Min: f(7)}, []record.Call{call("hist", `{"months":7}`)}, ""},
		{"min met by a later call", suite.ArgRule{Tool: "hist", Arg: "months", Min: f(7)}, []record.Call{call("hist", `{"months":3}`), call("hist", `{"months":12}`)}, ""},
		{"min missed", suite.ArgRule{Tool: "hist", Arg: "months", Min: f(7), Why: "March"}, []record.Call{call("hist", `{"months":6}`)}, "hist.months: want ≥ 7 (March); calls asked for 6"},
		{"default misses min", suite.ArgRule{Tool: "hist", Arg: "months", Min: f(7)}, []record.Call{call("hist", `{}`)}, "left out: default 6"},
		{"default meets max", suite.ArgRule{Tool: "hist", Arg: "months", Max: f(6)}, []record.Call{call("hist", `null`)}, ""},
		{"default meets equals", suite.ArgRule{Tool: "hist", Arg: "currency", Equals: "sgd"}, []record.Call{call("hist", ``)}, ""},
		{"no default", suite.ArgRule{Tool: "plain", Arg: "months", Min: f(1)}, []record.Call{call("plain", `{}`)}, "left out, and the schema declares no default"},
		{"between", suite.ArgRule{Tool: "hist", Arg: "months", Min: f(7), Max: f(12)}, []record.Call{call("hist", `{"months":13}`)}, "want between 7 and 12; calls asked for 13"},
		{"equals by value", suite.ArgRule{Tool: "hist", Arg: "months", Equals: 7}, []record.Call{call("hist", `{"months":"7"}`)}, ""},
		{"equals missed", suite.ArgRule{Tool: "hist", Arg: "months", Equals: 7}, []record.Call{call("hist", `{"months":8}`)}, "want = 7"},
		{"a string is not a number", suite.ArgRule{Tool: "hist", Arg: "months", Min: f(7)}, []record.Call{call("hist", `{"months":"twelve"}`)}, `calls asked for "twelve"`},
		{"invalid JSON", suite.ArgRule{Tool: "hist", Arg: "months", Min: f(1)}, []record.Call{call("hist", `{"months":`)}, "not a JSON object"},
		{"not an object", suite.ArgRule{Tool: "hist", Arg: "months", Min: f(1)}, []record.Call{call("hist", `[7]`)}, "not a JSON object"},
		{"never called", suite.ArgRule{Tool: "hist", Arg: "months", Min: f(7)}, []record.Call{call("plain", `{"months":9}`)}, "hist was never called"},
	}
	for _, tt := range tests {
		rs := checkArgs(&suite.Case{Args: []suite.ArgRule{tt.rule}}, h, tt.calls)
		switch {
		case tt.want == "" && len(rs) > 0:
			t.Errorf("%s: want pass, got%s", tt.name, reasonsText(rs))
		case tt.want != "" && (len(rs) != 1 || rs[0].Check != CheckArgs || !strings.Contains(rs[0].Message, tt.want)):
			t.Errorf("%s: want an args reason with %q, got%s", tt.name, tt.want, reasonsText(rs))
		}
	}
}

func TestTools(t *testing.T) {
	h := &record.Header{Tools: []record.Tool{
		{Name: "a", ReadOnly: true}, {Name: "b", ReadOnly: true}, {Name: "c", ReadOnly: true}, {Name: "w"},
	}}
	ok := func(name string) record.Call {
		return record.Call{Name: name, Shown: true, Args: json.RawMessage(`{}`)}
	}
	rejected := ok("a")
	rejected.Rejected = "invalid params: months must be an integer"
	unshown := ok("x")
	unshown.Shown = false
	tests := []struct {
		name  string
		rules suite.ToolRules
		calls []record.Call
		want  []string
	}{
		{"required met", suite.ToolRules{Required: []string{"a", "b"}}, []record.Call{ok("b"), ok("a")}, nil},
		{"required missing", suite.ToolRules{Required: []string{"a", "b"}}, []record.Call{ok("a")}, []string{"required b: not called; called a"}},
		{"required rejected", suite.ToolRules{Required: []string{"a"}}, []record.Call{rejected, rejected}, []string{"required a: all 2 calls failed (last rejected: invalid params: months must be an integer); called a (2 calls)"}},
		{"accepted met", suite.ToolRules{Accepted: []string{"a", "b"}}, []record.Call{ok("c"), ok("b")}, nil},
		{"accepted missed", suite.ToolRules{Accepted: []string{"a", "b"}}, []record.Call{ok("c")}, []string{"expected a call of any of a, b; called c"}},
		{"accepted only rejected", suite.ToolRules{Accepted: []string{"a"}}, []record.Call{rejected}, []string{"expected a call of a; called a (a its one call failed (rejected: invalid params"}},
		{"forbidden", suite.ToolRules{Forbidden: []string{"c"}}, []record.Call{ok("c")}, []string{"called c, which this case forbids"}},
		{"forbidden even rejected", suite.ToolRules{Forbidden: []string{"a"}}, []record.Call{rejected}, []string{"called a, which this case forbids"}},
		{"write", suite.ToolRules{}, []record.Call{ok("w"), ok("w")}, []string{"called w (2 calls), a write tool (not read-only): a write attempt fails outright"}},
		{"not shown", suite.ToolRules{}, []record.Call{unshown}, []string{"called x, a tool the run did not show the model"}},
		{"not in the header", suite.ToolRules{}, []record.Call{ok("y")}, []string{"called y, a tool the run did not show the model"}},
		{"no rules, no calls", suite.ToolRules{}, nil, nil},
	}
	for _, tt := range tests {
		rs := checkTools(&suite.Case{Tools: tt.rules}, h, tt.calls)
		if len(rs) != len(tt.want) {
			t.Errorf("%s: got%s\nwant %q", tt.name, reasonsText(rs), tt.want)
			continue
		}
		for i, w := range tt.want {
			if rs[i].Check != CheckTools || !strings.Contains(rs[i].Message, w) {
				t.Errorf("%s: reason %d = %s, want %q", tt.name, i, rs[i], w)
			}
		}
	}
}

func TestToolCallCase(t *testing.T) {
	h := &record.Header{Tools: []record.Tool{
		{Name: "hist", ReadOnly: true, InputSchema: json.RawMessage(`{"properties":{"months":{"default":6}}}`)},
		{Name: "nw", ReadOnly: true},
	}}
	c := &suite.Case{ID: "tc/hist", Mode: suite.ModeToolCall, ExpectTools: []string{"hist"}, ExpectArgs: map[string]any{"months": 7}}
	try := func(calls ...record.Call) AttemptGrade {
		a := &record.Attempt{Case: c.ID, N: 1, End: record.EndToolCall, Turns: []record.Turn{{Calls: calls}}}
		return Attempt(nil, c, h, a)
	}
	call := func(name, args string) record.Call {
		return record.Call{Name: name, Args: json.RawMessage(args), Shown: true, NotSent: true}
	}
	if g := try(call("hist", `{"months": 7.0}`), call("nw", `{}`)); g.Outcome != Pass {
		t.Errorf("right first call: %s%s", g.Outcome, reasonsText(g.Reasons))
	}
	if g := try(call("nw", `{}`), call("hist", `{"months": 7}`)); g.Outcome != Fail || !strings.Contains(g.Reasons[0].Message, "the first call was nw") {
		t.Errorf("wrong first tool: %s%s", g.Outcome, reasonsText(g.Reasons))
	}
	if g := try(call("hist", `{}`)); g.Outcome != Fail || !strings.Contains(g.Reasons[0].Message, "months: want 7, got nothing (left out: default 6)") {
		t.Errorf("default months: %s%s", g.Outcome, reasonsText(g.Reasons))
	}
	if g := try(); g.Outcome != Fail || !strings.Contains(g.Reasons[0].Message, "the model made none") {
		t.Errorf("no call: %s%s", g.Outcome, reasonsText(g.Reasons))
	}
}

func TestDeclines(t *testing.T) {
	for _, s := range []string{
		"I don't have access to market prices.",
		"I can’t tell from your data.",
		"That is not available in the dashboard.",
		"There's no tool for prices.",
		"Your data doesn't include tax information.",
		"The dashboard **does not** report US dollars.",
		"I can't work that out from your data.",
	} {
		if !Declines(s) {
			t.Errorf("Declines(%q) = false, want true", s)
		}
	}
	for _, s := range []string{
		"VOO is $520.",
		"Your net worth is SGD 2,394,755.",
		"I estimate about US$1.78M.",
	} {
		if Declines(s) {
			t.Errorf("Declines(%q) = true, want false", s)
		}
	}
}

func TestAttemptOutcomes(t *testing.T) {
	c := &suite.Case{ID: "x/y", Figures: []suite.Figure{{Value: 1000, Kind: suite.Money}}}
	h := &record.Header{Preflight: record.Preflight{Valid: true}}
	g := Attempt(nil, c, h, &record.Attempt{Case: "x/y", N: 2, End: record.EndError, Error: &record.Error{Kind: record.KindTimeout, Message: "model call timed out after 2m"}})
	if g.Outcome != Error || g.ErrorKind != "timeout" || len(g.Reasons) != 1 || g.Reasons[0].String() != "error: timeout: model call timed out after 2m" {
		t.Errorf("error attempt graded %+v", g)
	}
	g = Attempt(nil, c, h, &record.Attempt{Case: "x/y", N: 3, End: record.EndError})
	if g.Outcome != Error || g.ErrorKind != "unknown" {
		t.Errorf("error attempt without an error graded %+v", g)
	}
	g = Attempt(nil, c, nil, &record.Attempt{Case: "x/y", N: 1, End: record.EndAnswered, Answer: "It is $1,000."})
	if g.Outcome != Pass || g.Reasons == nil {
		t.Errorf("pass graded %+v (reasons must be an empty list, not null)", g)
	}
}

func TestNumberHelpers(t *testing.T) {
	if _, ok := number(json.Number("NaN")); ok {
		t.Error("number(NaN) ok")
	}
	if v, ok := number(int64(7)); !ok || v != 7 {
		t.Error("number(int64(7))")
	}
	if off(2271631.6, suite.Figure{Value: 2261924}) != "0.43% off" {
		t.Errorf("off = %q", off(2271631.6, suite.Figure{Value: 2261924}))
	}
	if math.IsNaN(traceTol(one(t, "$0"))) {
		t.Error("traceTol($0) is NaN")
	}
}

// TestTracerReadsWhatWasShown: a figure is traced against a result as the
// model was shown it; a number an output overlay took out of the result
// is not there to trace, though the server returned it.
func TestTracerReadsWhatWasShown(t *testing.T) {
	a := &record.Attempt{Turns: []record.Turn{{Calls: []record.Call{{Name: "t", Shown: true,
		Result: `{"as_of":"2026-09-30"}`, Structured: json.RawMessage(`{"as_of":"2026-09-30"}`),
		Overlaid: true, ServerResult: "Net worth SGD 2,394,755.", ServerStructured: json.RawMessage(`{"as_of":"2026-09-30","net_worth_sgd":2394755}`)}}}}}
	if NewTracer(a).Traces(one(t, "SGD 2,394,755")) {
		t.Error("a figure the model was never shown traces to the server's result")
	}
}
