package figures

import (
	"strings"
)

// What is written around a number: a sign, a currency or a scale word
// before or after it, a percent sign, what it counts, the unit it is
// measured in.

// signBefore reads a sign that ends at i; it returns the sign's start and
// -1 or +1, or 0 when there is none. A dash between two figures is a range,
// not a sign, and so is a dash right after a digit or a word; but a dash
// after a comma, a tab or a line break ("x,-5", in CSV, TSV or JSON) is a
// sign.
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
		if isWordRune(r) || r == '%' || r == ')' || r == '.' {
			return i, 0
		}
	}
	if gap := s[x.lastEnd:n]; len(x.figs) > 0 && strings.TrimSpace(gap) == "" && !strings.ContainsAny(gap, "\t\n") {
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

// symbolAfter reads a currency symbol at j written after its number
// ("16,80 €", "16 800€"), unless a number follows it: then the symbol is
// that number's ("5 €10"). A dollar sign is read only before its number.
func symbolAfter(s string, j int) (string, int) {
	for sym, code := range symbols {
		if strings.HasPrefix(s[j:], sym) {
			e := j + len(sym)
			if k := skipSpace1(s, e); k < len(s) && isDigit(s[k]) {
				return "", j
			}
			return code, e
		}
	}
	return "", j
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

var codes = newWordSet(`SGD USD JPY EUR GBP AUD CAD HKD NZD CNY RMB CHF INR MYR KRW TWD THB IDR
	SEK NOK DKK`)

// currencyCode returns the ISO code a word names, or "".
func currencyCode(w string) string {
	if codes.has(w) {
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
// "2.4 million Singapore dollars", "16.800 €").
func currencyAfter(s string, i int) (string, int) {
	j := skipSpace1(s, i)
	if code, e := symbolAfter(s, j); code != "" {
		return code, e
	}
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
	"thousand": 1e3, "thousands": 1e3, "tsd": 1e3, "tausend": 1e3,
	"million": 1e6, "millions": 1e6, "mn": 1e6, "mm": 1e6, "mil": 1e6, "mln": 1e6, "mio": 1e6, "millionen": 1e6,
	"billion": 1e9, "billions": 1e9, "bn": 1e9, "bln": 1e9, "mrd": 1e9, "milliarde": 1e9, "milliarden": 1e9,
	"trillion": 1e12, "tn": 1e12,
}

// abbreviatedScales are the scale words written as abbreviations, which
// may take a point ("37,8 Tsd. SGD", "2,39 Mio. SGD").
var abbreviatedScales = newWordSet(`tsd mn mil mln mio bn bln mrd tn`)

// scaleDot returns where the scale word that ends at e ends: after the
// point of an abbreviation when a currency follows it ("1,2 Mrd. €"),
// else e. A point after a scale word and before anything else ends a
// sentence ("2.4M. Then", "2,5 Mio. Das").
func scaleDot(s string, e int) int {
	if e >= len(s) || s[e] != '.' || !abbreviatedScales.has(strings.ToLower(s[wordStart(s, e):e])) {
		return e
	}
	if cur, _ := currencyAfter(s, e+1); cur == "" {
		return e
	}
	return e + 1
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

var countNouns = newWordSet(`unit units share shares account accounts month months year years
		day days week weeks quarter quarters holding holdings line lines item items time times people
		person owner owners transaction transactions vest vests tranche tranches rsu rsus position
		positions asset assets entry entries category categories case cases tool tools call calls
		property properties card cards loan loans hour hours minute minutes child children member members
		fund funds stock stocks etf etfs lot lots payment payments instalment instalments installment
		installments deposit deposits bond bonds currency currencies attempt attempts step steps
		question questions row rows record records result results household households
		debit debits charge charges transfer transfers refund refunds withdrawal withdrawals
		purchase purchases bill bills invoices orders`)

// countAfter reads what a number counts: "450 units", "400 FXTC units",
// "450 VOO".
func countAfter(s string, i int) (string, int) {
	j := skipSpace1(s, i)
	if j == i || j >= len(s) || !wordAt(s, j) {
		return "", i
	}
	we := wordEnd(s, j)
	w := s[j:we]
	if countNouns.has(strings.ToLower(w)) {
		return w, we
	}
	if !isTicker(w) {
		return "", i
	}
	k := skipSpace1(s, we)
	if k > we && k < len(s) && wordAt(s, k) {
		ke := wordEnd(s, k)
		if countNouns.has(strings.ToLower(s[k:ke])) {
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

// units are the units of measure read after a number, glued on ("30kg",
// "16GB") or after a space ("2.5 kg"). Units a letter long are read only
// glued on ("5g", "24h"): after a space a letter is more often a word.
var units = newWordSet(`kg KG mg lb lbs oz km cm ms sec secs min mins hr hrs
		kB KB MB GB TB KiB MiB GiB TiB Mb Gb kW MW kWh MWh ml mL`)

// shortUnits are the units read only when glued on.
var shortUnits = newWordSet(`g h l L`)

// unitAfter reads the unit of measure after a number: "30kg", "2.5 kg".
func unitAfter(s string, i int) (string, int) {
	j := skipSpace1(s, i)
	if !wordAt(s, j) {
		return "", i
	}
	we := wordEnd(s, j)
	w := s[j:we]
	if units.has(w) || j == i && shortUnits.has(w) {
		return w, we
	}
	return "", i
}
