package figures

import (
	"math"
)

// Kind says what a figure measures.
type Kind string

// The kinds of figure.
const (
	// Money is a figure with a currency stated next to it ("S$2.39M",
	// "2,394,755 SGD"), or in its table column's header.
	Money Kind = "money"
	// Percent is a figure with a percent sign or word ("17.2%", "3 percent",
	// "0.4 percentage points"). Its Value is in percent: 17.2, not 0.172.
	Percent Kind = "percent"
	// Count is a figure followed by what it counts ("450 units",
	// "400 FXTC shares", "12 months", "450 VOO").
	Count Kind = "count"
	// Plain is any other number ("2,394,755", "37.8k", "1.342").
	Plain Kind = "plain"
)

// Figure is one number read from a text.
type Figure struct {
	// Value is the number with its sign and scale applied: 2390000 for
	// "S$2.39M", -1200 for "(1,200)", 17.2 for "17.2%".
	Value float64 `json:"value"`
	Kind  Kind    `json:"kind"`
	// Currency is the stated currency as an ISO 4217 code ("SGD" for "S$"
	// or "Singapore dollars", "JPY" for "¥"), "$" for a dollar sign or the
	// word "dollars" with no country, and empty when none is stated.
	Currency string `json:"currency,omitempty"`
	// Unit is what a Count counts ("units", "VOO"), or the unit of
	// measure of a plain figure ("kg" for "30kg", "GB").
	Unit string `json:"unit,omitempty"`
	// Start and End are the byte offsets of the figure's span: Text is
	// exactly text[Start:End], currency, scale word and sign included.
	Start int    `json:"start"`
	End   int    `json:"end"`
	Text  string `json:"text"`
	// Decimals is how many digits were written after the decimal point.
	Decimals int `json:"decimals,omitempty"`
	// Scale is the multiplier a scale word applied: 1e6 for "M" or
	// "million", 1 when there was none.
	Scale float64 `json:"scale"`
	// Precision is the place of the last digit written, in Value's units:
	// 10000 for "2.39M", 1 for "2,394,755", 0.01 for "2,394,755.00".
	Precision float64 `json:"precision"`
	// Step is the place of the last significant digit: Precision, except
	// that an integer's trailing zeros are read as rounding (10000 for
	// "2,390,000").
	Step float64 `json:"step"`
	// SigDigits counts the significant digits written (3 for "2.39M" and
	// for "2,390,000", 7 for "2,394,755").
	SigDigits int `json:"sig_digits"`
	// Signed is true when the figure was written with a sign ("-3.5%",
	// "+2%") or in accounting parentheses.
	Signed bool `json:"signed,omitempty"`
	// Paren is true for an accounting negative, "(1,200)". Parentheses are
	// also used to annotate ("307,500 × 1.342 (412,665)"), so a reader
	// should not trust the sign of such a figure.
	Paren bool `json:"paren,omitempty"`
	// Range is true for either end of a range ("2.3–2.4 million",
	// "between 2.3M and 2.4M"); scale, currency and percent written on one
	// end are applied to the other.
	Range bool `json:"range,omitempty"`
	// RangeFirst is true for the first end of a range; the other end is
	// the next figure Extract returns.
	RangeFirst bool `json:"range_first,omitempty"`
	// IsYear is true for a year ("2026", "March 2026").
	IsYear bool `json:"is_year,omitempty"`
	// IsDate is true for a date or time or a part of one ("2026-09",
	// "31 March", "09/2026", "10:30").
	IsDate bool `json:"is_date,omitempty"`
	// IsList is true for a list item's number ("1." at a line's start).
	IsList bool `json:"is_list,omitempty"`
	// IsAccount is true for account numbers and identifiers: long digit
	// strings without separators, numbers after "account", "#" or a mask
	// ("****1234"), and numbers glued into a word ("Q3", "v1.2.3").
	IsAccount bool `json:"is_account,omitempty"`
	// Hedged is true for a figure the text declines to vouch for: "I can't
	// say it was $0", "I don't have a figure like $X".
	Hedged bool `json:"hedged,omitempty"`
	// Ambiguous is true when the figure's reading rests on a decimal mark
	// no locale settled: "1.500" is read as 1.5, but a text written with
	// a decimal comma means 1,500 by it. It is set only when
	// Options.Decimal is zero.
	Ambiguous bool `json:"ambiguous,omitempty"`
	// Alt is the other reading of an Ambiguous figure, sign and scale
	// applied: 1500 for "1.500".
	Alt float64 `json:"alt,omitempty"`
}

// Options say how numbers are written in the text read. The zero value
// reads the way Extract does.
type Options struct {
	// Decimal is the decimal mark of the text's locale: '.' ("1,500.25"),
	// ',' ("1.500,25"), or zero when none is known. Forms that do not
	// depend on it are read the same whatever it is ("2,394,755",
	// "2.394.755", "1.234,56", "16.800 €", "1,5 %"). It decides the rest:
	// under ',' "1,5" is 1.5, "1,500" is 1.5 and "1.500" is 1500; under
	// '.' and when zero "1,500" is 1500 and "1.500" is 1.5, and when zero
	// such a figure is marked Ambiguous.
	Decimal byte
}

// Claim reports whether the text asserts f as a figure: it is not a year,
// a date, a list number, an account number or identifier, and the text
// does not decline to vouch for it.
func (f Figure) Claim() bool {
	return !f.IsYear && !f.IsDate && !f.IsList && !f.IsAccount && !f.Hedged
}

// Extract returns the numbers in text, in order, read with the zero
// Options.
func Extract(text string) []Figure { return ExtractWith(text, Options{}) }

// ExtractWith returns the numbers in text, in order, read with o.
func ExtractWith(text string, o Options) []Figure {
	x := &extractor{s: text, opt: o}
	x.layout()
	x.scan()
	x.tables()
	x.ranges()
	x.hedges()
	return x.figs
}

// Claims returns the figures of text that are claims (see Figure.Claim),
// read with the zero Options.
func Claims(text string) []Figure { return ClaimsWith(text, Options{}) }

// ClaimsWith returns the figures of text that are claims (see
// Figure.Claim), read with o.
func ClaimsWith(text string, o Options) []Figure {
	var out []Figure
	for _, f := range ExtractWith(text, o) {
		if f.Claim() {
			out = append(out, f)
		}
	}
	return out
}

type extractor struct {
	s    string
	opt  Options
	figs []Figure
	// lastEnd is where the last figure's span ended: the next figure's
	// span never starts before it.
	lastEnd int
	// grids are the tables of s (see layout).
	grids []grid
	// seps marks the commas of s that separate values (see layout); nil
	// when there are none.
	seps []bool
	// raw marks the bytes of s that are JSON outside its strings (see
	// layout); nil when there are none.
	raw []bool
	// core and coreAt cache the last readCore: coreAt is its i+1.
	core   core
	coreAt int
}

func (x *extractor) scan() {
	s := x.s
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case isDigit(c):
		case c == '.' && i+1 < len(s) && isDigit(s[i+1]) && !wordBefore(s, i) && !(i > 0 && s[i-1] == '.'):
		default:
			i++
			continue
		}
		next := x.number(i)
		if next <= i {
			next = i + 1
		}
		i = next
	}
}

func (x *extractor) add(f Figure) {
	f.Text = x.s[f.Start:f.End]
	if f.Scale == 0 {
		f.Scale = 1
	}
	if math.IsInf(f.Value, 0) || math.IsNaN(f.Value) {
		return
	}
	x.figs = append(x.figs, f)
	x.lastEnd = f.End
}
