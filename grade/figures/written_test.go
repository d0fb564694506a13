package figures

import (
	"testing"
)

// TestWrittenForms reads numbers as people write them around the world:
// grouped with spaces, apostrophes and points, with decimal commas, with
// the currency before or after. Each input is one figure.
func TestWrittenForms(t *testing.T) {
	tests := []struct {
		in    string
		value float64
		kind  Kind
		cur   string
	}{
		{"2,394,755", 2394755, Plain, ""},
		{"2 394 755", 2394755, Plain, ""},
		{"2\u00a0394\u00a0755", 2394755, Plain, ""},
		{"2\u2009394\u2009755", 2394755, Plain, ""},
		{"2\u202f394\u202f755", 2394755, Plain, ""},
		{"2'394'755", 2394755, Plain, ""},
		{"2’394’755", 2394755, Plain, ""},
		{"2.394.755", 2394755, Plain, ""},
		{"2.394.755,50", 2394755.5, Plain, ""},
		{"1.234,56", 1234.56, Plain, ""},
		{"16.800 €", 16800, Money, "EUR"},
		{"16.800 EUR", 16800, Money, "EUR"},
		{"16.800€", 16800, Money, "EUR"},
		{"1,5 %", 1.5, Percent, ""},
		{"1,5%", 1.5, Percent, ""},
		{"16,80 €", 16.8, Money, "EUR"},
		{"2,5 Mio", 2.5e6, Plain, ""},
		{"EUR 16,80", 16.8, Money, "EUR"},
		{"€16,800", 16800, Money, "EUR"},
		{"16 800 €", 16800, Money, "EUR"},
		{"16\u202f800\u00a0€", 16800, Money, "EUR"},
		{"SGD 2,394,755", 2394755, Money, "SGD"},
		{"2,394,755 SGD", 2394755, Money, "SGD"},
		{"SGD 1 200", 1200, Money, "SGD"},
		{"5 000", 5000, Plain, ""},
		{"2 394 755,50 €", 2394755.5, Money, "EUR"},
		{"CHF 2'394'755.50", 2394755.5, Money, "CHF"},
		{"-1.234,56 €", -1234.56, Money, "EUR"},
		{"2.39M", 2.39e6, Plain, ""},
		{"2.4 million", 2.4e6, Plain, ""},
		{"37.8k", 37800, Plain, ""},
		{"1.2 bn", 1.2e9, Plain, ""},
		{"1,2 Mrd €", 1.2e9, Money, "EUR"},
		{"1.000.000", 1e6, Plain, ""},
		{"37,8 Tsd. SGD", 37800, Money, "SGD"},
		{"1,84 Tsd. €", 1840, Money, "EUR"},
		{"2,39 Mio. SGD", 2.39e6, Money, "SGD"},
		{"1,2 Mrd. €", 1.2e9, Money, "EUR"},
		{"109,5 Tsd.\u00a0€", 109500, Money, "EUR"},
		{"12 Tsd", 12000, Plain, ""},
		{"1 912,75", 1912.75, Plain, ""},
		{"1\u202f912,5", 1912.5, Plain, ""},
		{"-12 500,40", -12500.4, Plain, ""},
		{"1912,75", 1912.75, Plain, ""},
		{"−24,5", -24.5, Plain, ""},
		{"-3,25", -3.25, Plain, ""},
		{"+1,5", 1.5, Plain, ""},
	}
	for _, tt := range tests {
		got := Extract("it is " + tt.in + " in all")
		if len(got) != 1 {
			t.Errorf("Extract(%q): got %d figures %q, want one", tt.in, len(got), texts(got))
			continue
		}
		g := got[0]
		if g.Text != tt.in || !close(g.Value, tt.value) || g.Kind != tt.kind || g.Currency != tt.cur || !g.Claim() {
			t.Errorf("Extract(%q) = %q %v %s %q [%s], want %v %s %q", tt.in, g.Text, g.Value, g.Kind, g.Currency, flagsOf(g), tt.value, tt.kind, tt.cur)
		}
	}
}

// TestWrittenFormsNotFigures keeps what only looks like a grouped number
// what it is: a year and a count, a version, an address, a date, a time,
// a telephone number, a list, and values in JSON and CSV.
func TestWrittenFormsNotFigures(t *testing.T) {
	tests := []struct {
		in   string
		want []want
	}{
		{"in 2025 1 200 people", []want{{"2025", 2025, Plain, "", "y"}, {"1", 1, Plain, "", ""}, {"200 people", 200, Count, "", ""}}},
		{"version 1.100.200", []want{{"1.100.200", 1.1, Plain, "", "a"}}},
		{"at 10.100.200.250", []want{{"10.100.200.250", 10.1, Plain, "", "a"}}},
		{"on 30.09.2026 at 10:30", []want{{"30.09.2026", 30, Plain, "", "d"}, {"10:30", 10, Plain, "", "d"}}},
		{"phone 555 123 456", []want{{"555 123 456", 555123456, Plain, "", "a"}}},
		{"+1 555 123 4567", []want{{"+1", 1, Plain, "", ""}, {"555", 555, Plain, "", ""}, {"123", 123, Plain, "", ""}, {"4567", 4567, Plain, "", ""}}},
		{"2 394", []want{{"2", 2, Plain, "", ""}, {"394", 394, Plain, "", ""}}},
		{"x,1912,75", []want{{"1912", 1912, Plain, "", "y"}, {"75", 75, Plain, "", ""}}},
		{"[1912,75] and [-24,5]", []want{{"1912", 1912, Plain, "", "y"}, {"75", 75, Plain, "", ""}, {"-24", -24, Plain, "", ""}, {"5", 5, Plain, "", ""}}},
		{"a,b\n1912,75\n-24,5", []want{{"1912", 1912, Plain, "", "y"}, {"75", 75, Plain, "", ""}, {"-24", -24, Plain, "", ""}, {"5", 5, Plain, "", ""}}},
		{"x,-24,5", []want{{"-24", -24, Plain, "", ""}, {"5", 5, Plain, "", ""}}},
		{"1912,755 and 12,34", []want{{"1912", 1912, Plain, "", "y"}, {"755", 755, Plain, "", ""}, {"12", 12, Plain, "", ""}, {"34", 34, Plain, "", ""}}},
		{"2 394,5678", []want{{"2", 2, Plain, "", ""}, {"394", 394, Plain, "", ""}, {"5678", 5678, Plain, "", ""}}},
		{"1,23 and 845,25350", []want{{"1", 1, Plain, "", ""}, {"23", 23, Plain, "", ""}, {"845", 845, Plain, "", ""}, {"25350", 25350, Plain, "", ""}}},
		{"1.352,103.8198", []want{{"1.352", 1.352, Plain, "", ""}, {"103.8198", 103.8198, Plain, "", ""}}},
		{"[1.500,2.394]", []want{{"1.500", 1.5, Plain, "", ""}, {"2.394", 2.394, Plain, "", ""}}},
		{`{"a":1,"b":"1.234,56 €"}`, []want{{"1", 1, Plain, "", ""}, {"1.234,56 €", 1234.56, Money, "EUR", ""}}},
		{"x,y\n1,5\n2,500", []want{{"1", 1, Plain, "", ""}, {"5", 5, Plain, "", ""}, {"2", 2, Plain, "", ""}, {"500", 500, Plain, "", ""}}},
		{"at 1.342 SGD per USD", []want{{"1.342 SGD per USD", 1.342, Plain, "", ""}}},
		{"rows 1,5 %", []want{{"1,5 %", 1.5, Percent, "", ""}}},
		{"5 €10", []want{{"5", 5, Plain, "", ""}, {"€10", 10, Money, "EUR", ""}}},
		{"1. Cash 1 200", []want{{"1", 1, Plain, "", "l"}, {"1", 1, Plain, "", ""}, {"200", 200, Plain, "", ""}}},
	}
	for _, tt := range tests {
		got := Extract(tt.in)
		if len(got) != len(tt.want) {
			t.Errorf("Extract(%q): got %d figures %q, want %d", tt.in, len(got), texts(got), len(tt.want))
			continue
		}
		for i, w := range tt.want {
			g := got[i]
			if g.Text != w.text || !close(g.Value, w.value) || g.Kind != w.kind || g.Currency != w.cur || flagsOf(g) != w.flags {
				t.Errorf("Extract(%q)[%d] = %q %v %s %q [%s], want %q %v %s %q [%s]",
					tt.in, i, g.Text, g.Value, g.Kind, g.Currency, flagsOf(g), w.text, w.value, w.kind, w.cur, w.flags)
			}
		}
	}
}

// TestDecimalMark reads the forms whose reading rests on the decimal mark:
// with no locale a lone point before three digits is reported ambiguous,
// and a locale settles it.
func TestDecimalMark(t *testing.T) {
	tests := []struct {
		in        string
		decimal   byte
		value     float64
		ambiguous bool
		alt       float64
	}{
		{"1.500", 0, 1.5, true, 1500},
		{"$1.500", 0, 1.5, true, 1500},
		{"-1.500%", 0, -1.5, true, -1500},
		{"1,500", 0, 1500, false, 0},
		{"16.800 €", 0, 16800, false, 0},
		{"0.125", 0, 0.125, false, 0},
		{"1.500M", 0, 1.5e6, false, 0},
		{"1.5", 0, 1.5, false, 0},
		{"1.5000", 0, 1.5, false, 0},
		{"1234.567", 0, 1234.567, false, 0},
		{"1.500", '.', 1.5, false, 0},
		{"1,500", '.', 1500, false, 0},
		{"1,5", '.', 1, false, 0},
		{"1.500", ',', 1500, false, 0},
		{"1,500", ',', 1.5, false, 0},
		{"1,5", ',', 1.5, false, 0},
		{"1234,5", ',', 1234.5, false, 0},
		{"1,234,567", ',', 1234567, false, 0},
		{"1,234.5", ',', 1234.5, false, 0},
		{"12.5", ',', 12.5, false, 0},
		{"1.234.567,89", ',', 1234567.89, false, 0},
		{"2.394.755", '.', 2394755, false, 0},
		{"1912,75", 0, 1912.75, false, 0},
		{"1912,75", '.', 1912.75, false, 0},
		{"1912,75", ',', 1912.75, false, 0},
		{"−24,5", 0, -24.5, false, 0},
		{"−24,5", ',', -24.5, false, 0},
		{"1,23", ',', 1.23, false, 0},
		{"3,5", ',', 3.5, false, 0},
	}
	for _, tt := range tests {
		got := ExtractWith(tt.in, Options{Decimal: tt.decimal})
		if len(got) == 0 {
			t.Errorf("ExtractWith(%q, %q): no figure", tt.in, tt.decimal)
			continue
		}
		g := got[0]
		if !close(g.Value, tt.value) || g.Ambiguous != tt.ambiguous || !close(g.Alt, tt.alt) {
			t.Errorf("ExtractWith(%q, %q) = %v ambiguous %v alt %v, want %v %v %v", tt.in, tt.decimal, g.Value, g.Ambiguous, g.Alt, tt.value, tt.ambiguous, tt.alt)
		}
	}
	// JSON numbers are JSON's, whatever the locale.
	for _, in := range []string{"[1.500]", `{"rate":1.500}`} {
		if got := ExtractWith(in, Options{Decimal: ','}); len(got) != 1 || got[0].Value != 1.5 || got[0].Ambiguous {
			t.Errorf("ExtractWith(%q, ','): %+v, want 1.5", in, got)
		}
	}
}
