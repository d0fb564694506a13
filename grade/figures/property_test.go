package figures

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// numberFormat is one way people write a number: the mark that groups
// thousands ("" for none) and the decimal mark.
type numberFormat struct {
	name    string
	group   string
	decimal byte
}

var numberFormats = []numberFormat{
	{"en", ",", '.'},
	{"plain", "", '.'},
	{"de", ".", ','},
	{"de ungrouped", "", ','},
	{"fr", " ", ','},
	{"fr no-break", "\u00a0", ','},
	{"fr narrow", "\u202f", ','},
	{"fr thin", "\u2009", ','},
	{"ch", "'", '.'},
	{"ch typographic", "’", '.'},
}

// render writes v with decimals digits after the decimal mark, in f.
func render(v float64, decimals int, f numberFormat) string {
	t := strconv.FormatFloat(math.Abs(v), 'f', decimals, 64)
	intPart, frac, _ := strings.Cut(t, ".")
	var b strings.Builder
	if v < 0 {
		b.WriteByte('-')
	}
	for k, d := range intPart {
		if k > 0 && (len(intPart)-k)%3 == 0 {
			b.WriteString(f.group)
		}
		b.WriteRune(d)
	}
	if frac != "" {
		b.WriteByte(f.decimal)
		b.WriteString(frac)
	}
	return b.String()
}

// writtenFigure is a value written as a figure of some kind.
type writtenFigure struct {
	text     string
	value    float64
	kind     Kind
	currency string
	attached bool // a currency or percent is attached: no list reading
}

// writeFigures renders v in format f as money (currency code or symbol,
// before or after), as a percent, as a count and as a plain number.
func writeFigures(v float64, decimals int, f numberFormat) []writtenFigure {
	n := render(v, decimals, f)
	abs := render(math.Abs(v), decimals, f)
	sign := ""
	if v < 0 {
		sign = "-"
	}
	out := []writtenFigure{
		{"SGD " + n, v, Money, "SGD", true},
		{n + " SGD", v, Money, "SGD", true},
		{n + " EUR", v, Money, "EUR", true},
		{n + " €", v, Money, "EUR", true},
		{n + "€", v, Money, "EUR", true},
		{sign + "€" + abs, v, Money, "EUR", true},
		{sign + "$" + abs, v, Money, "$", true},
		{n + "%", v, Percent, "", true},
		{n + " %", v, Percent, "", true},
	}
	if decimals == 0 && v >= 0 {
		out = append(out, writtenFigure{n + " units", v, Count, "", false})
	}
	// Plain numbers need their groups to be read as one: "12345678" is an
	// identifier, and "1 500" may be two numbers.
	if f.group != "" && (decimals == 0 && v >= 1000 || decimals > 0 && v >= 1000000) && (f.group != " " || v >= 1000000) {
		out = append(out, writtenFigure{n, v, Plain, "", false})
	}
	return out
}

// TestWrittenValuesReadBack renders many values in every format it
// supports and reads each back: under the format's own decimal mark it
// is the value written, of its kind and currency; with no locale it is
// the value written or is marked Ambiguous with the value as Alt, except
// for a decimal comma with nothing attached to tell it from a list.
func TestWrittenValuesReadBack(t *testing.T) {
	type value struct {
		v        float64
		decimals int
	}
	var values []value
	for _, v := range []float64{0, 7, 42, 999, 1000, 1500, 12345, 100000, 2394755, 1234567890} {
		values = append(values, value{v, 0}, value{-v, 0})
	}
	for _, v := range []float64{0.5, 1.25, 16.8, 999.99, 1234.56, 16800.5, 2394755.5, 12345678.9} {
		values = append(values, value{v, 2}, value{-v, 2}, value{v, 1})
	}
	values = append(values, value{1.5, 3}, value{1234.567, 3}, value{0.125, 3})
	for _, f := range numberFormats {
		for _, val := range values {
			for _, w := range writeFigures(val.v, val.decimals, f) {
				in := "The total is " + w.text + " today."
				want, _ := strconv.ParseFloat(strconv.FormatFloat(val.v, 'f', val.decimals, 64), 64)
				for _, o := range []Options{{Decimal: f.decimal}, {}} {
					got := ExtractWith(in, o)
					if o.Decimal == 0 && f.decimal == ',' && !w.attached && val.decimals > 0 {
						continue // "1,5" alone is a list without a locale
					}
					if len(got) != 1 {
						t.Errorf("%s: ExtractWith(%q, %q): %d figures %q, want one", f.name, in, o.Decimal, len(got), texts(got))
						continue
					}
					g := got[0]
					ok := close(g.Value, want) || o.Decimal == 0 && g.Ambiguous && close(g.Alt, want)
					if o.Decimal == 0 && val.decimals == 3 && math.Abs(want) < 1000 && math.Abs(want) >= 1 {
						// Without a locale a comma groups ("1,500"), and so
						// does a point with a currency after it ("1.500 €").
						ok = ok || close(g.Value, want*1000)
					}
					if !ok || g.Kind != w.kind || g.Currency != w.currency || g.Text != w.text || !g.Claim() {
						t.Errorf("%s: ExtractWith(%q, %q) = %q %v (alt %v) %s %q [%s], want %v %s %q",
							f.name, in, o.Decimal, g.Text, g.Value, g.Alt, g.Kind, g.Currency, flagsOf(g), want, w.kind, w.currency)
					}
				}
			}
		}
	}
}
