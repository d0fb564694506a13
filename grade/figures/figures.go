package figures

import (
	"math"
	"strconv"
	"strings"
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
	// Unit is what a Count counts ("units", "VOO").
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
}

// Claim reports whether the text asserts f as a figure: it is not a year,
// a date, a list number, an account number or identifier, and the text
// does not decline to vouch for it.
func (f Figure) Claim() bool {
	return !f.IsYear && !f.IsDate && !f.IsList && !f.IsAccount && !f.Hedged
}

// Extract returns the numbers in text, in order.
func Extract(text string) []Figure {
	x := &extractor{s: text}
	x.scan()
	x.tables()
	x.ranges()
	x.hedges()
	return x.figs
}

// Claims returns the figures of text that are claims (see Figure.Claim).
func Claims(text string) []Figure {
	var out []Figure
	for _, f := range Extract(text) {
		if f.Claim() {
			out = append(out, f)
		}
	}
	return out
}

type extractor struct {
	s    string
	figs []Figure
	// lastEnd is where the last figure's span ended: the next figure's
	// span never starts before it.
	lastEnd int
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

// number reads the number whose first digit (or decimal point) is at i and
// returns where scanning goes on.
func (x *extractor) number(i int) int {
	s := x.s
	// A number glued to a word on its left is part of an identifier
	// ("Q3", "FY2026", "v2"), unless the word is a currency ("SGD2,000").
	if ws := wordStart(s, i); ws < i && currencyCode(s[ws:i]) == "" {
		j := i
		for j < len(s) && (isDigit(s[j]) || isWordByte(s[j]) || (s[j] == '.' || s[j] == ',') && j+1 < len(s) && isDigit(s[j+1])) {
			j++
		}
		x.add(Figure{Value: leadingValue(s[i:j]), Kind: Plain, Start: i, End: j, Precision: 1, Step: 1, SigDigits: 1, IsAccount: true})
		return j
	}
	if end, f, ok := x.dateAt(i); ok {
		x.add(f)
		return end
	}
	if m := reAccountDashes.FindString(s[i:]); m != "" && boundaryAfter(s, i+len(m)) && countDigits(m) >= 8 {
		x.add(Figure{Value: leadingValue(m), Kind: Plain, Start: i, End: i + len(m), Precision: 1, Step: 1, SigDigits: len(m), IsAccount: true})
		return i + len(m)
	}

	c := readCore(s, i)
	if c.junk > c.end {
		// "1.2.3", "192.168.0.1": a version or an address, not a figure.
		x.add(Figure{Value: c.value(1), Kind: Plain, Start: i, End: c.junk, Precision: 1, Step: 1, SigDigits: 1, IsAccount: true})
		return c.junk
	}
	f := Figure{Kind: Plain, Start: i, End: c.end, Decimals: len(c.frac), Scale: 1}

	// What comes before: sign, currency, sign, accounting parenthesis.
	start := i
	sign := 0
	if n, sg := x.signBefore(start); sg != 0 {
		start, sign = n, sg
	}
	if cur, cs := x.currencyBefore(start); cur != "" {
		start = cs
		f.Currency = cur
		if sign == 0 {
			if n, sg := x.signBefore(start); sg != 0 {
				start, sign = n, sg
			}
		}
	}
	// "(1,200)" is an accounting negative, but "S$2.39M (SGD 2,394,755)"
	// annotates the figure before it.
	paren := start > x.lastEnd && start > 0 && s[start-1] == '(' &&
		(len(x.figs) == 0 || strings.TrimSpace(s[x.lastEnd:start-1]) != "")

	// What comes after: scale, percent or currency, then what is counted.
	end := c.end
	scale := 1.0
	if sc, e := scaleAfter(s, end); sc != 0 {
		scale, end = sc, e
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
	f.Scale = scale
	f.Value = c.value(scale)
	f.Precision = math.Pow(10, -float64(len(c.frac))) * scale
	f.SigDigits, f.Step = significance(c.intDigits, c.frac, scale)

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
	if f.Kind == Plain && scale == 1 && !yearLike {
		if unit, e := countAfter(s, end); unit != "" {
			f.Kind, f.Unit, end = Count, unit, e
		}
	}
	// A word glued on the right: an ordinal, a time, a multiplier or an
	// identifier ("3D", "4G").
	if end < len(s) && wordAt(s, end) {
		we := wordEnd(s, end)
		w := strings.ToLower(s[end:we])
		switch {
		case w == "st" || w == "nd" || w == "rd" || w == "th":
			if x.nearMonth(start, we) {
				f.IsDate = true
			}
		case w == "am" || w == "pm":
			f.IsDate = true
		case w == "x":
		default:
			f.IsAccount = true
		}
		end = we
	}
	if sign < 0 {
		f.Value = -f.Value
	}
	f.Signed = sign != 0
	if paren && end < len(s) && s[end] == ')' && f.Kind != Percent && f.Kind != Count &&
		(c.sep || f.Currency != "" || len(c.frac) > 0) && sign == 0 {
		f.Paren, f.Signed = true, true
		f.Value = -f.Value
		start--
		end++
	}
	f.Start, f.End = start, end

	plainInt := f.Kind == Plain && len(c.frac) == 0 && !c.sep && scale == 1 && sign == 0 && !f.Paren && c.intDigits != ""
	if plainInt {
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
	x.add(f)
	return end
}

// core is the digits of a number as written.
type core struct {
	intDigits string // integer digits, separators removed
	frac      string // digits after the decimal point
	sep       bool   // written with thousands separators
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

// groupSeps are the thousands separators read: a comma, and the spaces
// typesetters use inside numbers (not an ordinary space).
var groupSeps = []string{",", "\u00a0", "\u202f", "\u2009"}

func readCore(s string, i int) core {
	var c core
	j := i
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	var b strings.Builder
	b.WriteString(s[i:j])
	if j-i >= 1 && j-i <= 3 {
		sep := ""
		for {
			next := ""
			for _, g := range groupSeps {
				if strings.HasPrefix(s[j:], g) && (sep == "" || sep == g) {
					next = g
					break
				}
			}
			if next == "" {
				break
			}
			k := j + len(next)
			if k+3 > len(s) || !isDigit(s[k]) || !isDigit(s[k+1]) || !isDigit(s[k+2]) || k+3 < len(s) && isDigit(s[k+3]) {
				break
			}
			b.WriteString(s[k : k+3])
			sep, j, c.sep = next, k+3, true
		}
	}
	c.intDigits = b.String()
	if j+1 < len(s) && s[j] == '.' && isDigit(s[j+1]) {
		k := j + 1
		for k < len(s) && isDigit(s[k]) {
			k++
		}
		c.frac = s[j+1 : k]
		j = k
	}
	c.end, c.junk = j, j
	// A run that goes on with more digits after a point or comma is not
	// one number.
	if j+1 < len(s) && (s[j] == '.' || s[j] == ',') && isDigit(s[j+1]) {
		k := j
		for k < len(s) && (isDigit(s[k]) || (s[k] == '.' || s[k] == ',') && k+1 < len(s) && isDigit(s[k+1])) {
			k++
		}
		c.junk = k
	}
	return c
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

// signBefore reads a sign that ends at i; it returns the sign's start and
// -1 or +1, or 0 when there is none. A dash between two figures is a range,
// not a sign, and so is a dash right after a digit or a word.
func (x *extractor) signBefore(i int) (int, int) {
	s := x.s
	var n, sg int
	switch {
	case i >= 1 && s[i-1] == '-':
		n, sg = i-1, -1
	case i >= 1 && s[i-1] == '+':
		n, sg = i-1, 1
	case i >= 3 && s[i-3:i] == "\u2212":
		n, sg = i-3, -1
	default:
		return i, 0
	}
	if n < x.lastEnd {
		return i, 0
	}
	if n > 0 {
		r := lastRune(s[:n])
		if isWordRune(r) || r == '%' || r == ')' || r == '.' || r == ',' {
			return i, 0
		}
	}
	if len(x.figs) > 0 && strings.TrimSpace(s[x.lastEnd:n]) == "" {
		if last := x.figs[len(x.figs)-1]; !last.IsDate && !last.IsYear && !last.IsAccount {
			return i, 0 // "2.3 - 2.4"
		}
	}
	return n, sg
}

// currencyBefore reads a currency that ends at i, allowing one space (and
// a colon after a code); it returns the code and where it starts.
func (x *extractor) currencyBefore(i int) (string, int) {
	s := x.s
	for _, gap := range []string{"", " ", "\u00a0", ": "} {
		j := i - len(gap)
		if j < x.lastEnd || j <= 0 || s[j:i] != gap {
			continue
		}
		if cur, st := symbolEndingAt(s, j); cur != "" && st >= x.lastEnd && gap != ": " {
			return cur, st
		}
		ws := wordStart(s, j)
		if ws < j && ws >= x.lastEnd {
			if code := currencyCode(s[ws:j]); code != "" {
				return code, ws
			}
		}
	}
	return "", i
}

// symbolEndingAt reads a currency symbol ending at i ("$", "S$", "US$",
// "¥", "€", "£").
func symbolEndingAt(s string, i int) (string, int) {
	for sym, code := range symbols {
		if strings.HasSuffix(s[:i], sym) {
			return code, i - len(sym)
		}
	}
	if i >= 1 && s[i-1] == '$' {
		j := i - 1
		k := j
		for k > 0 && (isASCIILetter(s[k-1]) || s[k-1] == '.' && k-1 > 0 && isASCIILetter(s[k-2])) {
			k--
		}
		if k < j && !wordBefore(s, k) {
			if code, ok := dollarPrefixes[strings.ToUpper(strings.ReplaceAll(s[k:j], ".", ""))]; ok {
				return code, k
			}
		}
		return "$", j
	}
	return "", i
}

var symbols = map[string]string{
	"¥": "JPY", "￥": "JPY", "€": "EUR", "£": "GBP", "₹": "INR", "₩": "KRW",
}

var dollarPrefixes = map[string]string{
	"S": "SGD", "SG": "SGD", "SGD": "SGD",
	"US": "USD", "USD": "USD",
	"A": "AUD", "AU": "AUD", "AUD": "AUD",
	"C": "CAD", "CA": "CAD", "CAD": "CAD",
	"HK": "HKD", "HKD": "HKD",
	"NZ": "NZD", "NZD": "NZD",
	"NT": "TWD",
}

var codes = map[string]bool{
	"SGD": true, "USD": true, "JPY": true, "EUR": true, "GBP": true, "AUD": true,
	"CAD": true, "HKD": true, "NZD": true, "CNY": true, "RMB": true, "CHF": true,
	"INR": true, "MYR": true, "KRW": true, "TWD": true, "THB": true, "IDR": true,
	"SEK": true, "NOK": true, "DKK": true,
}

// currencyCode returns the ISO code a word names, or "".
func currencyCode(w string) string {
	if codes[w] {
		return w
	}
	switch w {
	case "sgd", "usd", "jpy", "eur", "gbp":
		return strings.ToUpper(w)
	}
	return ""
}

// currencyWords are currency names written after a number, longest first
// so that "Singapore dollars" wins over "dollars".
var currencyWords = []struct{ word, code string }{
	{"singapore dollars", "SGD"}, {"singapore dollar", "SGD"}, {"sg dollars", "SGD"},
	{"us dollars", "USD"}, {"u.s. dollars", "USD"}, {"us dollar", "USD"}, {"american dollars", "USD"},
	{"japanese yen", "JPY"}, {"australian dollars", "AUD"}, {"hong kong dollars", "HKD"},
	{"dollars", "$"}, {"dollar", "$"}, {"bucks", "$"}, {"yen", "JPY"}, {"euros", "EUR"}, {"euro", "EUR"},
	{"pounds sterling", "GBP"}, {"pounds", "GBP"}, {"sterling", "GBP"},
}

// currencyAfter reads a currency written after a number ("2,394,755 SGD",
// "2.4 million Singapore dollars").
func currencyAfter(s string, i int) (string, int) {
	j := skipSpace1(s, i)
	if j < len(s) && wordAt(s, j) {
		we := wordEnd(s, j)
		if code := currencyCode(s[j:we]); code != "" {
			return code, we
		}
		if j == i {
			return "", i
		}
		rest := strings.ToLower(s[j:min(len(s), j+24)])
		for _, cw := range currencyWords {
			if strings.HasPrefix(rest, cw.word) && boundaryAfter(s, j+len(cw.word)) {
				return cw.code, j + len(cw.word)
			}
		}
	}
	return "", i
}

var scaleWords = map[string]float64{
	"thousand": 1e3, "thousands": 1e3,
	"million": 1e6, "millions": 1e6, "mn": 1e6, "mm": 1e6, "mil": 1e6, "mln": 1e6, "mio": 1e6,
	"billion": 1e9, "billions": 1e9, "bn": 1e9, "bln": 1e9,
	"trillion": 1e12, "tn": 1e12,
}

// scaleAfter reads a scale word after a number: "k", "M", "bn" glued on,
// or "million", "bn", "M" after a space.
func scaleAfter(s string, i int) (float64, int) {
	if i < len(s) && wordAt(s, i) {
		we := wordEnd(s, i)
		w := s[i:we]
		switch w {
		case "k", "K":
			return 1e3, we
		case "m", "M":
			return 1e6, we
		case "b", "B":
			return 1e9, we
		case "MM":
			return 1e6, we
		}
		if sc, ok := scaleWords[strings.ToLower(w)]; ok {
			return sc, we
		}
		return 0, i
	}
	j := skipSpace1(s, i)
	if j == i || j >= len(s) || !wordAt(s, j) {
		return 0, i
	}
	we := wordEnd(s, j)
	w := s[j:we]
	switch w {
	case "K":
		return 1e3, we
	case "M", "MM":
		return 1e6, we
	case "B":
		return 1e9, we
	}
	if sc, ok := scaleWords[strings.ToLower(w)]; ok {
		return sc, we
	}
	return 0, i
}

// percentAfter reads a percent sign or word after a number.
func percentAfter(s string, i int) (int, bool) {
	j := skipSpace1(s, i)
	if strings.HasPrefix(s[j:], "%") {
		return j + 1, true
	}
	if strings.HasPrefix(s[j:], "％") {
		return j + len("％"), true
	}
	if j == i {
		return i, false
	}
	rest := strings.ToLower(s[j:min(len(s), j+24)])
	for _, w := range []string{"percentage points", "percentage point", "per cent", "percent", "pct", "ppts", "ppt", "pp"} {
		if strings.HasPrefix(rest, w) && boundaryAfter(s, j+len(w)) {
			return j + len(w), true
		}
	}
	return i, false
}

var countNouns = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`unit units share shares account accounts month months year years
		day days week weeks quarter quarters holding holdings line lines item items time times people
		person owner owners transaction transactions vest vests tranche tranches rsu rsus position
		positions asset assets entry entries category categories case cases tool tools call calls
		property properties card cards loan loans hour hours minute minutes child children member members
		fund funds stock stocks etf etfs lot lots payment payments instalment instalments installment
		installments deposit deposits bond bonds currency currencies attempt attempts step steps
		question questions row rows record records result results household households`) {
		countNouns[w] = true
	}
}

// countAfter reads what a number counts: "450 units", "400 FXTC units",
// "450 VOO".
func countAfter(s string, i int) (string, int) {
	j := skipSpace1(s, i)
	if j == i || j >= len(s) || !wordAt(s, j) {
		return "", i
	}
	we := wordEnd(s, j)
	w := s[j:we]
	if countNouns[strings.ToLower(w)] {
		return w, we
	}
	if !isTicker(w) {
		return "", i
	}
	k := skipSpace1(s, we)
	if k > we && k < len(s) && wordAt(s, k) {
		ke := wordEnd(s, k)
		if countNouns[strings.ToLower(s[k:ke])] {
			return s[k:ke], ke
		}
	}
	return w, we
}

// isTicker reports whether w looks like a ticker: 2 to 5 capital letters
// that are not a time of day or a month.
func isTicker(w string) bool {
	if len(w) < 2 || len(w) > 5 {
		return false
	}
	for i := 0; i < len(w); i++ {
		if w[i] < 'A' || w[i] > 'Z' {
			return false
		}
	}
	switch w {
	case "AM", "PM", "UTC", "GMT", "SGT", "OK", "OR", "AND", "TO", "IN", "AT", "ON", "OF":
		return false
	}
	return !isMonth(w)
}

// rateAfter reads "per USD", "/USD" or "per US dollar" after a currency: the
// figure before is an exchange rate.
func rateAfter(s string, i int) (int, string, bool) {
	j := i
	switch {
	case strings.HasPrefix(s[i:], " per "):
		j = i + len(" per ")
	case strings.HasPrefix(s[i:], "/"):
		j = i + 1
	default:
		return i, "", false
	}
	if strings.HasPrefix(s[j:], "1 ") {
		j += 2
	}
	if j < len(s) && wordAt(s, j) {
		we := wordEnd(s, j)
		if code := currencyCode(s[j:we]); code != "" {
			return we, code, true
		}
		rest := strings.ToLower(s[j:min(len(s), j+24)])
		for _, cw := range currencyWords {
			w := strings.TrimSuffix(cw.word, "s")
			if strings.HasPrefix(rest, w) {
				e := j + len(w)
				if e < len(s) && s[e] == 's' {
					e++
				}
				if boundaryAfter(s, e) {
					return e, cw.code, true
				}
			}
		}
	}
	return i, "", false
}
