package household

import (
	_ "embed"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/mcpeval/mcpeval/internal/yamlloc"
	"github.com/mcpeval/mcpeval/suite"
	"go.yaml.in/yaml/v4"
)

//go:embed fixture.yaml
var fixtureYAML []byte

// Data is a household: its accounts with their month-end history, exchange
// rates, recurring cashflow and RSU grants, as read from a fixture file.
type Data struct {
	// Household names the household.
	Household string `yaml:"household"`
	// AsOf is the valuation date, "2006-01-02": the last day the data
	// covers. The latest month of history is its month, and the server
	// treats it as today.
	AsOf string `yaml:"as_of"`
	// Currency is the currency everything is reported in; it must be Base.
	Currency string `yaml:"currency"`
	// FX maps each other currency to how many SGD one unit of it is worth
	// ("USD": 1.342), constant over the history.
	FX map[string]float64 `yaml:"fx"`
	// Owners are the people the accounts belong to.
	Owners []Owner `yaml:"owners"`
	// Accounts are listed in the order the server lists them.
	Accounts []Account `yaml:"accounts"`
	// Cashflow is the recurring monthly cashflow.
	Cashflow []CashflowLine `yaml:"cashflow"`
	// Grants are the restricted stock unit grants.
	Grants []Grant `yaml:"grants"`
}

// Owner is one of the household's people.
type Owner struct {
	ID   string `yaml:"id"`
	Name string `yaml:"name"`
}

// Account is one account and its history.
type Account struct {
	ID          string `yaml:"id"`
	Name        string `yaml:"name"`
	Kind        string `yaml:"kind"`
	Institution string `yaml:"institution,omitempty"`
	// Currency is the currency its balances are in.
	Currency string `yaml:"currency"`
	// Owners are Owner ids.
	Owners []string `yaml:"owners"`
	// Balances maps a month ("2026-03") to the month-end balance in
	// Currency.
	Balances map[string]float64 `yaml:"balances"`
	// Holdings are the securities held at AsOf, in units.
	Holdings []Holding `yaml:"holdings,omitempty"`
	// Returns maps a month to the account's time-weighted return that
	// month, in percent.
	Returns map[string]float64 `yaml:"returns,omitempty"`
}

// Holding is a number of units of one security.
type Holding struct {
	Symbol string  `yaml:"symbol"`
	Name   string  `yaml:"name"`
	Units  float64 `yaml:"units"`
}

// Base is the currency the household reports in.
const Base = "SGD"

// Cashflow directions.
const (
	Inflow  = "inflow"
	Outflow = "outflow"
)

// CashflowLine is one recurring monthly cashflow line.
type CashflowLine struct {
	Name string `yaml:"name"`
	// Direction is Inflow or Outflow.
	Direction string `yaml:"direction"`
	// Amount is the monthly amount in SGD, positive.
	Amount float64 `yaml:"amount"`
	// Owner is an Owner id, or empty for the household as a whole.
	Owner string `yaml:"owner,omitempty"`
	// Account is the id of the account it is paid into or from.
	Account string `yaml:"account,omitempty"`
}

// Grant is a restricted stock unit grant.
type Grant struct {
	ID     string `yaml:"id"`
	Name   string `yaml:"name"`
	Owner  string `yaml:"owner"`
	Symbol string `yaml:"symbol"`
	// Granted is the grant date, "2006-01-02".
	Granted string `yaml:"granted"`
	// Vests are in date order.
	Vests []Vest `yaml:"vests"`
}

// Vest is one vesting date of a grant.
type Vest struct {
	// Date is "2006-01-02".
	Date  string  `yaml:"date"`
	Units float64 `yaml:"units"`
}

// Fixture parses the embedded fixture.yaml; each call returns a fresh copy.
func Fixture() (*Data, error) {
	return parse(fixtureYAML, "household/fixture.yaml")
}

// LoadFixture parses the fixture file at path. Problems are reported as
// path:line: message, all of them together.
func LoadFixture(path string) (*Data, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("loading fixture: %w", err)
	}
	return parse(b, path)
}

// Error is one problem in a fixture file, located: the suite format's
// located error, so that a fixture's problems read as a suite's do
// (file:line:col: message).
type Error = suite.Error

func parse(b []byte, file string) (*Data, error) {
	var root yaml.Node
	if err := yaml.Load(b, &root); err != nil {
		return nil, yamlError(file, b, err)
	}
	d := new(Data)
	if err := root.Load(d, yaml.WithKnownFields()); err != nil {
		return nil, yamlError(file, b, err)
	}
	v := &validator{file: file, root: &root}
	v.check(d)
	if len(v.errs) > 0 {
		return nil, errors.Join(v.errs...)
	}
	return d, nil
}

// yamlError turns a YAML error into located Errors.
func yamlError(file string, data []byte, err error) error {
	ps := yamlloc.Problems(data, err)
	if ps == nil {
		return &Error{File: file, Msg: err.Error()}
	}
	errs := make([]error, len(ps))
	for i, p := range ps {
		errs[i] = &Error{File: file, Line: p.Line, Col: p.Col, Msg: cleanYAMLMsg(p.Msg)}
	}
	return errors.Join(errs...)
}

var yamlTypeNames = map[string]string{
	"Data":         "the household",
	"Owner":        "an owner",
	"Account":      "an account",
	"Holding":      "a holding",
	"CashflowLine": "a cashflow line",
	"Grant":        "a grant",
	"Vest":         "a vest",
}

// cleanYAMLMsg rewords the YAML library's messages for a person editing the
// file.
func cleanYAMLMsg(m string) string {
	m = strings.TrimPrefix(m, "yaml: ")
	if f, ok := strings.CutPrefix(m, "field "); ok {
		if name, typ, ok := strings.Cut(f, " not found in type "); ok {
			what, ok := yamlTypeNames[strings.TrimPrefix(typ, "household.")]
			if !ok {
				what = typ
			}
			return fmt.Sprintf("unknown field %q in %s", name, what)
		}
	}
	return m
}

// validator checks a decoded fixture, locating each problem by walking the
// YAML node tree it was decoded from.
type validator struct {
	file string
	root *yaml.Node
	errs []error
}

// at records a problem with the node at path (mapping keys as strings,
// sequence indexes as ints).
func (v *validator) at(path []any, format string, args ...any) {
	v.errs = append(v.errs, &Error{File: v.file, Line: lineOf(v.root, path), Msg: fmt.Sprintf(format, args...)})
}

// lineOf returns the line of the deepest node of path found in n: for a
// mapping entry the line of its key, for a sequence item the item's.
func lineOf(n *yaml.Node, path []any) int {
	line := n.Line
	for _, p := range path {
		for n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
			n = n.Content[0]
		}
		var next *yaml.Node
		switch p := p.(type) {
		case string:
			if n.Kind == yaml.MappingNode {
				for i := 0; i+1 < len(n.Content); i += 2 {
					if n.Content[i].Value == p {
						line, next = n.Content[i].Line, n.Content[i+1]
						break
					}
				}
			}
		case int:
			if n.Kind == yaml.SequenceNode && p < len(n.Content) {
				next = n.Content[p]
				line = next.Line
			}
		}
		if next == nil {
			break
		}
		n = next
	}
	return line
}

const (
	dateLayout  = "2006-01-02"
	monthLayout = "2006-01"
)

func (v *validator) check(d *Data) {
	asOf, err := time.Parse(dateLayout, d.AsOf)
	if err != nil {
		v.at([]any{"as_of"}, "as_of is %q: want a date like 2026-09-30", d.AsOf)
	}
	if d.Currency != Base {
		v.at([]any{"currency"}, "currency is %q: the server reports in SGD (its figures are named _sgd), want currency: SGD", d.Currency)
	}
	for c, r := range d.FX {
		if !(r > 0) {
			v.at([]any{"fx", c}, "fx rate for %s is %v: want a positive amount of %s per unit", c, r, d.Currency)
		}
		if c == d.Currency {
			v.at([]any{"fx", c}, "fx lists the base currency %s", c)
		}
	}
	owners := v.checkOwners(d.Owners)
	accounts := v.checkAccounts(d, owners, asOf)
	v.checkCashflow(d.Cashflow, owners, accounts)
	v.checkGrants(d.Grants, owners)
}

// checkOwners checks the owners and returns the set of their ids.
func (v *validator) checkOwners(os []Owner) map[string]bool {
	owners := map[string]bool{}
	for i, o := range os {
		if o.ID == "" || o.Name == "" {
			v.at([]any{"owners", i}, "owner %d: want id and name", i+1)
		}
		if owners[o.ID] {
			v.at([]any{"owners", i}, "owner %q is listed twice", o.ID)
		}
		owners[o.ID] = true
	}
	return owners
}

// item returns a function that records a problem with the i-th entry of
// the list named list, prefixing its message with what (an account's or a
// grant's name, say).
func (v *validator) item(list string, i int, what string) func(sub []any, format string, args ...any) {
	return func(sub []any, format string, args ...any) {
		v.at(append([]any{list, i}, sub...), "%s: "+format, append([]any{what}, args...)...)
	}
}

// checkAccounts checks the accounts against the owners and each other
// (every account has the same months of balances) and returns the set of
// their ids.
func (v *validator) checkAccounts(d *Data, owners map[string]bool, asOf time.Time) map[string]bool {
	accounts := map[string]bool{}
	if len(d.Accounts) == 0 {
		v.at([]any{"accounts"}, "no accounts")
	}
	var months []string
	for i, a := range d.Accounts {
		at := v.item("accounts", i, "account "+a.ID)
		if a.ID == "" || a.Name == "" {
			at(nil, "want id and name")
		}
		if accounts[a.ID] {
			at(nil, "listed twice")
		}
		accounts[a.ID] = true
		if _, ok := d.FX[a.Currency]; !ok && a.Currency != d.Currency {
			at([]any{"currency"}, "currency %q has no rate: want %s or a currency listed under fx", a.Currency, d.Currency)
		}
		for j, o := range a.Owners {
			if !owners[o] {
				at([]any{"owners", j}, "unknown owner %q", o)
			}
		}
		ms := slices.Sorted(maps.Keys(a.Balances))
		for _, m := range ms {
			if _, err := time.Parse(monthLayout, m); err != nil {
				at([]any{"balances", m}, "month %q: want a month like 2026-03", m)
			}
		}
		switch {
		case len(ms) == 0:
			at(nil, "no balances")
		case months == nil:
			months = ms
			v.checkMonths([]any{"accounts", i, "balances"}, ms, asOf)
		default:
			checkSameMonths(at, a, months, ms, d.Accounts[0].ID)
		}
		for j, h := range a.Holdings {
			if h.Symbol == "" || h.Units < 0 {
				at([]any{"holdings", j}, "holding %d: want a symbol and units of 0 or more", j+1)
			}
		}
		for _, m := range slices.Sorted(maps.Keys(a.Returns)) {
			if _, ok := a.Balances[m]; !ok {
				at([]any{"returns", m}, "a return for %s, a month with no balance", m)
			}
		}
	}
	return accounts
}

// checkSameMonths checks that account a, whose balance months are ms, has
// a balance for exactly the months of the first account, first.
func checkSameMonths(at func(sub []any, format string, args ...any), a Account, months, ms []string, first string) {
	for _, m := range months {
		if _, ok := a.Balances[m]; !ok {
			at([]any{"balances"}, "no balance for %s: every account needs the same months as %s", m, first)
		}
	}
	for _, m := range ms {
		if !slices.Contains(months, m) {
			at([]any{"balances", m}, "a balance for %s, a month %s has none of: every account needs the same months", m, first)
		}
	}
}

// checkCashflow checks the monthly cashflow lines against the owners and
// accounts.
func (v *validator) checkCashflow(cs []CashflowLine, owners, accounts map[string]bool) {
	for i, c := range cs {
		at := v.item("cashflow", i, fmt.Sprintf("cashflow %q", c.Name))
		if c.Name == "" {
			at(nil, "no name")
		}
		if c.Direction != Inflow && c.Direction != Outflow {
			at([]any{"direction"}, "direction %q: want inflow or outflow", c.Direction)
		}
		if !(c.Amount > 0) {
			at([]any{"amount"}, "amount %v: want a positive monthly amount", c.Amount)
		}
		if c.Owner != "" && !owners[c.Owner] {
			at([]any{"owner"}, "unknown owner %q", c.Owner)
		}
		if c.Account != "" && !accounts[c.Account] {
			at([]any{"account"}, "unknown account %q", c.Account)
		}
	}
}

// checkGrants checks the share grants: a known owner, dates, and vests in
// date order.
func (v *validator) checkGrants(gs []Grant, owners map[string]bool) {
	for i, g := range gs {
		at := v.item("grants", i, "grant "+g.ID)
		if g.ID == "" || g.Symbol == "" {
			at(nil, "want id and symbol")
		}
		if !owners[g.Owner] {
			at([]any{"owner"}, "unknown owner %q", g.Owner)
		}
		if _, err := time.Parse(dateLayout, g.Granted); err != nil {
			at([]any{"granted"}, "granted %q: want a date like 2026-03-14", g.Granted)
		}
		prev := ""
		for j, vest := range g.Vests {
			if _, err := time.Parse(dateLayout, vest.Date); err != nil {
				at([]any{"vests", j}, "vest %d: date %q: want a date like 2031-03-14", j+1, vest.Date)
			} else if vest.Date <= prev {
				at([]any{"vests", j}, "vest %d on %s is not after the one before (%s): list vests in date order", j+1, vest.Date, prev)
			}
			if !(vest.Units > 0) {
				at([]any{"vests", j}, "vest %d: units %v: want a positive number", j+1, vest.Units)
			}
			prev = vest.Date
		}
	}
}

// checkMonths checks that the history's months follow each other with no
// gap and end with the month of as_of.
func (v *validator) checkMonths(path []any, ms []string, asOf time.Time) {
	for i := 1; i < len(ms); i++ {
		prev, err1 := time.Parse(monthLayout, ms[i-1])
		cur, err2 := time.Parse(monthLayout, ms[i])
		if err1 == nil && err2 == nil && !prev.AddDate(0, 1, 0).Equal(cur) {
			v.at(append(path, ms[i]), "months jump from %s to %s: want one balance for every month", ms[i-1], ms[i])
		}
	}
	if !asOf.IsZero() && ms[len(ms)-1] != asOf.Format(monthLayout) {
		v.at(append(path, ms[len(ms)-1]), "the latest month is %s but as_of is in %s: they must agree", ms[len(ms)-1], asOf.Format(monthLayout))
	}
}

// Months returns the months of history, oldest first ("2025-10" ..
// "2026-09").
func (d *Data) Months() []string {
	if len(d.Accounts) == 0 {
		return nil
	}
	return slices.Sorted(maps.Keys(d.Accounts[0].Balances))
}

// LatestMonth returns the latest month of history, the month of AsOf.
func (d *Data) LatestMonth() string {
	ms := d.Months()
	if len(ms) == 0 {
		return ""
	}
	return ms[len(ms)-1]
}

// Account returns the account with the given id, or nil.
func (d *Data) Account(id string) *Account {
	for i := range d.Accounts {
		if d.Accounts[i].ID == id {
			return &d.Accounts[i]
		}
	}
	return nil
}

// Owner returns the owner with the given id, or nil.
func (d *Data) Owner(id string) *Owner {
	for i := range d.Owners {
		if d.Owners[i].ID == id {
			return &d.Owners[i]
		}
	}
	return nil
}

// Rate returns how many SGD one unit of currency is worth: 1 for SGD.
func (d *Data) Rate(currency string) (float64, error) {
	if currency == d.Currency {
		return 1, nil
	}
	r, ok := d.FX[currency]
	if !ok {
		return 0, fmt.Errorf("no exchange rate for %s", currency)
	}
	return r, nil
}

// BalanceSGD returns account id's month-end balance in month, converted
// into SGD and rounded to the cent.
func (d *Data) BalanceSGD(id, month string) (float64, error) {
	a := d.Account(id)
	if a == nil {
		return 0, fmt.Errorf("no account %q", id)
	}
	b, ok := a.Balances[month]
	if !ok {
		return 0, fmt.Errorf("account %s has no balance for %q", id, month)
	}
	r, err := d.Rate(a.Currency)
	if err != nil {
		return 0, err
	}
	return cents(b * r), nil
}

// NetWorth returns the household's net worth in SGD at the end of month
// ("2026-03"): every account's balance that month times its exchange rate,
// summed and rounded to the cent.
func (d *Data) NetWorth(month string) (float64, error) {
	total := 0.0
	for _, a := range d.Accounts {
		b, err := d.BalanceSGD(a.ID, month)
		if err != nil {
			return 0, fmt.Errorf("net worth for %s: %w", month, err)
		}
		total += b
	}
	return cents(total), nil
}

// cents rounds a money amount to the cent.
func cents(x float64) float64 { return math.Round(x*100) / 100 }

// clone returns a deep copy of d, so that a server's writes touch only its
// own copy.
func (d *Data) clone() *Data {
	c := *d
	c.FX = maps.Clone(d.FX)
	c.Owners = slices.Clone(d.Owners)
	c.Accounts = slices.Clone(d.Accounts)
	for i := range c.Accounts {
		a := &c.Accounts[i]
		a.Owners = slices.Clone(a.Owners)
		a.Balances = maps.Clone(a.Balances)
		a.Holdings = slices.Clone(a.Holdings)
		a.Returns = maps.Clone(a.Returns)
	}
	c.Cashflow = slices.Clone(d.Cashflow)
	c.Grants = slices.Clone(d.Grants)
	for i := range c.Grants {
		c.Grants[i].Vests = slices.Clone(c.Grants[i].Vests)
	}
	return &c
}
