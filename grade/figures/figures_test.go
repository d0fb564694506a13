package figures

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// want is one expected figure: its text and value, and what it must be.
type want struct {
	text  string
	value float64
	kind  Kind
	cur   string
	flags string // any of: y(ear) d(ate) l(ist) a(ccount) h(edged) r(ange) p(aren) m (ambiguous)
}

func flagsOf(f Figure) string {
	var b strings.Builder
	for _, x := range []struct {
		on bool
		c  byte
	}{{f.IsYear, 'y'}, {f.IsDate, 'd'}, {f.IsList, 'l'}, {f.IsAccount, 'a'}, {f.Hedged, 'h'}, {f.Range, 'r'}, {f.Paren, 'p'}, {f.Ambiguous, 'm'}} {
		if x.on {
			b.WriteByte(x.c)
		}
	}
	return b.String()
}

func TestExtract(t *testing.T) {
	tests := []struct {
		in   string
		want []want
	}{
		{"Net worth is S$2.39M.", []want{{"S$2.39M", 2.39e6, Money, "SGD", ""}}},
		{"SGD 2,394,755.00 in all", []want{{"SGD 2,394,755.00", 2394755, Money, "SGD", ""}}},
		{"about 2.4 million Singapore dollars", []want{{"2.4 million Singapore dollars", 2.4e6, Money, "SGD", ""}}},
		{"roughly 37.8k", []want{{"37.8k", 37800, Plain, "", ""}}},
		{"up 17.2% on the year", []want{{"17.2%", 17.2, Percent, "", ""}}},
		{"down -3.5% and −0.4 percentage points", []want{{"-3.5%", -3.5, Percent, "", ""}, {"−0.4 percentage points", -0.4, Percent, "", ""}}},
		{"a loss of (1,200) last month", []want{{"(1,200)", -1200, Plain, "", "p"}}},
		{"a loss of ($1,200.50)", []want{{"($1,200.50)", -1200.5, Money, "$", "p"}}},
		{"S$2.39M (SGD 2,394,755)", []want{{"S$2.39M", 2.39e6, Money, "SGD", ""}, {"SGD 2,394,755", 2394755, Money, "SGD", ""}}},
		{"market cap 1.2 bn", []want{{"1.2 bn", 1.2e9, Plain, "", ""}}},
		{"yen ¥4.3m", []want{{"¥4.3m", 4.3e6, Money, "JPY", ""}}},
		{"IBKR holds US$307,500.", []want{{"US$307,500", 307500, Money, "USD", ""}}},
		{"4,300,000 JPY", []want{{"4,300,000 JPY", 4.3e6, Money, "JPY", ""}}},
		{"4.3 million yen", []want{{"4.3 million yen", 4.3e6, Money, "JPY", ""}}},
		{"SGD2,394,755", []want{{"SGD2,394,755", 2394755, Money, "SGD", ""}}},
		{"$2,394,755", []want{{"$2,394,755", 2394755, Money, "$", ""}}},
		{"-$1,200 and $-5", []want{{"-$1,200", -1200, Money, "$", ""}, {"$-5", -5, Money, "$", ""}}},
		{"between 2.3M and 2.4M", []want{{"2.3M", 2.3e6, Plain, "", "r"}, {"2.4M", 2.4e6, Plain, "", "r"}}},
		{"2.3–2.4 million", []want{{"2.3", 2.3e6, Plain, "", "r"}, {"2.4 million", 2.4e6, Plain, "", "r"}}},
		{"S$2.3-2.4M", []want{{"S$2.3", 2.3e6, Money, "SGD", "r"}, {"2.4M", 2.4e6, Money, "SGD", "r"}}},
		{"2 to 3%", []want{{"2", 2, Percent, "", "r"}, {"3%", 3, Percent, "", "r"}}},
		{"2.3 - 2.4 million SGD", []want{{"2.3", 2.3e6, Money, "SGD", "r"}, {"2.4 million SGD", 2.4e6, Money, "SGD", "r"}}},
		{"between 500 and 2.4 million", []want{{"500", 500, Plain, "", "r"}, {"2.4 million", 2.4e6, Plain, "", "r"}}},
		{"**S$2,394,755** and **2.39M**", []want{{"S$2,394,755", 2394755, Money, "SGD", ""}, {"2.39M", 2.39e6, Plain, "", ""}}},
		{"in 2026", []want{{"2026", 2026, Plain, "", "y"}}},
		{"as of 2026-09 and 2026-09-30", []want{{"2026-09", 2026, Plain, "", "yd"}, {"2026-09-30", 2026, Plain, "", "yd"}}},
		{"March 2026", []want{{"2026", 2026, Plain, "", "yd"}}},
		{"on 31 March", []want{{"31", 31, Plain, "", "d"}}},
		{"on March 31st, 2026", []want{{"31st", 31, Plain, "", "d"}, {"2026", 2026, Plain, "", "y"}}},
		{"on 30/09/2026 at 10:30", []want{{"30/09/2026", 30, Plain, "", "d"}, {"10:30", 10, Plain, "", "d"}}},
		{"1. Net worth\n2) Cash", []want{{"1", 1, Plain, "", "l"}, {"2", 2, Plain, "", "l"}}},
		{"account 12345678", []want{{"12345678", 12345678, Plain, "", "a"}}},
		{"card ending in 4521", []want{{"4521", 4521, Plain, "", "a"}}},
		{"ref 98765432109", []want{{"98765432109", 98765432109, Plain, "", "a"}}},
		{"****1234 and #77", []want{{"1234", 1234, Plain, "", "a"}, {"77", 77, Plain, "", "a"}}},
		{"Q3 and v1.2.3 and 192.168.0.1", []want{{"3", 3, Plain, "", "a"}, {"1.2.3", 1, Plain, "", "a"}, {"192.168.0.1", 192.168, Plain, "", "a"}}},
		{"id 0042", []want{{"0042", 42, Plain, "", "a"}}},
		{"1234-5678-9012", []want{{"1234-5678-9012", 1234, Plain, "", "a"}}},
		{"rate 0.0088 and .5%", []want{{"0.0088", 0.0088, Plain, "", ""}, {".5%", 0.5, Percent, "", ""}}},
		{"450 units of VOO, 400 FXTC shares, 600 BND", []want{{"450 units", 450, Count, "", ""}, {"400 FXTC shares", 400, Count, "", ""}, {"600 BND", 600, Count, "", ""}}},
		{"I can't say it was $0.", []want{{"$0", 0, Money, "$", "h"}}},
		{"I don’t have a figure like $520.", []want{{"$520", 520, Money, "$", "h"}}},
		{"I don't have the price, but it is about $520.", []want{{"$520", 520, Money, "$", ""}}},
		{"I don't have an exchange rate so it's US$1.78M", []want{{"US$1.78M", 1.78e6, Money, "USD", ""}}},
		{"I don't have live prices — VOO was $520", []want{{"$520", 520, Money, "$", ""}}},
		{"I don't have live prices - VOO was $520", []want{{"$520", 520, Money, "$", ""}}},
		{"2 394 755 is one number", []want{{"2 394 755", 2394755, Plain, "", ""}}},
		{"in 2025 1 200 is not", []want{{"2025", 2025, Plain, "", "y"}, {"1", 1, Plain, "", ""}, {"200", 200, Plain, "", ""}}},
		{"2\u202f394\u202f755 SGD", []want{{"2\u202f394\u202f755 SGD", 2394755, Money, "SGD", ""}}},
		{"2026-01 -1.37%, 2026-02 1.12%", []want{{"2026-01", 2026, Plain, "", "yd"}, {"-1.37%", -1.37, Percent, "", ""}, {"2026-02", 2026, Plain, "", "yd"}, {"1.12%", 1.12, Percent, "", ""}}},
		{"at 1.342 SGD per USD, 0.0088 SGD/JPY and $520 per unit", []want{{"1.342 SGD per USD", 1.342, Plain, "", ""}, {"0.0088 SGD/JPY", 0.0088, Plain, "", ""}, {"$520", 520, Money, "$", ""}}},
		{"COVID-19", []want{{"19", 19, Plain, "", ""}}},
		{"2 x 3", []want{{"2", 2, Plain, "", ""}, {"3", 3, Plain, "", ""}}},
		{"Umgerechnet rund 37,8 Tsd. SGD.", []want{{"37,8 Tsd. SGD", 37800, Money, "SGD", ""}}},
		{"Rund 1,84 Tsd. € für Lebensmittel", []want{{"1,84 Tsd. €", 1840, Money, "EUR", ""}}},
		{"It was 2.4M. SGD is the currency.", []want{{"2.4M", 2.4e6, Plain, "", ""}}},
		{"Rund 2,5 Mio. Das ist alles.", []want{{"2,5 Mio", 2.5e6, Plain, "", ""}}},
		{"up 2.4M. € figures next", []want{{"2.4M", 2.4e6, Plain, "", ""}}},
		{"Le serveur renvoie 1 912,75.", []want{{"1 912,75", 1912.75, Plain, "", ""}}},
		{"Die Summe ist laut Server 1912,75.", []want{{"1912,75", 1912.75, Plain, "", ""}}},
		{"Das Ergebnis ist −24,5.", []want{{"−24,5", -24.5, Plain, "", ""}}},
		{"Of 4 direct debits since 17 September, 2 debits bounced", []want{{"4", 4, Plain, "", ""}, {"17", 17, Plain, "", "d"}, {"2 debits", 2, Count, "", ""}}},
		{"since March, 3 refunds and 2 transfers", []want{{"3 refunds", 3, Count, "", ""}, {"2 transfers", 2, Count, "", ""}}},
		{"€142.80 — €11.40 more than July's €131.40", []want{{"€142.80", 142.8, Money, "EUR", ""}, {"€11.40", 11.4, Money, "EUR", ""}, {"€131.40", 131.4, Money, "EUR", ""}}},
		{"it fell from 2.4 to 2.3", []want{{"2.4", 2.4, Plain, "", ""}, {"2.3", 2.3, Plain, "", ""}}},
		{"€10 — €12 more than in July", []want{{"€10", 10, Money, "EUR", ""}, {"€12", 12, Money, "EUR", ""}}},
		{"€10 - €12 lower", []want{{"€10", 10, Money, "EUR", ""}, {"€12", 12, Money, "EUR", ""}}},
		{"€10 — €12 in all", []want{{"€10", 10, Money, "EUR", "r"}, {"€12", 12, Money, "EUR", "r"}}},
		{"-5 to -3%", []want{{"-5", -5, Percent, "", "r"}, {"-3%", -3, Percent, "", "r"}}},
		{"on 17 September, 2 charges", []want{{"17", 17, Plain, "", "d"}, {"2 charges", 2, Count, "", ""}}},
	}
	for _, tt := range tests {
		got := Extract(tt.in)
		if len(got) != len(tt.want) {
			t.Errorf("Extract(%q): got %d figures %v, want %d", tt.in, len(got), texts(got), len(tt.want))
			continue
		}
		for i, w := range tt.want {
			g := got[i]
			if g.Text != w.text || math.Abs(g.Value-w.value) > 1e-9*math.Max(1, math.Abs(w.value)) || g.Kind != w.kind || g.Currency != w.cur || flagsOf(g) != w.flags {
				t.Errorf("Extract(%q)[%d] = %q %v %s %q [%s], want %q %v %s %q [%s]",
					tt.in, i, g.Text, g.Value, g.Kind, g.Currency, flagsOf(g), w.text, w.value, w.kind, w.cur, w.flags)
			}
		}
	}
}

func texts(fs []Figure) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Text)
	}
	return out
}

func TestPrecision(t *testing.T) {
	tests := []struct {
		in              string
		precision, step float64
		sig             int
	}{
		{"2.39M", 1e4, 1e4, 3},
		{"2,394,755", 1, 1, 7},
		{"2,390,000", 1, 1e4, 3},
		{"2,394,755.00", 0.01, 0.01, 9},
		{"2.4 million", 1e5, 1e5, 2},
		{"17.2%", 0.1, 0.1, 3},
		{"0.0088", 1e-4, 1e-4, 2},
		{"$0", 1, 1, 1},
	}
	for _, tt := range tests {
		fs := Extract(tt.in)
		if len(fs) != 1 {
			t.Fatalf("Extract(%q): %d figures", tt.in, len(fs))
		}
		f := fs[0]
		if !close(f.Precision, tt.precision) || !close(f.Step, tt.step) || f.SigDigits != tt.sig {
			t.Errorf("%q: precision %v step %v sig %d, want %v %v %d", tt.in, f.Precision, f.Step, f.SigDigits, tt.precision, tt.step, tt.sig)
		}
	}
}

func close(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

func TestTable(t *testing.T) {
	in := `| Account | Currency | Balance | In SGD | Share (%) | Units |
|---|---|---:|---:|---:|---:|
| IBKR Brokerage | USD | 307,500 | 412,665 | 17.2 | 450 |
| Yen Savings | JPY | 4,300,000 | 37,840 | 1.6 | 0 |
| **Net worth** | | | **2,394,755** | 100 | |

Then 2,394,755 outside the table.`
	got := Extract(in)
	want := []struct {
		text string
		kind Kind
		cur  string
	}{
		{"307,500", Money, "USD"}, {"412,665", Money, "SGD"}, {"17.2", Percent, ""}, {"450", Count, ""},
		{"4,300,000", Money, "JPY"}, {"37,840", Money, "SGD"}, {"1.6", Percent, ""}, {"0", Count, ""},
		{"2,394,755", Money, "SGD"}, {"100", Percent, ""},
		{"2,394,755", Plain, ""},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d figures %q, want %d", len(got), texts(got), len(want))
	}
	for i, w := range want {
		if got[i].Text != w.text || got[i].Kind != w.kind || got[i].Currency != w.cur {
			t.Errorf("[%d] = %q %s %q, want %q %s %q", i, got[i].Text, got[i].Kind, got[i].Currency, w.text, w.kind, w.cur)
		}
	}
}

func TestClaims(t *testing.T) {
	in := "1. In March 2026 account 12345678 held S$2.39M. I can't say it was $0."
	got := Claims(in)
	if len(got) != 1 || got[0].Text != "S$2.39M" {
		t.Errorf("Claims = %q, want [S$2.39M]", texts(got))
	}
}

// checkInvariants is what Extract promises for any input, with no locale
// and under each decimal mark.
func checkInvariants(t *testing.T, in string) {
	t.Helper()
	for _, o := range []Options{{}, {Decimal: '.'}, {Decimal: ','}} {
		checkInvariantsWith(t, in, o)
	}
}

func checkInvariantsWith(t *testing.T, in string, o Options) {
	t.Helper()
	prevEnd := 0
	for _, f := range ExtractWith(in, o) {
		if f.Start < prevEnd || f.Start >= f.End || f.End > len(in) {
			t.Fatalf("Extract(%q): span [%d,%d) out of order or bounds (previous ended at %d)", in, f.Start, f.End, prevEnd)
		}
		prevEnd = f.End
		if in[f.Start:f.End] != f.Text {
			t.Fatalf("Extract(%q): Text %q is not the text at [%d,%d) %q", in, f.Text, f.Start, f.End, in[f.Start:f.End])
		}
		if utf8.ValidString(in) && !utf8.ValidString(f.Text) {
			t.Fatalf("Extract(%q): span %q cuts a character", in, f.Text)
		}
		if math.IsNaN(f.Value) || math.IsInf(f.Value, 0) || math.IsNaN(f.Alt) || math.IsInf(f.Alt, 0) {
			t.Fatalf("Extract(%q): %q has value %v (alt %v)", in, f.Text, f.Value, f.Alt)
		}
		if f.Ambiguous && (o.Decimal != 0 || f.Alt == f.Value) || !f.Ambiguous && f.Alt != 0 {
			t.Fatalf("ExtractWith(%q, %q): %q ambiguous %v with alt %v", in, o.Decimal, f.Text, f.Ambiguous, f.Alt)
		}
		digits := strings.Map(func(r rune) rune {
			if r >= '0' && r <= '9' {
				return r
			}
			return -1
		}, f.Text)
		if digits == "" {
			t.Fatalf("Extract(%q): %q holds no digit", in, f.Text)
		}
		// The value's leading digit is one the text holds: a scale word
		// moves the point, it never makes up a digit.
		if f.Value != 0 && !f.IsAccount && !f.IsDate && f.SigDigits <= 15 {
			lead := strconv.FormatFloat(math.Abs(f.Value), 'e', -1, 64)[0]
			if first := strings.TrimLeft(digits, "0"); first == "" || first[0] != lead {
				t.Fatalf("Extract(%q): %q read as %v", in, f.Text, f.Value)
			}
		}
	}
}

func TestInvariants(t *testing.T) {
	for _, in := range []string{"", "0", ".", "-", "(", "$", "S$", "1,", "1,2", ",123", "9.", "1e9", "(1,200", "1,200)", "|1|\n|-|\n|2|",
		"between and 3", "2 - - 3", "¥", "1\xff2", "\xe2\x88\x92", "−", "99999999999999999999999999", "0.000000000000000000001M",
		strings.Repeat("9", 400), "1" + strings.Repeat(",000", 120), "2.3–", "–2.4"} {
		checkInvariants(t, in)
	}
}

func FuzzExtract(f *testing.F) {
	for _, s := range []string{
		"Net worth is S$2.39M (SGD 2,394,755.00), about 2.4 million Singapore dollars.",
		"¥4.3m, 37.8k, 17.2%, -3.5%, (1,200), 1.2 bn, US$307,500",
		"between 2.3M and 2.4M; 2.3–2.4 million",
		"1. In March 2026 (2026-09-30, 31 March) account 12345678 ****1234",
		"I can't say it was $0. I don't have a figure like $X.",
		"| Account | Currency | Balance |\n|---|---|---:|\n| IBKR | USD | 307,500 |",
		"450 VOO units and 400 FXTC shares",
		"region,units,revenue_eur\nSouth,845,25350\nEast,\"1,234\",-3.5",
		`[845,250,{"a":"1,234","b":[-5,-6.5]}]`,
		"a\tb\n1,234\t-3.5\n| x | y |\n|---|---|\n|1,234|(1,200)|",
		"25350EUR EUR25350 30kg 16GB 845,25350 1,234,5678 x,-5",
		"2 394 755, 2'394'755, 2’394’755, 2.394.755,50 and 1.234,56; 2\u00a0394\u2009755\u202f000",
		"16.800 € and 16.800 EUR, 1,5 %, 16,80 €, 2,5 Mio, €16,800, 16 800 €, 2,394,755 SGD, 0,125 €",
		"1.500 or $1.500 or 1,500; in 2025 1 200 people; version 1.100.200 at 10.100.200.250, phone 555 123 456",
		`[1.500,"1.234,56 €"] 30.09.2026 +1 555 123 4567 5 €10`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		checkInvariants(t, in)
	})
}

func BenchmarkExtract(b *testing.B) {
	in := strings.Repeat("Net worth is S$2.39M (SGD 2,394,755.00) as of 2026-09; I can't say it was $0. ", 50)
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		Extract(in)
	}
}
