package figures

import (
	"math"
	"strings"
)

// A recogniser reads one shape of number that starts at i (at its first
// digit, or its decimal point). When the shape is there it adds what it
// read to x.figs and returns where scanning goes on, and true; otherwise
// it adds nothing and returns false.
type recogniser func(x *extractor, i int) (int, bool)

// recognisers are tried in order at each number; the first that applies
// reads it. The last one, figure, always applies.
var recognisers = []struct {
	name string
	read recogniser
}{
	{"identifier", (*extractor).identifier},
	{"date", (*extractor).date},
	{"dashed account", (*extractor).dashedAccount},
	{"version", (*extractor).version},
	{"figure", (*extractor).figure},
}

// number reads the number that starts at i and returns where scanning
// goes on.
func (x *extractor) number(i int) int {
	for _, r := range recognisers {
		if end, ok := r.read(x, i); ok {
			return end
		}
	}
	return i + 1
}

// identifier reads a number glued to a word on its left: part of an
// identifier ("Q3", "FY2026", "v2", "A1"), unless the word is a currency
// ("SGD2,000"). It runs on through letters, digits and points, not
// commas: "A1,5" is an identifier and a 5.
func (x *extractor) identifier(i int) (int, bool) {
	s := x.s
	ws := wordStart(s, i)
	if ws == i || currencyCode(s[ws:i]) != "" {
		return 0, false
	}
	j := i
	for j < len(s) && (isDigit(s[j]) || isWordByte(s[j]) || s[j] == '.' && j+1 < len(s) && isDigit(s[j+1])) {
		j++
	}
	x.add(Figure{Value: leadingValue(s[i:j]), Kind: Plain, Start: i, End: j, Precision: 1, Step: 1, SigDigits: 1, IsAccount: true})
	return j, true
}

// date reads a date or a time ("2026-09-30", "30/09/2026", "10:30am").
func (x *extractor) date(i int) (int, bool) {
	end, f, ok := x.dateAt(i)
	if ok {
		x.add(f)
	}
	return end, ok
}

// dashedAccount reads an account number written in dashed groups of at
// least eight digits in all ("1234-5678-9012").
func (x *extractor) dashedAccount(i int) (int, bool) {
	s := x.s
	m := reAccountDashes.FindString(s[i:])
	if m == "" || !boundaryAfter(s, i+len(m)) || countDigits(m) < 8 {
		return 0, false
	}
	x.add(Figure{Value: leadingValue(m), Kind: Plain, Start: i, End: i + len(m), Precision: 1, Step: 1, SigDigits: len(m), IsAccount: true})
	return i + len(m), true
}

// version reads a run of numbers joined by points, a version or an
// address ("1.2.3", "192.168.0.1"): not a figure.
func (x *extractor) version(i int) (int, bool) {
	c := x.readCore(i)
	if c.junk <= c.end {
		return 0, false
	}
	x.add(Figure{Value: c.value(1), Kind: Plain, Start: i, End: c.junk, Precision: 1, Step: 1, SigDigits: 1, IsAccount: true})
	return c.junk, true
}

// figure reads a number with what is written around it: a sign, a
// currency, an accounting parenthesis, a scale word, a percent, what it
// counts or the unit it is in. It always applies.
func (x *extractor) figure(i int) (int, bool) {
	c := x.readCore(i)
	f := Figure{Kind: Plain, Decimals: len(c.frac), Scale: 1}
	start, sign := x.before(i, &f)
	paren := x.openParen(start)
	end := x.quantity(c, &f)
	end = x.gluedWord(start, end, &f)
	if sign < 0 {
		f.Value = -f.Value
	}
	f.Signed = sign != 0
	if paren && sign == 0 && accountingParen(x.s, end, c, f) {
		f.Paren, f.Signed = true, true
		f.Value = -f.Value
		start--
		end++
	}
	f.Start, f.End = start, end
	if c.ambiguous && f.Scale == 1 && !strings.Contains(f.Unit, " per ") {
		// "1.500" may be 1.5 or 1,500; an exchange rate ("1.342 SGD per
		// USD") or a scaled figure ("1.500M") is not read as grouped.
		f.Ambiguous = true
		f.Alt = c.altValue(1)
		if f.Value < 0 {
			f.Alt = -f.Alt
		}
	}
	x.plainIntFlags(&f, c)
	x.add(f)
	return end, true
}

// before reads the sign and currency written before the number at i
// ("-$1,200", "SGD 2,000", "$-5"), sets f's currency, and returns where
// the figure starts and its sign (-1, +1, or 0 when none is written).
func (x *extractor) before(i int, f *Figure) (int, int) {
	start, sign := x.signBefore(i)
	cur, cs := x.currencyBefore(start)
	if cur == "" {
		return start, sign
	}
	start, f.Currency = cs, cur
	if sign == 0 {
		start, sign = x.signBefore(start)
	}
	return start, sign
}

// openParen reports whether an accounting parenthesis opens right before
// start: "(1,200)" is a negative, but "S$2.39M (SGD 2,394,755)" annotates
// the figure before it.
func (x *extractor) openParen(start int) bool {
	s := x.s
	return start > x.lastEnd && start > 0 && s[start-1] == '(' &&
		(len(x.figs) == 0 || strings.TrimSpace(s[x.lastEnd:start-1]) != "")
}

// accountingParen reports whether the parenthesis closes right after the
// figure f, read from c and ending at end, so that it is a negative
// amount: a money figure, or one written with separators or decimals.
func accountingParen(s string, end int, c core, f Figure) bool {
	return end < len(s) && s[end] == ')' && f.Kind != Percent && f.Kind != Count &&
		(c.sep || f.Currency != "" || len(c.frac) > 0)
}

// quantity reads what comes after the number c: a scale word, then a
// percent or a currency, then what is counted or the unit of a measure.
// It sets f's value, scale, precision and kind, and returns where the
// figure ends.
func (x *extractor) quantity(c core, f *Figure) int {
	s := x.s
	end := c.end
	if sc, e := scaleAfter(s, end); sc != 0 {
		f.Scale, end = sc, scaleDot(s, e)
	}
	pct := false
	if e, ok := percentAfter(s, end); ok {
		pct, end = true, e
	} else if cur, e := currencyAfter(s, end); cur != "" {
		if f.Currency == "" || f.Currency == "$" {
			f.Currency = cur
		}
		end = e
	}
	f.Value = c.value(f.Scale)
	f.Precision = math.Pow(10, -float64(len(c.frac))) * f.Scale
	f.SigDigits, f.Step = significance(c.intDigits, c.frac, f.Scale)
	if f.Currency != "" {
		if e, unit, ok := rateAfter(s, end); ok {
			// "1.342 SGD per USD" is an exchange rate, not money.
			f.Unit = f.Currency + " per " + unit
			f.Currency = ""
			end = e
		}
	}
	switch {
	case f.Currency != "":
		f.Kind = Money
	case pct:
		f.Kind = Percent
	}
	yearLike := len(c.intDigits) == 4 && !c.sep && len(c.frac) == 0 && f.Value >= 1900 && f.Value <= 2100
	if f.Kind != Plain || f.Scale != 1 || yearLike {
		return end
	}
	if unit, e := countAfter(s, end); unit != "" {
		f.Kind, f.Unit = Count, unit
		return e
	}
	if unit, e := unitAfter(s, end); unit != "" {
		f.Unit = unit
		return e
	}
	return end
}

// gluedWord reads a word glued on the right of the figure that spans
// [start, end): an ordinal, a time, a multiplier or an identifier ("3D",
// "4G"). It returns where the figure ends.
func (x *extractor) gluedWord(start, end int, f *Figure) int {
	s := x.s
	if end >= len(s) || !wordAt(s, end) {
		return end
	}
	we := wordEnd(s, end)
	switch w := strings.ToLower(s[end:we]); w {
	case "st", "nd", "rd", "th":
		if x.nearMonth(start, we) {
			f.IsDate = true
		}
	case "am", "pm":
		f.IsDate = true
	case "x":
	default:
		f.IsAccount = true
	}
	return we
}

// plainIntFlags flags a plain whole number written without sign,
// separators or unit that is not a figure: a year, a day of a month, a
// list item's number, an account number.
func (x *extractor) plainIntFlags(f *Figure, c core) {
	if c.group == " " && f.Kind == Plain && x.accountContext(f.Start) {
		f.IsAccount = true // "phone 555 123 456"
	}
	if f.Kind != Plain || len(c.frac) != 0 || c.sep || f.Scale != 1 || f.Signed || f.Unit != "" || c.intDigits == "" {
		return
	}
	s := x.s
	start, end := f.Start, f.End
	n := len(c.intDigits)
	switch {
	case n == 4 && f.Value >= 1900 && f.Value <= 2100:
		f.IsYear = true
		if x.nearMonth(start, end) {
			f.IsDate = true
		}
	case n <= 2 && f.Value >= 1 && f.Value <= 31 && x.nearMonth(start, end):
		f.IsDate = true
	}
	if lineStart(s, start) && end < len(s) && (s[end] == '.' || s[end] == ')') && (end+1 == len(s) || isSpace(s[end+1])) {
		f.IsList = true
	}
	if n >= 8 || n >= 2 && c.intDigits[0] == '0' || x.accountContext(start) {
		f.IsAccount = true
	}
}
