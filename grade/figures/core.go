package figures

import (
	"math"
	"strconv"
	"strings"
)

// core is the digits of a number as written.
type core struct {
	intDigits string // integer digits, separators removed
	frac      string // digits after the decimal mark
	sep       bool   // written with thousands separators
	group     string // the thousands separator, when sep
	ambiguous bool   // a lone point before three digits no locale settled ("1.500")
	end       int    // end of the number
	junk      int    // end of a malformed run ("1.2.3"), or end
}

func (c core) value(scale float64) float64 {
	digits := c.intDigits
	if digits == "" {
		digits = "0"
	}
	if c.frac != "" {
		digits += "." + c.frac
	}
	exp := 0
	for sc := scale; sc >= 10; sc /= 10 {
		exp++
	}
	v, err := strconv.ParseFloat(digits+"e"+strconv.Itoa(exp), 64)
	if err != nil {
		v, _ = strconv.ParseFloat(digits, 64)
		v *= scale
	}
	return v
}

// altValue is the other reading of an ambiguous core: its point read as a
// thousands separator ("1.500" as 1500).
func (c core) altValue(scale float64) float64 {
	return core{intDigits: c.intDigits + c.frac}.value(scale)
}

// groupSeps are the thousands separators read: a comma, the spaces
// typesetters use inside numbers, an apostrophe (Swiss "2'394'755"), an
// ordinary space and a point. An ordinary space and a point are read with
// more care (see groupsRead).
var groupSeps = []string{",", "\u00a0", "\u202f", "\u2009", "'", "\u2019", " ", "."}

// readCore reads the digits of the number whose first digit (or decimal
// point) is at i: its integer part with any thousands groups, then its
// decimal part.
func (x *extractor) readCore(i int) core {
	if x.coreAt == i+1 {
		return x.core
	}
	s := x.s
	j := digitsEnd(s, i)
	c := core{intDigits: s[i:j]}
	if x.isRaw(i) {
		// A number of JSON is written as JSON writes it: no thousands
		// separators, a point for decimals.
		if j+1 < len(s) && s[j] == '.' && isDigit(s[j+1]) {
			k := digitsEnd(s, j+1)
			c.frac, j = s[j+1:k], k
		}
		c.end, c.junk = j, j
		x.core, x.coreAt = c, i+1
		return c
	}
	if j-i >= 1 && j-i <= 3 {
		if groups, sep, e := x.groups(i, j); e > j {
			c.intDigits, c.sep, c.group, j = s[i:j]+groups, true, sep, e
		}
	}
	j = x.fraction(i, j, &c)
	c.end, c.junk = j, x.junkEnd(j)
	x.core, x.coreAt = c, i+1
	return c
}

// fraction reads the decimal part of the number c, which starts at i and
// whose integer part ends at j, and returns where the number ends.
//
// A point is the decimal mark unless it groups thousands. A comma is one
// when the integer part was grouped with points, spaces or apostrophes
// ("1.234,56", "2 394 755,50"), under a decimal-comma locale ("1,5"),
// before one or two digits after four digits or more or after a sign
// ("1912,75", "−24,5"; see decimalComma), or when a percent, a currency
// or a scale is attached to the number and the comma does not group
// thousands ("1,5 %", "16,80 €", "2,5 Mio", "0,125 €").
func (x *extractor) fraction(i, j int, c *core) int {
	s := x.s
	if j+1 >= len(s) || !isDigit(s[j+1]) {
		return j
	}
	k := digitsEnd(s, j+1)
	switch {
	case s[j] == '.' && c.group != ".":
		c.frac = s[j+1 : k]
		c.ambiguous = x.opt.Decimal == 0 && c.group == "" && j > i && j-i <= 3 && s[i] != '0' && k-j-1 == 3 && !continues(s, k)
		return k
	case s[j] != ',' || x.isSep(j) || continues(s, k) || c.group == ",":
		return j
	}
	ok := c.group != "" || x.opt.Decimal == ',' || k-j-1 <= 2 && x.decimalComma(i, j)
	if !ok && (k-j-1 != 3 || j-i > 3 || s[i] == '0') {
		// Three digits after a comma group thousands ("16,800 €"), unless
		// what comes before could not be grouped ("1234,567 €", "0,125 €").
		ok = x.attached(i, k)
	}
	if ok {
		c.frac = s[j+1 : k]
		return k
	}
	return j
}

// decimalComma reports whether the comma at j, after the integer part
// of the number that starts at i and before one or two digits, is a
// decimal comma whatever the locale: it cannot group thousands after four
// digits or more ("1912,75"), and a list is not written with a signed
// number ("−24,5"). A number right after a comma is an item of a list
// ("x,1912,75", "x,-5,6").
func (x *extractor) decimalComma(i, j int) bool {
	st, sign := x.signBefore(i)
	if j-i < 4 && sign == 0 {
		return false
	}
	return st == 0 || x.s[st-1] != ','
}

// junkEnd returns the end of a malformed run that goes on after a number
// ending at j, or j when there is none: a run that goes on with a point
// and more digits is not one number ("1.2.3", "192.168.0.1"). A comma
// after a number separates values ("0.5,0.25").
func (x *extractor) junkEnd(j int) int {
	s := x.s
	if j+1 < len(s) && s[j] == '.' && isDigit(s[j+1]) {
		return pointRunEnd(s, j)
	}
	return j
}

// attached reports whether a currency is written before the number that
// starts at i, or a scale, a percent or a currency right after e: the
// number is an amount, not a list ("16,80 €", "SGD 1 200", "2,5 Mio").
func (x *extractor) attached(i, e int) bool {
	s := x.s
	if sc, _ := scaleAfter(s, e); sc != 0 {
		return true
	}
	if _, ok := percentAfter(s, e); ok {
		return true
	}
	if cur, _ := currencyAfter(s, e); cur != "" {
		return true
	}
	if cur, _ := x.currencyBefore(i); cur != "" {
		return true
	}
	if st, sg := x.signBefore(i); sg != 0 {
		cur, _ := x.currencyBefore(st)
		return cur != ""
	}
	return false
}

// europeanCurrency reports whether a currency is written right after e,
// European style ("16.800 €", "16.800 EUR"), and not as an exchange rate
// ("1.342 SGD per USD").
func europeanCurrency(s string, e int) bool {
	cur, ce := currencyAfter(s, e)
	if cur == "" {
		return false
	}
	_, _, rate := rateAfter(s, ce)
	return !rate
}

// groups reads the thousands groups that follow a number's first one to
// three digits (from i to j): each a separator and exactly three digits,
// with the same separator throughout. It returns their digits, the
// separator and where they end, or j when there are none.
//
// A separator followed by other than three digits makes the whole run a
// list: "845,25350" is 845 and 25350, "1,234,5678" is 1, 234 and 5678.
// A comma the layout marks as separating values (in JSON, or in a CSV row)
// is never a thousands separator. See groupsRead for the points and
// ordinary spaces that group thousands.
func (x *extractor) groups(i, j int) (string, string, int) {
	s := x.s
	sep := groupSepAt(s, j, "")
	if sep == "" || x.isSep(j) {
		return "", "", j
	}
	if s[i] == '0' {
		return "", "", j // "0,125" is not 125
	}
	start := j
	var b strings.Builder
	n := 0
	for {
		k := j + len(sep)
		e := digitsEnd(s, k)
		if e-k != 3 {
			if e > k {
				return "", "", start // a list, not one number
			}
			break
		}
		b.WriteString(s[k:e])
		j = e
		n++
		if groupSepAt(s, j, sep) == "" || x.isSep(j) {
			break
		}
	}
	if n == 0 || !x.groupsRead(i, start, j, sep, n) {
		return "", "", start
	}
	return b.String(), sep, j
}

// groupsRead reports whether the n groups separated by sep, from g to e,
// of the number that starts at i are read as thousands.
//
// A point groups thousands when there are two or more groups
// ("2.394.755", not an address such as "10.100.200.250" nor a "version
// 1.100.200"), or one followed by a decimal comma ("1.234,56"), or when
// the locale's decimal mark is a comma. With no locale, one followed by a
// currency is grouped too, as Europeans write money ("16.800 €"); under a
// decimal-point locale that is 16.8. An ordinary space groups thousands when there are two
// or more groups ("2 394 755"), or one that is an amount ("16 800 €",
// "SGD 1 200"), a count ("1 200 units"), starts with a zero ("5 000") or
// is followed by a decimal comma and one or two digits ("1 912,75"); not when the number comes
// right after another ("in 2025 1 200") or is followed by one ("1 555 123
// 4567"). Under a decimal-comma locale, a single comma group is a decimal
// part ("1,500" is 1.5) unless a decimal point follows.
func (x *extractor) groupsRead(i, g, e int, sep string, n int) bool {
	s := x.s
	switch sep {
	case ",":
		return x.opt.Decimal != ',' || n >= 2 || e+1 < len(s) && s[e] == '.' && isDigit(s[e+1])
	case ".":
		switch {
		case continues(s, e) && s[e] == '.':
			return false
		case e+1 < len(s) && s[e] == ',' && isDigit(s[e+1]) && !x.isSep(e):
			return !continues(s, digitsEnd(s, e+1))
		case n >= 2:
			return !isAddress(s[i:e]) && !versionWord(x.wordBefore(i))
		}
		return x.opt.Decimal == ',' || x.opt.Decimal == 0 && europeanCurrency(s, e)
	case " ":
		if i >= 2 && s[i-1] == ' ' && isDigit(s[i-2]) || e+1 < len(s) && s[e] == ' ' && isDigit(s[e+1]) {
			return false
		}
		if n >= 2 || s[g+1] == '0' || x.centsAt(e) || x.attached(i, fractionEnd(s, e)) {
			return true
		}
		unit, _ := countAfter(s, fractionEnd(s, e))
		return unit != ""
	}
	return true
}

// centsAt reports whether a decimal comma and one or two digits are
// written at e, and the number ends there: "1 912,75" is plainly one
// number, as Europeans write it.
func (x *extractor) centsAt(e int) bool {
	s := x.s
	if e+1 >= len(s) || s[e] != ',' || !isDigit(s[e+1]) || x.isSep(e) {
		return false
	}
	k := digitsEnd(s, e+1)
	return k-e-1 <= 2 && !continues(s, k)
}

// fractionEnd returns the end of a decimal part written at e with a point
// or a comma, or e when there is none.
func fractionEnd(s string, e int) int {
	if e+1 < len(s) && (s[e] == '.' || s[e] == ',') && isDigit(s[e+1]) {
		return digitsEnd(s, e+1)
	}
	return e
}

// isAddress reports whether a run of numbers joined by points is an IPv4
// address: four parts, none over 255.
func isAddress(run string) bool {
	parts := strings.Split(run, ".")
	if len(parts) != 4 {
		return false
	}
	for _, p := range parts {
		if v, err := strconv.Atoi(p); err != nil || v > 255 {
			return false
		}
	}
	return true
}

// versionWord reports whether w introduces a version or an address.
func versionWord(w string) bool {
	switch strings.ToLower(w) {
	case "version", "v", "release", "build", "ip", "address":
		return true
	}
	return false
}

// groupSepAt returns the thousands separator at j, or "". When want is
// set, only that separator counts.
func groupSepAt(s string, j int, want string) string {
	for _, g := range groupSeps {
		if strings.HasPrefix(s[j:], g) && (want == "" || want == g) {
			return g
		}
	}
	return ""
}

// digitsEnd returns the end of the digits starting at i.
func digitsEnd(s string, i int) int {
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}

// continues reports whether a number goes on at e with a point or a comma
// and more digits.
func continues(s string, e int) bool {
	return e+1 < len(s) && (s[e] == '.' || s[e] == ',') && isDigit(s[e+1])
}

// pointRunEnd returns the end of a run of digits and points followed by
// digits, from i.
func pointRunEnd(s string, i int) int {
	for i < len(s) && (isDigit(s[i]) || s[i] == '.' && i+1 < len(s) && isDigit(s[i+1])) {
		i++
	}
	return i
}

// significance returns how many significant digits a number has and the
// place of the last one, reading an integer's trailing zeros as rounding.
func significance(intDigits, frac string, scale float64) (int, float64) {
	all := strings.TrimLeft(intDigits+frac, "0")
	if all == "" {
		return 1, math.Pow(10, -float64(len(frac))) * scale
	}
	if frac != "" {
		return len(all), math.Pow(10, -float64(len(frac))) * scale
	}
	t := strings.TrimRight(all, "0")
	tz := len(all) - len(t)
	return len(t), math.Pow(10, float64(tz)) * scale
}
