package household

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func mustFixture(t *testing.T) *Data {
	t.Helper()
	d, err := Fixture()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestFixtureSeedTable checks the accounts at 2026-09 against the table the
// methodology page publishes.
func TestFixtureSeedTable(t *testing.T) {
	d := mustFixture(t)
	type row struct {
		Name     string
		Currency string
		Balance  float64
		SGD      float64
	}
	want := []row{
		{"Operating Cash", "SGD", 84250, 84250},
		{"Fixed Deposit", "SGD", 210000, 210000},
		{"IBKR Brokerage", "USD", 307500, 412665},
		{"Yen Savings", "JPY", 4300000, 37840},
		{"Residence", "SGD", 1650000, 1650000},
	}
	if d.AsOf != "2026-09-30" || d.LatestMonth() != "2026-09" {
		t.Fatalf("as_of %s, latest month %s: want 2026-09-30 and 2026-09", d.AsOf, d.LatestMonth())
	}
	var got []row
	for _, a := range d.Accounts {
		sgd, err := d.BalanceSGD(a.ID, "2026-09")
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, row{a.Name, a.Currency, a.Balances["2026-09"], sgd})
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("accounts at 2026-09 (-seed +fixture):\n%s", diff)
	}
	if r, _ := d.Rate("USD"); r != 1.342 {
		t.Errorf("USD rate %v, want 1.342", r)
	}
	if r, _ := d.Rate("JPY"); r != 0.0088 {
		t.Errorf("JPY rate %v, want 0.0088", r)
	}
	nw, err := d.NetWorth("2026-09")
	if err != nil || nw != 2394755 {
		t.Errorf("NetWorth(2026-09) = %v, %v; want 2394755", nw, err)
	}
	ibkr := d.Account("ibkr")
	wantHoldings := []Holding{{"VOO", "Vanguard S&P 500 ETF", 450}, {"BND", "Vanguard Total Bond Market ETF", 600}}
	if diff := cmp.Diff(wantHoldings, ibkr.Holdings); diff != "" {
		t.Errorf("IBKR holdings (-want +got):\n%s", diff)
	}
}

// TestFixtureShape checks what the methodology page says about the
// household besides the table: two owners, twelve months, eight cashflow
// lines, a next vest of 400 FXTC that stays next until 2031-03-14.
func TestFixtureShape(t *testing.T) {
	d := mustFixture(t)
	if len(d.Owners) != 2 {
		t.Errorf("%d owners, want 2", len(d.Owners))
	}
	months := d.Months()
	if len(months) != 12 || months[0] != "2025-10" || months[11] != "2026-09" {
		t.Errorf("months %v: want the 12 months 2025-10 .. 2026-09", months)
	}
	if len(d.Cashflow) != 8 {
		t.Errorf("%d cashflow lines, want 8", len(d.Cashflow))
	}
	var first *Vest
	for _, g := range d.Grants {
		for i, v := range g.Vests {
			if first == nil || v.Date < first.Date {
				first = &g.Vests[i]
			}
		}
		if g.Symbol != "FXTC" {
			t.Errorf("grant %s is of %s, want FXTC", g.ID, g.Symbol)
		}
	}
	// The first vest of all is the next one on any date up to the fixture's
	// expiry, so it must fall on 2031-03-14 (and after as_of).
	if first == nil || first.Date != "2031-03-14" || first.Units != 400 {
		t.Errorf("first vest %+v: want 400 units on 2031-03-14", first)
	}
	if ibkr := d.Account("ibkr"); len(ibkr.Returns) != 12 {
		t.Errorf("IBKR has %d monthly returns, want one for each of the 12 months", len(ibkr.Returns))
	}
}

// TestNetWorthSeries checks net worth for every month against the series
// worked out by hand (balances × rates, see fixture.yaml), including the two
// the methodology page shows.
func TestNetWorthSeries(t *testing.T) {
	d := mustFixture(t)
	want := map[string]float64{
		"2025-10": 2237652.80,
		"2025-11": 2250159.80,
		"2025-12": 2271631.60,
		"2026-01": 2243221.60,
		"2026-02": 2249755.20,
		"2026-03": 2261924,
		"2026-04": 2299613.80,
		"2026-05": 2313408.80,
		"2026-06": 2323878.40,
		"2026-07": 2365805.40,
		"2026-08": 2379455.80,
		"2026-09": 2394755,
	}
	got := map[string]float64{}
	for _, m := range d.Months() {
		nw, err := d.NetWorth(m)
		if err != nil {
			t.Fatal(err)
		}
		got[m] = nw
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("net worth by month (-want +got):\n%s", diff)
	}
	// The seed's working for March: 72,480 + 200,000 + 262,000×1.342 +
	// 37,840 + 1,600,000.
	mar := map[string]float64{"operating-cash": 72480, "fixed-deposit": 200000, "ibkr": 262000, "yen-savings": 4300000, "residence": 1600000}
	for id, b := range mar {
		if g := d.Account(id).Balances["2026-03"]; g != b {
			t.Errorf("%s at 2026-03 is %v, want %v as the seed's working shows", id, g, b)
		}
	}
	if _, err := d.NetWorth("2024-01"); err == nil {
		t.Errorf("NetWorth(2024-01) succeeded for a month with no data")
	}
}

// TestMarchNearestIsDecember checks the seed's claim behind the March
// case's 0.25% tolerance: December 2025 is the nearest other month, 0.43%
// away, and every other month is further.
func TestMarchNearestIsDecember(t *testing.T) {
	d := mustFixture(t)
	mar, _ := d.NetWorth("2026-03")
	nearest, dist := "", math.Inf(1)
	for _, m := range d.Months() {
		if m == "2026-03" {
			continue
		}
		nw, _ := d.NetWorth(m)
		if r := math.Abs(nw-mar) / mar; r < dist {
			nearest, dist = m, r
		}
	}
	if nearest != "2025-12" || math.Round(dist*10000) != 43 {
		t.Errorf("nearest month to March 2026 is %s, %.4f%% away: want 2025-12 at 0.43%%", nearest, dist*100)
	}
}

// TestNoPriceInFixture: the household has units and no market prices; the
// word must not appear even in a comment, or a model could be handed one.
func TestNoPriceInFixture(t *testing.T) {
	if strings.Contains(strings.ToLower(string(fixtureYAML)), "price") {
		t.Errorf("fixture.yaml mentions a price")
	}
}

func TestLoadFixtureMatchesEmbedded(t *testing.T) {
	got, err := LoadFixture("fixture.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(mustFixture(t), got); diff != "" {
		t.Errorf("LoadFixture(fixture.yaml) differs from Fixture() (-embedded +file):\n%s", diff)
	}
}

func TestFixtureIsFreshEachCall(t *testing.T) {
	a, b := mustFixture(t), mustFixture(t)
	a.Accounts[0].Balances["2026-09"] = 1
	if b.Accounts[0].Balances["2026-09"] != 84250 {
		t.Errorf("changing one Fixture() changed another")
	}
}

// TestLoadFixtureErrors checks that a malformed fixture is reported as
// file:line with the problem, at the line a person must edit.
func TestLoadFixtureErrors(t *testing.T) {
	good, err := os.ReadFile("fixture.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// lineAfter returns the line of the first s after the first after.
	lineAfter := func(after, s string) int {
		seen := after == ""
		for i, l := range strings.Split(string(good), "\n") {
			seen = seen || strings.Contains(l, after)
			if seen && strings.Contains(l, s) {
				return i + 1
			}
		}
		t.Fatalf("fixture.yaml has no line with %q after %q", s, after)
		return 0
	}
	lineOfText := func(s string) int { return lineAfter("", s) }
	tests := []struct {
		name     string
		old, new string // a replacement in the good fixture
		line     int
		msg      string
	}{
		{"syntax", "  USD: 1.342", "  USD: 1.342: x", lineOfText("USD: 1.342"), ""},
		{"unknown field", "    kind: deposit", "    kinds: deposit", lineOfText("kind: deposit"), `unknown field "kinds" in an account`},
		{"type", `      "2026-02": 200000`, `      "2026-02": lots`, lineOfText(`"2026-02": 200000`), "lots"},
		{"unknown currency", "    currency: JPY", "    currency: EUR", lineOfText("currency: JPY"), "EUR"},
		{"unknown owner", "    owners: [arjun]", "    owners: [arun]", lineOfText("owners: [arjun]"), "arun"},
		{"direction", "    direction: outflow\n    amount: 5350", "    direction: out\n    amount: 5350", lineOfText("amount: 5350") - 1, "inflow or outflow"},
		{"missing month", `      "2026-04": 4300000` + "\n", "", lineAfter("id: yen-savings", "balances:"), "no balance for 2026-04"},
		{"control character", "    kind: deposit", "    kind: dep\x01osit", lineOfText("kind: deposit"), "control characters"},
		{"vest order", `      - date: "2031-09-14"`, `      - date: "2030-09-14"`, lineOfText(`date: "2031-09-14"`), "date order"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !strings.Contains(string(good), tt.old) {
				t.Fatalf("fixture.yaml has no %q", tt.old)
			}
			path := filepath.Join(t.TempDir(), "bad.yaml")
			if err := os.WriteFile(path, []byte(strings.Replace(string(good), tt.old, tt.new, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := LoadFixture(path)
			if err == nil {
				t.Fatalf("LoadFixture accepted a fixture with %s", tt.name)
			}
			loc := path + ":" + strconv.Itoa(tt.line) + ":"
			if !strings.Contains(err.Error(), loc) || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %q: want it at %s mentioning %q", err, loc, tt.msg)
			}
		})
	}
}
