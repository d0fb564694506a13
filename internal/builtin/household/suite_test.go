package household_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpeval/mcpeval/internal/builtin"
	"github.com/mcpeval/mcpeval/internal/builtin/household"
	"github.com/mcpeval/mcpeval/suite"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func loadHousehold(t *testing.T) (*suite.Suite, *household.Data) {
	t.Helper()
	s, err := builtin.LoadSuite("household")
	if err != nil {
		t.Fatal(err)
	}
	d, err := household.Fixture()
	if err != nil {
		t.Fatal(err)
	}
	return s, d
}

func TestHouseholdSuite(t *testing.T) {
	s, _ := loadHousehold(t)
	if s.Name != "household" || s.Target.Spec != "builtin:household" || s.Attempts != 3 || strings.TrimSpace(s.SystemPrompt) == "" {
		t.Errorf("suite settings: name %q, target %q, attempts %d, system prompt %q", s.Name, s.Target.Spec, s.Attempts, s.SystemPrompt)
	}
	if len(s.Cases) != 20 {
		t.Errorf("%d cases, want 20", len(s.Cases))
	}
	// The six groups, in the order and with the counts the methodology
	// page gives, and the conversation case (ambiguous/which-account,
	// answered after the user says which account) that came after it.
	want := []string{"single-tool 6", "dates 3", "fx 3", "multi-tool 2", "ambiguous 3", "unanswerable 3"}
	var got []string
	for _, g := range s.Groups() {
		n := 0
		for _, c := range s.Cases {
			if c.Group == g {
				n++
			}
		}
		got = append(got, fmt.Sprintf("%s %d", g, n))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("groups (-want +got):\n%s", diff)
	}
}

// TestSeedQuestions checks that the questions the methodology page quotes
// are in the corpus word for word, in their groups.
func TestSeedQuestions(t *testing.T) {
	s, _ := loadHousehold(t)
	want := map[string]string{
		"What's our total net worth right now?":                                    "single-tool",
		"What was our net worth at the end of March 2026?":                         "dates",
		"How much do we hold in Japanese yen, in Singapore dollars?":               "fx",
		"Do we hold more VOO units than our next RSU vest will deliver in shares?": "multi-tool",
		"What's our balance?":                     "ambiguous",
		"What's the current market price of VOO?": "unanswerable",
	}
	for prompt, group := range want {
		var found *suite.Case
		for _, c := range s.Cases {
			if c.Prompt == prompt {
				found = c
			}
		}
		switch {
		case found == nil:
			t.Errorf("no case asks %q", prompt)
		case found.Group != group:
			t.Errorf("%q is in group %s, want %s", prompt, found.Group, group)
		}
	}
}

func nextVest(d *household.Data) household.Vest {
	var next household.Vest
	for _, g := range d.Grants {
		for _, v := range g.Vests {
			if v.Date > d.AsOf && (next.Date == "" || v.Date < next.Date) {
				next = v
			}
		}
	}
	return next
}

func units(d *household.Data, symbol string) float64 {
	for _, a := range d.Accounts {
		for _, h := range a.Holdings {
			if h.Symbol == symbol {
				return h.Units
			}
		}
	}
	return math.NaN()
}

func netWorth(d *household.Data, month string) float64 {
	nw, err := d.NetWorth(month)
	if err != nil {
		return math.NaN()
	}
	return nw
}

func ibkr(d *household.Data, month string) float64 {
	b, ok := d.Account("ibkr").Balances[month]
	if !ok {
		return math.NaN()
	}
	return b
}

// expected recomputes each case's figures from the fixture file, in the
// order the case lists them, from the data itself and never from a tool.
// A case with no figures has no entry.
var expected = map[string]func(d *household.Data) []float64{
	"single-tool/net-worth-now": func(d *household.Data) []float64 {
		return []float64{netWorth(d, d.LatestMonth())}
	},
	"single-tool/fixed-deposit": func(d *household.Data) []float64 {
		return []float64{d.Account("fixed-deposit").Balances[d.LatestMonth()]}
	},
	"ambiguous/which-account": func(d *household.Data) []float64 {
		return []float64{d.Account("fixed-deposit").Balances[d.LatestMonth()]} // the account the user's turn names
	},
	"single-tool/bnd-units": func(d *household.Data) []float64 {
		return []float64{units(d, "BND")}
	},
	"single-tool/monthly-outgoings": func(d *household.Data) []float64 {
		out := 0.0
		for _, c := range d.Cashflow {
			if c.Direction == household.Outflow {
				out += c.Amount
			}
		}
		return []float64{out}
	},
	"single-tool/brokerage-return-12m": func(d *household.Data) []float64 {
		ms := d.Months()
		growth := 1.0
		for _, m := range ms[len(ms)-12:] {
			growth *= 1 + d.Account("ibkr").Returns[m]/100
		}
		return []float64{(growth - 1) * 100}
	},
	"single-tool/unvested-rsus": func(d *household.Data) []float64 {
		n := 0.0
		for _, g := range d.Grants {
			for _, v := range g.Vests {
				if v.Date > d.AsOf {
					n += v.Units
				}
			}
		}
		return []float64{n}
	},
	"dates/net-worth-march-2026":    func(d *household.Data) []float64 { return []float64{netWorth(d, "2026-03")} },
	"dates/net-worth-december-2025": func(d *household.Data) []float64 { return []float64{netWorth(d, "2025-12")} },
	"dates/brokerage-june-2026":     func(d *household.Data) []float64 { return []float64{ibkr(d, "2026-06")} },
	"fx/yen-in-sgd": func(d *household.Data) []float64 {
		return []float64{d.Account("yen-savings").Balances[d.LatestMonth()] * d.FX["JPY"]}
	},
	"fx/brokerage-in-sgd": func(d *household.Data) []float64 {
		return []float64{ibkr(d, d.LatestMonth()) * d.FX["USD"]}
	},
	"fx/foreign-currency-share": func(d *household.Data) []float64 {
		foreign, total := 0.0, 0.0
		for _, a := range d.Accounts {
			v := a.Balances[d.LatestMonth()]
			if a.Currency != household.Base {
				v *= d.FX[a.Currency]
				foreign += v
			}
			total += v
		}
		return []float64{foreign / total * 100}
	},
	"multi-tool/voo-vs-next-vest": func(d *household.Data) []float64 {
		return []float64{units(d, "VOO"), nextVest(d).Units}
	},
	"multi-tool/brokerage-and-contributions": func(d *household.Data) []float64 {
		into := math.NaN()
		for _, c := range d.Cashflow {
			if c.Name == "Monthly investment into IBKR" {
				into = c.Amount
			}
		}
		return []float64{ibkr(d, d.LatestMonth()), into}
	},
}

// TestFiguresFromFixture recomputes every expected figure from the fixture
// and checks the case states it.
func TestFiguresFromFixture(t *testing.T) {
	s, d := loadHousehold(t)
	for _, c := range s.Cases {
		var want []float64
		if f, ok := expected[c.ID]; ok {
			want = f(d)
		}
		var got []float64
		for _, f := range c.Figures {
			got = append(got, f.Value)
		}
		if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b float64) bool { return math.Abs(a-b) <= 1e-6 })); diff != "" {
			t.Errorf("%s: figures (-from fixture +in case):\n%s", c.ID, diff)
		}
	}
	for id := range expected {
		if s.Case(id) == nil {
			t.Errorf("figures are recomputed for %s, which the corpus has no longer", id)
		}
	}
	// The seed's figures, written out, so that a fixture edit that moves
	// them is caught here too.
	seed := map[string][]float64{
		"single-tool/net-worth-now":   {2394755},
		"dates/net-worth-march-2026":  {2261924},
		"fx/yen-in-sgd":               {37840},
		"multi-tool/voo-vs-next-vest": {450, 400},
	}
	for id, want := range seed {
		if c := s.Case(id); c == nil || len(c.Figures) != len(want) {
			t.Errorf("%s: want the seed's figures %v", id, want)
		} else {
			for i, f := range c.Figures {
				if f.Value != want[i] {
					t.Errorf("%s: figure %d is %v, the seed says %v", id, i+1, f.Value, want[i])
				}
			}
		}
	}
}

// monthQuestion is the month a dated case asks about, and the monthly series
// its figure is read from. The suite format has no field for it, so it is
// written here, by case id; TestMonthsStandApart checks that it agrees with
// the case's months argument rule.
type monthQuestion struct {
	month  string
	series func(d *household.Data, month string) float64
}

var askedMonths = map[string]monthQuestion{
	"dates/net-worth-march-2026":    {"2026-03", netWorth},
	"dates/net-worth-december-2025": {"2025-12", netWorth},
	"dates/brokerage-june-2026":     {"2026-06", ibkr},
}

// TestMonthsStandApart checks that the figure of every month a case asks
// about is further from every other month's (its calendar neighbours
// included) than the case's tolerance, so that reading the wrong month
// fails the case.
func TestMonthsStandApart(t *testing.T) {
	s, d := loadHousehold(t)
	months := d.Months()
	for _, c := range s.Cases {
		q, dated := askedMonths[c.ID]
		var rule *suite.ArgRule
		for i, a := range c.Args {
			if a.Arg == "months" && a.Tool == "get_net_worth_history" {
				rule = &c.Args[i]
			}
		}
		if !dated {
			if rule != nil {
				t.Errorf("%s asks for a month of history but askedMonths does not say which", c.ID)
			}
			continue
		}
		i := slices.Index(months, q.month)
		if i < 0 || len(c.Figures) != 1 {
			t.Errorf("%s: month %s not in the history, or not one figure", c.ID, q.month)
			continue
		}
		// The months argument must reach back exactly to the month asked.
		if need := float64(len(months) - i); rule == nil || rule.Min == nil || *rule.Min != need {
			t.Errorf("%s: want an argument rule get_net_worth_history months min %v (%s .. %s)", c.ID, need, q.month, months[len(months)-1])
		}
		tol := s.FigureTolerance(c, c.Figures[0])
		asked := q.series(d, q.month)
		for j, m := range months {
			if j == i {
				continue
			}
			if v := q.series(d, m); tol.Within(v, asked) {
				what := "month"
				if j == i-1 || j == i+1 {
					what = "calendar neighbour"
				}
				t.Errorf("%s: %s %s (%.2f) is within %s of %s (%.2f): reading it would pass", c.ID, what, m, v, tol, q.month, asked)
			}
		}
	}
}

// formatFigure writes a figure as an answer states it: money and counts
// as the server's results state them (thousands separators, cents when it
// has them), percentages to two decimals.
func formatFigure(f suite.Figure) string {
	if f.Kind == suite.Percent {
		return strconv.FormatFloat(f.Value, 'f', 2, 64) + "%"
	}
	return household.Money(f.Value)
}

// TestKeys checks each case's key: its answer states every expected figure
// (and a decline states none), and its calls satisfy the case's tool and
// argument rules, so a perfect model replaying it passes.
func TestKeys(t *testing.T) {
	s, _ := loadHousehold(t)
	tools := serverTools(t)
	for _, c := range s.Cases {
		if len(c.Key.Calls) == 0 || strings.TrimSpace(c.Key.Answer) == "" {
			t.Errorf("%s: the key needs calls and an answer", c.ID)
		}
		checkKeyAnswer(t, c)
		checkKeyTools(t, c)
		for _, r := range c.Args {
			if !keyMeetsArg(c, r, tools) {
				t.Errorf("%s: no key call meets the argument rule %s.%s", c.ID, r.Tool, r.Arg)
			}
		}
	}
}

// checkKeyAnswer checks that c's key answer states every expected figure,
// and that the answer to a question to decline plainly declines.
func checkKeyAnswer(t *testing.T, c *suite.Case) {
	t.Helper()
	for _, f := range c.Figures {
		want := formatFigure(f)
		if f.Currency != "" && (f.Kind == "" || f.Kind == suite.Money) {
			want = f.Currency + " " + want
		}
		if !strings.Contains(c.Key.Answer, want) {
			t.Errorf("%s: the key answer does not state %s (%s)", c.ID, want, f.Label)
		}
	}
	if c.Decline {
		if strings.ContainsAny(c.Key.Answer, "0123456789") {
			t.Errorf("%s: the key answer to a question to decline states a figure: %q", c.ID, c.Key.Answer)
		}
		if !strings.Contains(c.Key.Answer, "can't") {
			t.Errorf("%s: the key answer does not plainly decline: %q", c.ID, c.Key.Answer)
		}
	}
}

// checkKeyTools checks c's key calls against its required, accepted and
// forbidden tools.
func checkKeyTools(t *testing.T, c *suite.Case) {
	t.Helper()
	called := map[string]bool{}
	for _, k := range c.Key.Calls {
		called[k.Tool] = true
	}
	for _, r := range c.Tools.Required {
		if !called[r] {
			t.Errorf("%s: the key does not call required tool %s", c.ID, r)
		}
	}
	if len(c.Tools.Accepted) > 0 && !slices.ContainsFunc(c.Tools.Accepted, func(a string) bool { return called[a] }) {
		t.Errorf("%s: the key calls none of %v", c.ID, c.Tools.Accepted)
	}
	for _, f := range c.Tools.Forbidden {
		if called[f] {
			t.Errorf("%s: the key calls forbidden tool %s", c.ID, f)
		}
	}
}

// keyMeetsArg reports whether one of c's key calls meets the argument rule
// r, an argument the call leaves out taking the schema's default.
func keyMeetsArg(c *suite.Case, r suite.ArgRule, tools map[string]toolInfo) bool {
	for _, k := range c.Key.Calls {
		if k.Tool != r.Tool {
			continue
		}
		v, set := k.Args[r.Arg]
		if !set {
			v = tools[r.Tool].defaults[r.Arg]
		}
		x, isNum := toFloat(v)
		if (r.Equals == nil || fmt.Sprint(r.Equals) == fmt.Sprint(v)) &&
			(r.Min == nil || isNum && x >= *r.Min) && (r.Max == nil || isNum && x <= *r.Max) {
			return true
		}
	}
	return false
}

func toFloat(v any) (float64, bool) {
	switch v := v.(type) {
	case int:
		return float64(v), true
	case int64:
		return float64(v), true
	case uint64:
		return float64(v), true
	case float64:
		return v, true
	}
	return 0, false
}

// TestToolNames checks every tool the suite names against the tools the
// read-only household server lists.
func TestToolNames(t *testing.T) {
	s, _ := loadHousehold(t)
	var names []string
	for n := range serverTools(t) {
		names = append(names, n)
	}
	slices.Sort(names)
	if err := s.CheckTools(names); err != nil {
		t.Error(err)
	}
}

// TestPreflightPasses makes every preflight call against the builtin
// household server, as a run does, and checks the figures it expects: the
// corpus and the fixture must agree, or every run would be invalid.
func TestPreflightPasses(t *testing.T) {
	s, _ := loadHousehold(t)
	cs := session(t)
	called := map[string]bool{}
	for _, p := range s.Preflight {
		called[p.Tool] = true
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: p.Tool, Arguments: p.Args})
		if err != nil || res.IsError {
			t.Errorf("preflight %s: %v %v", p.Tool, err, res)
			continue
		}
		b, _ := json.Marshal(res.StructuredContent)
		var out any
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatal(err)
		}
		for path, want := range p.Expect {
			got, ok := lookup(out, path)
			wf, wNum := toFloat(want)
			gf, gNum := toFloat(got)
			switch {
			case !ok:
				t.Errorf("preflight %s: no %s in %s", p.Tool, path, b)
			case wNum && gNum && math.Abs(wf-gf) > 1e-9, wNum != gNum, !wNum && fmt.Sprint(want) != fmt.Sprint(got):
				t.Errorf("preflight %s: %s is %v, the suite expects %v", p.Tool, path, got, want)
			}
		}
	}
	for _, name := range household.ReadTools {
		if !called[name] {
			t.Errorf("preflight does not call %s", name)
		}
	}
}

// lookup resolves a dotted path with numeric array indexes, as the
// preflight does.
func lookup(v any, path string) (any, bool) {
	got := suite.Lookup(v, path)
	if len(got) != 1 {
		return nil, false
	}
	return got[0], true
}

func session(t *testing.T) *mcp.ClientSession {
	t.Helper()
	return household.NewSession(t, nil)
}

type toolInfo struct {
	defaults map[string]any
}

// serverTools lists the read-only household server's tools with the
// argument defaults their input schemas declare.
func serverTools(t *testing.T) map[string]toolInfo {
	t.Helper()
	res, err := session(t).ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]toolInfo{}
	for _, tool := range res.Tools {
		b, _ := json.Marshal(tool.InputSchema)
		var schema struct {
			Properties map[string]struct {
				Default any `json:"default"`
			} `json:"properties"`
		}
		if err := json.Unmarshal(b, &schema); err != nil {
			t.Fatal(err)
		}
		info := toolInfo{defaults: map[string]any{}}
		for name, p := range schema.Properties {
			if p.Default != nil {
				info.defaults[name] = p.Default
			}
		}
		tools[tool.Name] = info
	}
	return tools
}
