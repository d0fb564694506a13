package household

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/mcpeval/mcpeval/internal/builtin/mcpserver"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Options configures a household server. The zero value serves the
// read-only user.
type Options struct {
	// Writable adds the write tools (update_balance, add_cashflow). When
	// false they are not registered at all, so a client cannot list them.
	Writable bool
}

// ReadTools are the names of the server's read tools, in the order it
// registers them.
var ReadTools = []string{
	"get_net_worth",
	"get_accounts",
	"get_net_worth_history",
	"get_fx_exposure",
	"get_holdings",
	"get_upcoming_vests",
	"get_rsu_schedule",
	"get_cashflow",
	"get_returns",
}

// WriteTools are the names of the tools registered only when
// Options.Writable is set.
var WriteTools = []string{"update_balance", "add_cashflow"}

// DefaultHistoryMonths is how many months get_net_worth_history returns when
// months is left out; its input schema declares it as the default.
const DefaultHistoryMonths = 6

// NewServer returns an MCP server, named "household", serving a copy of d:
// writes (when opts.Writable) change only that copy. A nil opts is the zero
// Options. d is expected to be as Fixture or LoadFixture return it, checked.
func NewServer(d *Data, opts *Options) *mcp.Server {
	if opts == nil {
		opts = &Options{}
	}
	h := &state{d: d.clone()}
	s := mcp.NewServer(&mcp.Implementation{Name: "household", Title: "Household finances", Version: "1.0.0"}, &mcp.ServerOptions{
		Instructions: fmt.Sprintf("Tools over the finances of the %s. Figures are month-end, as of %s, and reported in SGD unless a field names another currency. Each result carries its figures as structured data and as text.",
			d.Household, d.AsOf),
	})
	s.AddReceivingMiddleware(mcpserver.NullArguments)
	ms := d.Months()
	first, latest := monthsBack(ms, len(ms)), d.LatestMonth()

	addRead(s, h, "get_net_worth", "Net worth",
		fmt.Sprintf("Get the household's total net worth now: every account's month-end balance as of %s (the latest data), converted into SGD and summed. One SGD figure; use get_accounts for the accounts behind it and get_net_worth_history for earlier months.", d.AsOf),
		nil, (*state).netWorth)
	addRead(s, h, "get_accounts", "Accounts",
		fmt.Sprintf("List every account (cash, deposit, brokerage, savings, property) with its owners, institution, currency and month-end balance as of %s, both in its own currency and converted into SGD at the rate shown, plus the SGD total of all of them.", d.AsOf),
		nil, (*state).accounts)
	addRead(s, h, "get_net_worth_history", "Net worth history",
		fmt.Sprintf("Get month-end net worth in SGD for the latest `months` months, oldest first, ending with %s; each month also lists every account's balance in its own currency and in SGD. months defaults to %d (%s onwards), so an earlier month needs a larger value: count the months from the one wanted up to %s inclusive. History starts at %s, so at most %d months exist; asking for more returns them all.",
			latest, DefaultHistoryMonths, monthsBack(ms, DefaultHistoryMonths), latest, first, len(ms)),
		monthsSchema("How many months to return, ending with the latest month (%s); %d when left out.", latest, DefaultHistoryMonths), (*state).history)
	addRead(s, h, "get_fx_exposure", "Currency exposure",
		fmt.Sprintf("Break the household's holdings down by currency as of %s: for each currency the total balance held in it, the exchange rate used (SGD per unit), its value in SGD and its share of net worth, plus the share held outside SGD. The rates are the ones every SGD figure of this server is computed with.", d.AsOf),
		nil, (*state).fxExposure)
	addRead(s, h, "get_holdings", "Brokerage holdings",
		fmt.Sprintf("List the securities held in the brokerage account(s) as of %s: symbol, fund name and number of units. Units only: the server has no market prices or per-security values; the account's total balance (get_accounts) is its only valuation.", d.AsOf),
		nil, (*state).holdings)
	addRead(s, h, "get_upcoming_vests", "Upcoming RSU vests",
		fmt.Sprintf("List restricted stock unit (RSU) vests still to come after %s, soonest first: date, grant, owner, symbol and number of shares each delivers, with the soonest as next_vest. Share counts only, no values.", d.AsOf),
		nil, (*state).upcomingVests)
	addRead(s, h, "get_rsu_schedule", "RSU schedule",
		fmt.Sprintf("Get every RSU grant with its whole vesting schedule: grant date, owner, symbol, total units, units vested and unvested as of %s, and each vest's date and units.", d.AsOf),
		nil, (*state).rsuSchedule)
	addRead(s, h, "get_cashflow", "Recurring cashflow",
		"List the household's recurring monthly cashflow lines in SGD (salaries, mortgage, spending, investing and so on), each an inflow or an outflow with its owner and account, plus the monthly totals in, out and net. Salaries are take-home, after tax and CPF. Every line recurs every month at the same amount.",
		nil, (*state).cashflow)
	addRead(s, h, "get_returns", "Brokerage returns",
		fmt.Sprintf("Get the brokerage account's monthly time-weighted returns in percent for the latest `months` months, ending with %s, and the compounded return over those months. These are the broker's figures: market movement only, so deposits into the account do not count as return. months defaults to %d, the whole history (%s onwards).",
			latest, len(ms), first),
		monthsSchema("How many months of returns, ending with the latest month (%s); %d (all of them) when left out.", latest, len(ms)), (*state).returns)

	if opts.Writable {
		mcp.AddTool(s, &mcp.Tool{
			Name:        "update_balance",
			Title:       "Update a balance",
			Description: fmt.Sprintf("Replace an account's balance for the latest month (%s), in the account's own currency. Every figure derived from it (net worth, history, currency exposure) changes with it.", latest),
			Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(true), IdempotentHint: true, OpenWorldHint: ptr(false)},
		}, h.updateBalance)
		mcp.AddTool(s, &mcp.Tool{
			Name:        "add_cashflow",
			Title:       "Add a cashflow line",
			Description: "Add a recurring monthly cashflow line, in SGD, as an inflow or an outflow. Existing lines are left as they are.",
			Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(false), OpenWorldHint: ptr(false)},
		}, h.addCashflow)
	}
	return s
}

// state is one server's copy of the household.
type state struct {
	mu sync.Mutex
	d  *Data
}

// noInput is the input of tools that take no arguments.
type noInput struct{}

// monthsInput is the input of tools that take a number of months; the
// schema's default fills Months in when it is left out.
type monthsInput struct {
	Months int `json:"months"`
}

// monthsSchema returns an input schema with one integer argument, months,
// declaring its default.
func monthsSchema(descFormat, latest string, def int) json.RawMessage {
	desc, _ := json.Marshal(fmt.Sprintf(descFormat, latest, def))
	return json.RawMessage(fmt.Sprintf(`{"type":"object","properties":{"months":{"type":"integer","minimum":1,"default":%d,"description":%s}},"additionalProperties":false}`, def, desc))
}

// addRead registers a read-only tool whose handler returns its structured
// output and a text rendering of it.
func addRead[In, Out any](s *mcp.Server, h *state, name, title, desc string, schema json.RawMessage, fn func(*state, In) (Out, string, error)) {
	t := &mcp.Tool{
		Name:        name,
		Title:       title,
		Description: desc,
		Annotations: &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, OpenWorldHint: ptr(false)},
	}
	if schema != nil {
		t.InputSchema = schema
	}
	mcp.AddTool(s, t, func(_ context.Context, _ *mcp.CallToolRequest, in In) (*mcp.CallToolResult, Out, error) {
		h.mu.Lock()
		defer h.mu.Unlock()
		out, text, err := fn(h, in)
		if err != nil {
			var zero Out
			return nil, zero, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, out, nil
	})
}

func ptr[T any](v T) *T { return &v }

// NetWorthOut is get_net_worth's result.
type NetWorthOut struct {
	AsOf         string  `json:"as_of" jsonschema:"the valuation date: balances are month-end as of this day"`
	Currency     string  `json:"currency" jsonschema:"the currency of net_worth_sgd"`
	NetWorthSGD  float64 `json:"net_worth_sgd" jsonschema:"total net worth in SGD"`
	AccountCount int     `json:"account_count" jsonschema:"how many accounts are summed"`
}

func (h *state) netWorth(noInput) (NetWorthOut, string, error) {
	d := h.d
	nw, err := d.NetWorth(d.LatestMonth())
	if err != nil {
		return NetWorthOut{}, "", err
	}
	out := NetWorthOut{AsOf: d.AsOf, Currency: Base, NetWorthSGD: nw, AccountCount: len(d.Accounts)}
	return out, fmt.Sprintf("Net worth as of %s: SGD %s, across %d accounts.", d.AsOf, money(nw), len(d.Accounts)), nil
}

// AccountOut is one account in get_accounts's result.
type AccountOut struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Kind        string   `json:"kind" jsonschema:"cash, deposit, brokerage, savings or property"`
	Institution string   `json:"institution,omitempty"`
	Owners      []string `json:"owners" jsonschema:"the owners' names"`
	Currency    string   `json:"currency" jsonschema:"the currency of balance"`
	Balance     float64  `json:"balance" jsonschema:"month-end balance in the account's currency"`
	SGDPerUnit  float64  `json:"sgd_per_unit" jsonschema:"the exchange rate: SGD for one unit of currency"`
	BalanceSGD  float64  `json:"balance_sgd" jsonschema:"balance converted into SGD"`
}

// AccountsOut is get_accounts's result.
type AccountsOut struct {
	AsOf     string       `json:"as_of"`
	Accounts []AccountOut `json:"accounts"`
	TotalSGD float64      `json:"total_sgd" jsonschema:"the sum of every balance_sgd: net worth"`
}

func (h *state) accounts(noInput) (AccountsOut, string, error) {
	d := h.d
	m := d.LatestMonth()
	out := AccountsOut{AsOf: d.AsOf, Accounts: []AccountOut{}}
	var b strings.Builder
	fmt.Fprintf(&b, "Accounts as of %s:\n", d.AsOf)
	for _, a := range d.Accounts {
		rate, err := d.Rate(a.Currency)
		if err != nil {
			return AccountsOut{}, "", err
		}
		sgd, err := d.BalanceSGD(a.ID, m)
		if err != nil {
			return AccountsOut{}, "", err
		}
		owners := h.ownerNames(a.Owners)
		out.Accounts = append(out.Accounts, AccountOut{
			ID: a.ID, Name: a.Name, Kind: a.Kind, Institution: a.Institution,
			Owners: owners, Currency: a.Currency,
			Balance: a.Balances[m], SGDPerUnit: rate, BalanceSGD: sgd,
		})
		fmt.Fprintf(&b, "- %s (%s, %s): %s %s", a.Name, a.Kind, strings.Join(owners, " and "), a.Currency, money(a.Balances[m]))
		if a.Currency != Base {
			fmt.Fprintf(&b, " = SGD %s at %s SGD per %s", money(sgd), num(rate), a.Currency)
		}
		b.WriteByte('\n')
	}
	nw, err := d.NetWorth(m)
	if err != nil {
		return AccountsOut{}, "", err
	}
	out.TotalSGD = nw
	fmt.Fprintf(&b, "Total: SGD %s", money(nw))
	return out, b.String(), nil
}

func (h *state) ownerNames(ids []string) []string {
	names := []string{}
	for _, id := range ids {
		if o := h.d.Owner(id); o != nil {
			names = append(names, o.Name)
		}
	}
	return names
}

// HistoryOut is get_net_worth_history's result.
type HistoryOut struct {
	Currency string          `json:"currency" jsonschema:"the currency of every _sgd figure"`
	Months   int             `json:"months" jsonschema:"how many months are returned"`
	From     string          `json:"from" jsonschema:"the first month returned"`
	To       string          `json:"to" jsonschema:"the last month returned: the latest month"`
	History  []MonthNetWorth `json:"history" jsonschema:"one entry per month, oldest first"`
}

// MonthNetWorth is one month of get_net_worth_history's result.
type MonthNetWorth struct {
	Month       string           `json:"month" jsonschema:"the month, YYYY-MM; figures are as of its last day"`
	NetWorthSGD float64          `json:"net_worth_sgd"`
	Accounts    []AccountBalance `json:"accounts"`
}

// AccountBalance is one account's month-end balance.
type AccountBalance struct {
	ID         string  `json:"id"`
	Name       string  `json:"name"`
	Currency   string  `json:"currency"`
	Balance    float64 `json:"balance" jsonschema:"in the account's currency"`
	BalanceSGD float64 `json:"balance_sgd"`
}

func (h *state) history(in monthsInput) (HistoryOut, string, error) {
	d := h.d
	ms := lastN(d.Months(), in.Months)
	if len(ms) == 0 {
		return HistoryOut{}, "", fmt.Errorf("the household has no history")
	}
	out := HistoryOut{Currency: Base, Months: len(ms), From: ms[0], To: ms[len(ms)-1], History: []MonthNetWorth{}}
	var b strings.Builder
	fmt.Fprintf(&b, "Month-end net worth, %s to %s (%d months):\n", out.From, out.To, len(ms))
	for _, m := range ms {
		nw, err := d.NetWorth(m)
		if err != nil {
			return HistoryOut{}, "", err
		}
		mo := MonthNetWorth{Month: m, NetWorthSGD: nw, Accounts: []AccountBalance{}}
		var parts []string
		for _, a := range d.Accounts {
			sgd, err := d.BalanceSGD(a.ID, m)
			if err != nil {
				return HistoryOut{}, "", err
			}
			mo.Accounts = append(mo.Accounts, AccountBalance{ID: a.ID, Name: a.Name, Currency: a.Currency, Balance: a.Balances[m], BalanceSGD: sgd})
			parts = append(parts, fmt.Sprintf("%s %s %s", a.Name, a.Currency, money(a.Balances[m])))
		}
		out.History = append(out.History, mo)
		fmt.Fprintf(&b, "- %s: SGD %s (%s)\n", m, money(nw), strings.Join(parts, "; "))
	}
	if in.Months > len(ms) {
		fmt.Fprintf(&b, "History starts at %s: %d months asked for, %d exist.\n", ms[0], in.Months, len(ms))
	}
	return out, strings.TrimSuffix(b.String(), "\n"), nil
}

// lastN returns the last n of ms, or all of them when there are fewer.
func lastN(ms []string, n int) []string {
	if n < 1 {
		n = 1
	}
	if n > len(ms) {
		n = len(ms)
	}
	return ms[len(ms)-n:]
}

// monthsBack returns the first month of the latest n, or "" when there are
// none.
func monthsBack(ms []string, n int) string {
	if len(ms) == 0 {
		return ""
	}
	return lastN(ms, n)[0]
}

// FXOut is get_fx_exposure's result.
type FXOut struct {
	AsOf            string       `json:"as_of"`
	BaseCurrency    string       `json:"base_currency"`
	Exposures       []FXExposure `json:"exposures" jsonschema:"one entry per currency held, SGD first"`
	TotalSGD        float64      `json:"total_sgd" jsonschema:"net worth in SGD"`
	ForeignSharePct float64      `json:"foreign_share_pct" jsonschema:"percentage of net worth held in currencies other than SGD"`
}

// FXExposure is what is held in one currency.
type FXExposure struct {
	Currency   string   `json:"currency"`
	Balance    float64  `json:"balance" jsonschema:"total held in this currency, in this currency"`
	SGDPerUnit float64  `json:"sgd_per_unit" jsonschema:"the exchange rate: SGD for one unit of currency"`
	ValueSGD   float64  `json:"value_sgd"`
	SharePct   float64  `json:"share_pct" jsonschema:"percentage of net worth"`
	Accounts   []string `json:"accounts" jsonschema:"the accounts held in this currency"`
}

func (h *state) fxExposure(noInput) (FXOut, string, error) {
	d := h.d
	m := d.LatestMonth()
	nw, err := d.NetWorth(m)
	if err != nil {
		return FXOut{}, "", err
	}
	out := FXOut{AsOf: d.AsOf, BaseCurrency: Base, TotalSGD: nw, Exposures: []FXExposure{}}
	index := map[string]int{Base: 0}
	out.Exposures = append(out.Exposures, FXExposure{Currency: Base, SGDPerUnit: 1, Accounts: []string{}})
	for _, a := range d.Accounts {
		i, ok := index[a.Currency]
		if !ok {
			rate, err := d.Rate(a.Currency)
			if err != nil {
				return FXOut{}, "", err
			}
			i = len(out.Exposures)
			index[a.Currency] = i
			out.Exposures = append(out.Exposures, FXExposure{Currency: a.Currency, SGDPerUnit: rate, Accounts: []string{}})
		}
		sgd, err := d.BalanceSGD(a.ID, m)
		if err != nil {
			return FXOut{}, "", err
		}
		e := &out.Exposures[i]
		e.Balance += a.Balances[m]
		e.ValueSGD = cents(e.ValueSGD + sgd)
		e.Accounts = append(e.Accounts, a.Name)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Currency exposure as of %s (net worth SGD %s):\n", d.AsOf, money(nw))
	foreign := 0.0
	for i := range out.Exposures {
		e := &out.Exposures[i]
		e.SharePct = pct(e.ValueSGD / nw)
		if e.Currency != Base {
			foreign += e.ValueSGD
			fmt.Fprintf(&b, "- %s: %s %s at %s SGD per %s = SGD %s, %s%% of net worth (%s)\n", e.Currency, e.Currency, money(e.Balance), num(e.SGDPerUnit), e.Currency, money(e.ValueSGD), num(e.SharePct), strings.Join(e.Accounts, ", "))
		} else {
			fmt.Fprintf(&b, "- SGD: SGD %s, %s%% of net worth (%s)\n", money(e.ValueSGD), num(e.SharePct), strings.Join(e.Accounts, ", "))
		}
	}
	out.ForeignSharePct = pct(foreign / nw)
	fmt.Fprintf(&b, "Held outside SGD: SGD %s, %s%% of net worth.", money(foreign), num(out.ForeignSharePct))
	return out, b.String(), nil
}

// pct turns a fraction into a percentage rounded to two decimals.
func pct(f float64) float64 { return math.Round(f*10000) / 100 }

// HoldingsOut is get_holdings's result.
type HoldingsOut struct {
	AsOf     string       `json:"as_of"`
	Holdings []HoldingOut `json:"holdings"`
}

// HoldingOut is one security held.
type HoldingOut struct {
	Account string  `json:"account" jsonschema:"the account holding it"`
	Symbol  string  `json:"symbol"`
	Name    string  `json:"name"`
	Units   float64 `json:"units" jsonschema:"number of units (shares) held"`
}

func (h *state) holdings(noInput) (HoldingsOut, string, error) {
	d := h.d
	out := HoldingsOut{AsOf: d.AsOf, Holdings: []HoldingOut{}}
	var b strings.Builder
	fmt.Fprintf(&b, "Holdings as of %s (units only):\n", d.AsOf)
	for _, a := range d.Accounts {
		for _, x := range a.Holdings {
			out.Holdings = append(out.Holdings, HoldingOut{Account: a.Name, Symbol: x.Symbol, Name: x.Name, Units: x.Units})
			fmt.Fprintf(&b, "- %s (%s): %s units, in %s\n", x.Symbol, x.Name, money(x.Units), a.Name)
		}
	}
	return out, strings.TrimSuffix(b.String(), "\n"), nil
}

// VestOut is one vest of a grant.
type VestOut struct {
	Date   string  `json:"date" jsonschema:"vest date, YYYY-MM-DD"`
	Grant  string  `json:"grant"`
	Owner  string  `json:"owner"`
	Symbol string  `json:"symbol"`
	Units  float64 `json:"units" jsonschema:"number of shares the vest delivers"`
}

// UpcomingVestsOut is get_upcoming_vests's result.
type UpcomingVestsOut struct {
	AsOf       string    `json:"as_of" jsonschema:"vests after this date are listed"`
	NextVest   *VestOut  `json:"next_vest,omitempty" jsonschema:"the soonest upcoming vest"`
	Vests      []VestOut `json:"vests" jsonschema:"every upcoming vest, soonest first"`
	TotalUnits float64   `json:"total_units" jsonschema:"shares still to vest, all grants"`
}

func (h *state) upcomingVests(noInput) (UpcomingVestsOut, string, error) {
	d := h.d
	out := UpcomingVestsOut{AsOf: d.AsOf, Vests: []VestOut{}}
	for _, g := range d.Grants {
		for _, v := range g.Vests {
			if v.Date > d.AsOf {
				out.Vests = append(out.Vests, h.vestOut(g, v))
				out.TotalUnits += v.Units
			}
		}
	}
	slices.SortStableFunc(out.Vests, func(a, b VestOut) int { return strings.Compare(a.Date, b.Date) })
	var b strings.Builder
	if len(out.Vests) == 0 {
		fmt.Fprintf(&b, "No RSU vests after %s.", d.AsOf)
		return out, b.String(), nil
	}
	out.NextVest = &out.Vests[0]
	n := out.NextVest
	fmt.Fprintf(&b, "Next vest: %s, %s %s shares (%s, %s).\nUpcoming vests after %s:\n", n.Date, money(n.Units), n.Symbol, n.Grant, n.Owner, d.AsOf)
	for _, v := range out.Vests {
		fmt.Fprintf(&b, "- %s: %s %s shares (%s)\n", v.Date, money(v.Units), v.Symbol, v.Grant)
	}
	fmt.Fprintf(&b, "Total still to vest: %s shares.", money(out.TotalUnits))
	return out, b.String(), nil
}

func (h *state) vestOut(g Grant, v Vest) VestOut {
	owner := g.Owner
	if o := h.d.Owner(g.Owner); o != nil {
		owner = o.Name
	}
	return VestOut{Date: v.Date, Grant: g.Name, Owner: owner, Symbol: g.Symbol, Units: v.Units}
}

// RSUScheduleOut is get_rsu_schedule's result.
type RSUScheduleOut struct {
	AsOf   string     `json:"as_of" jsonschema:"vests on or before this date count as vested"`
	Grants []GrantOut `json:"grants"`
}

// GrantOut is one grant and its schedule.
type GrantOut struct {
	ID            string         `json:"id"`
	Name          string         `json:"name"`
	Owner         string         `json:"owner"`
	Symbol        string         `json:"symbol"`
	Granted       string         `json:"granted" jsonschema:"grant date, YYYY-MM-DD"`
	TotalUnits    float64        `json:"total_units"`
	VestedUnits   float64        `json:"vested_units"`
	UnvestedUnits float64        `json:"unvested_units"`
	Vests         []ScheduleVest `json:"vests" jsonschema:"every vest of the grant, in date order"`
}

// ScheduleVest is one vest of a grant's schedule.
type ScheduleVest struct {
	Date   string  `json:"date"`
	Units  float64 `json:"units"`
	Vested bool    `json:"vested" jsonschema:"whether the vest date has passed"`
}

func (h *state) rsuSchedule(noInput) (RSUScheduleOut, string, error) {
	d := h.d
	out := RSUScheduleOut{AsOf: d.AsOf, Grants: []GrantOut{}}
	var b strings.Builder
	fmt.Fprintf(&b, "RSU grants as of %s:\n", d.AsOf)
	for _, g := range d.Grants {
		owner := h.vestOut(g, Vest{}).Owner
		gr := GrantOut{ID: g.ID, Name: g.Name, Owner: owner, Symbol: g.Symbol, Granted: g.Granted, Vests: []ScheduleVest{}}
		var lines []string
		for _, v := range g.Vests {
			vested := v.Date <= d.AsOf
			gr.TotalUnits += v.Units
			status := "to vest"
			if vested {
				gr.VestedUnits += v.Units
				status = "vested"
			} else {
				gr.UnvestedUnits += v.Units
			}
			gr.Vests = append(gr.Vests, ScheduleVest{Date: v.Date, Units: v.Units, Vested: vested})
			lines = append(lines, fmt.Sprintf("  - %s: %s shares, %s", v.Date, money(v.Units), status))
		}
		out.Grants = append(out.Grants, gr)
		fmt.Fprintf(&b, "- %s (%s, %s), granted %s: %s %s shares in total, %s vested, %s still to vest:\n%s\n",
			g.Name, g.Symbol, owner, g.Granted, money(gr.TotalUnits), g.Symbol, money(gr.VestedUnits), money(gr.UnvestedUnits), strings.Join(lines, "\n"))
	}
	return out, strings.TrimSuffix(b.String(), "\n"), nil
}

// CashflowOut is get_cashflow's result.
type CashflowOut struct {
	Currency          string            `json:"currency"`
	Frequency         string            `json:"frequency" jsonschema:"how often every line recurs"`
	Lines             []CashflowOutLine `json:"lines"`
	MonthlyInflowSGD  float64           `json:"monthly_inflow_sgd"`
	MonthlyOutflowSGD float64           `json:"monthly_outflow_sgd"`
	MonthlyNetSGD     float64           `json:"monthly_net_sgd" jsonschema:"inflow less outflow"`
}

// CashflowOutLine is one recurring cashflow line.
type CashflowOutLine struct {
	Name      string  `json:"name"`
	Direction string  `json:"direction" jsonschema:"inflow or outflow"`
	AmountSGD float64 `json:"amount_sgd" jsonschema:"monthly amount, positive whichever the direction"`
	Owner     string  `json:"owner,omitempty"`
	Account   string  `json:"account,omitempty"`
}

func (h *state) cashflow(noInput) (CashflowOut, string, error) {
	d := h.d
	out := CashflowOut{Currency: Base, Frequency: "monthly", Lines: []CashflowOutLine{}}
	var b strings.Builder
	b.WriteString("Recurring monthly cashflow (SGD):\n")
	for _, c := range d.Cashflow {
		l := CashflowOutLine{Name: c.Name, Direction: c.Direction, AmountSGD: c.Amount}
		if o := d.Owner(c.Owner); o != nil {
			l.Owner = o.Name
		}
		if a := d.Account(c.Account); a != nil {
			l.Account = a.Name
		}
		out.Lines = append(out.Lines, l)
		fmt.Fprintf(&b, "- %s: %s SGD %s a month\n", c.Name, c.Direction, money(c.Amount))
	}
	out.MonthlyInflowSGD, out.MonthlyOutflowSGD = monthlyTotals(d.Cashflow)
	out.MonthlyNetSGD = cents(out.MonthlyInflowSGD - out.MonthlyOutflowSGD)
	fmt.Fprintf(&b, "Each month: in SGD %s, out SGD %s, net SGD %s.", money(out.MonthlyInflowSGD), money(out.MonthlyOutflowSGD), money(out.MonthlyNetSGD))
	return out, b.String(), nil
}

// monthlyTotals returns the monthly inflow and outflow of lines, each
// rounded to the cent.
func monthlyTotals(lines []CashflowLine) (in, out float64) {
	for _, c := range lines {
		if c.Direction == Inflow {
			in += c.Amount
		} else {
			out += c.Amount
		}
	}
	return cents(in), cents(out)
}

// ReturnsOut is get_returns's result.
type ReturnsOut struct {
	Account             string        `json:"account"`
	Currency            string        `json:"currency" jsonschema:"the account's currency, which returns are measured in"`
	Method              string        `json:"method"`
	Months              int           `json:"months" jsonschema:"how many months are returned"`
	From                string        `json:"from"`
	To                  string        `json:"to"`
	Monthly             []MonthReturn `json:"monthly" jsonschema:"one entry per month, oldest first"`
	CumulativeReturnPct float64       `json:"cumulative_return_pct" jsonschema:"the monthly returns compounded over the months returned, in percent"`
}

// MonthReturn is one month's return.
type MonthReturn struct {
	Month     string  `json:"month"`
	ReturnPct float64 `json:"return_pct" jsonschema:"time-weighted return that month, in percent"`
}

func (h *state) returns(in monthsInput) (ReturnsOut, string, error) {
	d := h.d
	var a *Account
	for i := range d.Accounts {
		if len(d.Accounts[i].Returns) > 0 {
			a = &d.Accounts[i]
			break
		}
	}
	if a == nil {
		return ReturnsOut{}, "", fmt.Errorf("no account has returns")
	}
	ms := lastN(slices.Sorted(maps.Keys(a.Returns)), in.Months) // not empty: a has returns
	out := ReturnsOut{Account: a.Name, Currency: a.Currency, Method: "time-weighted, as reported by the broker; deposits are not return",
		Months: len(ms), From: ms[0], To: ms[len(ms)-1], Monthly: []MonthReturn{}}
	growth := 1.0
	var parts []string
	for _, m := range ms {
		r := a.Returns[m]
		growth *= 1 + r/100
		out.Monthly = append(out.Monthly, MonthReturn{Month: m, ReturnPct: r})
		parts = append(parts, fmt.Sprintf("%s %s%%", m, num(r)))
	}
	out.CumulativeReturnPct = pct(growth - 1)
	text := fmt.Sprintf("%s returns (time-weighted, in %s), %s to %s:\n%s\nCompounded over these %d months: %s%%.",
		a.Name, a.Currency, out.From, out.To, strings.Join(parts, ", "), len(ms), num(out.CumulativeReturnPct))
	return out, text, nil
}

// UpdateBalanceIn is update_balance's input.
type UpdateBalanceIn struct {
	Account string  `json:"account" jsonschema:"the account's id, as get_accounts lists it"`
	Balance float64 `json:"balance" jsonschema:"the new balance, in the account's own currency"`
}

// UpdateBalanceOut is update_balance's result.
type UpdateBalanceOut struct {
	Account     string  `json:"account"`
	Month       string  `json:"month"`
	Currency    string  `json:"currency"`
	Previous    float64 `json:"previous" jsonschema:"the balance replaced"`
	Balance     float64 `json:"balance"`
	NetWorthSGD float64 `json:"net_worth_sgd" jsonschema:"net worth after the change"`
}

func (h *state) updateBalance(_ context.Context, _ *mcp.CallToolRequest, in UpdateBalanceIn) (*mcp.CallToolResult, UpdateBalanceOut, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	d := h.d
	a := d.Account(in.Account)
	if a == nil {
		var ids []string
		for _, a := range d.Accounts {
			ids = append(ids, a.ID)
		}
		return nil, UpdateBalanceOut{}, fmt.Errorf("no account %q: want one of %s", in.Account, strings.Join(ids, ", "))
	}
	m := d.LatestMonth()
	out := UpdateBalanceOut{Account: a.Name, Month: m, Currency: a.Currency, Previous: a.Balances[m], Balance: in.Balance}
	a.Balances[m] = in.Balance
	nw, err := d.NetWorth(m)
	if err != nil {
		return nil, UpdateBalanceOut{}, err
	}
	out.NetWorthSGD = nw
	text := fmt.Sprintf("%s balance for %s set to %s %s (was %s). Net worth is now SGD %s.", a.Name, m, a.Currency, money(in.Balance), money(out.Previous), money(nw))
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, out, nil
}

// AddCashflowIn is add_cashflow's input.
type AddCashflowIn struct {
	Name      string  `json:"name"`
	Direction string  `json:"direction" jsonschema:"inflow or outflow"`
	AmountSGD float64 `json:"amount_sgd" jsonschema:"the monthly amount in SGD, positive"`
	Owner     string  `json:"owner,omitempty" jsonschema:"an owner's id, if the line is one person's"`
	Account   string  `json:"account,omitempty" jsonschema:"the id of the account it is paid into or from"`
}

// AddCashflowOut is add_cashflow's result.
type AddCashflowOut struct {
	Lines         int     `json:"lines" jsonschema:"how many recurring lines there are now"`
	MonthlyNetSGD float64 `json:"monthly_net_sgd" jsonschema:"monthly inflow less outflow, after the change"`
}

func (h *state) addCashflow(_ context.Context, _ *mcp.CallToolRequest, in AddCashflowIn) (*mcp.CallToolResult, AddCashflowOut, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	d := h.d
	switch {
	case strings.TrimSpace(in.Name) == "":
		return nil, AddCashflowOut{}, fmt.Errorf("no name: a cashflow line needs one")
	case in.Direction != Inflow && in.Direction != Outflow:
		return nil, AddCashflowOut{}, fmt.Errorf("direction %q: want inflow or outflow", in.Direction)
	case !(in.AmountSGD > 0):
		return nil, AddCashflowOut{}, fmt.Errorf("amount_sgd %v: want a positive monthly amount", in.AmountSGD)
	case in.Owner != "" && d.Owner(in.Owner) == nil:
		return nil, AddCashflowOut{}, fmt.Errorf("no owner %q", in.Owner)
	case in.Account != "" && d.Account(in.Account) == nil:
		return nil, AddCashflowOut{}, fmt.Errorf("no account %q", in.Account)
	}
	d.Cashflow = append(d.Cashflow, CashflowLine{Name: in.Name, Direction: in.Direction, Amount: in.AmountSGD, Owner: in.Owner, Account: in.Account})
	inflow, outflow := monthlyTotals(d.Cashflow)
	out := AddCashflowOut{Lines: len(d.Cashflow), MonthlyNetSGD: cents(inflow - outflow)}
	text := fmt.Sprintf("Added %s: %s SGD %s a month. %d lines; monthly net SGD %s.", in.Name, in.Direction, money(in.AmountSGD), out.Lines, money(out.MonthlyNetSGD))
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, out, nil
}

// money formats an amount with thousands separators, and cents only when
// it has them: 2394755 as "2,394,755", 2271631.6 as "2,271,631.60".
func money(x float64) string {
	neg := x < 0
	if neg {
		x = -x
	}
	s := strconv.FormatFloat(cents(x), 'f', 2, 64)
	whole, frac, _ := strings.Cut(s, ".")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if frac != "00" {
		b.WriteString("." + frac)
	}
	return b.String()
}

// num formats a rate, count or percentage as briefly as it is exact.
func num(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
