package figures

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mcpeval/mcpeval/internal/lazyregexp"
)

var (
	reISODate       = lazyregexp.New(`^(\d{4})([-/])(\d{1,2})(?:([-/])(\d{1,2}))?`)
	reDMY           = lazyregexp.New(`^(\d{1,2})([/.-])(\d{1,2})([/.-])(\d{4}|\d{2})`)
	reMonthYear     = lazyregexp.New(`^(\d{1,2})/(\d{4})`)
	reTime          = lazyregexp.New(`^(\d{1,2}):(\d{2})(?::(\d{2}))?`)
	reAccountDashes = lazyregexp.New(`^\d{3,}(?:-\d{3,})+`)
)

// dateShapes read the shapes of date and time, in order: each is given
// the text, the start and the next 32 bytes of text.
var dateShapes = []func(s string, i int, rest string) (int, Figure, bool){
	isoDate, dayMonthYear, monthYear, timeOfDay,
}

// dateAt reads a date or time that starts at i.
func (x *extractor) dateAt(i int) (int, Figure, bool) {
	s := x.s
	j := i
	for j < len(s) && j < i+4 && isDigit(s[j]) {
		j++
	}
	if j >= len(s) || !strings.ContainsRune("-/.:", rune(s[j])) {
		return 0, Figure{}, false
	}
	rest := s[i:min(len(s), i+32)]
	for _, read := range dateShapes {
		if end, f, ok := read(s, i, rest); ok {
			return end, f, true
		}
	}
	return 0, Figure{}, false
}

// isoDate reads "2026-09" or "2026-09-30" (or with slashes).
func isoDate(s string, i int, rest string) (int, Figure, bool) {
	m := reISODate.FindStringSubmatch(rest)
	if m == nil {
		return 0, Figure{}, false
	}
	y, _ := strconv.Atoi(m[1])
	mo, _ := strconv.Atoi(m[3])
	ok := y >= 1900 && y <= 2100 && mo >= 1 && mo <= 12 && (m[4] == "" || m[4] == m[2])
	if m[5] != "" {
		d, _ := strconv.Atoi(m[5])
		ok = ok && d >= 1 && d <= 31
	}
	end := i + len(m[0])
	if !ok || !dateBoundary(s, end) {
		return 0, Figure{}, false
	}
	return end, Figure{Value: float64(y), Kind: Plain, Start: i, End: end, Precision: 1, Step: 1, SigDigits: 4, IsYear: true, IsDate: true}, true
}

// dayMonthYear reads "30/09/2026", "09.30.26" and the like.
func dayMonthYear(s string, i int, rest string) (int, Figure, bool) {
	m := reDMY.FindStringSubmatch(rest)
	if m == nil || m[2] != m[4] {
		return 0, Figure{}, false
	}
	a, _ := strconv.Atoi(m[1])
	b, _ := strconv.Atoi(m[3])
	end := i + len(m[0])
	if a < 1 || a > 31 || b < 1 || b > 31 || a > 12 && b > 12 || !dateBoundary(s, end) {
		return 0, Figure{}, false
	}
	return end, Figure{Value: float64(a), Kind: Plain, Start: i, End: end, Precision: 1, Step: 1, SigDigits: 1, IsDate: true}, true
}

// monthYear reads "09/2026".
func monthYear(s string, i int, rest string) (int, Figure, bool) {
	m := reMonthYear.FindStringSubmatch(rest)
	if m == nil {
		return 0, Figure{}, false
	}
	mo, _ := strconv.Atoi(m[1])
	y, _ := strconv.Atoi(m[2])
	end := i + len(m[0])
	if mo < 1 || mo > 12 || y < 1900 || y > 2100 || !dateBoundary(s, end) {
		return 0, Figure{}, false
	}
	return end, Figure{Value: float64(mo), Kind: Plain, Start: i, End: end, Precision: 1, Step: 1, SigDigits: 1, IsDate: true}, true
}

// timeOfDay reads "10:30", "10:30:15" and "10:30 am".
func timeOfDay(s string, i int, rest string) (int, Figure, bool) {
	m := reTime.FindStringSubmatch(rest)
	if m == nil {
		return 0, Figure{}, false
	}
	h, _ := strconv.Atoi(m[1])
	mi, _ := strconv.Atoi(m[2])
	end := i + len(m[0])
	if h > 24 || mi >= 60 || !dateBoundary(s, end) {
		return 0, Figure{}, false
	}
	j := skipSpace1(s, end)
	if j < len(s) && wordAt(s, j) {
		if w := strings.ToLower(s[j:wordEnd(s, j)]); w == "am" || w == "pm" {
			end = wordEnd(s, j)
		}
	}
	return end, Figure{Value: float64(h), Kind: Plain, Start: i, End: end, Precision: 1, Step: 1, SigDigits: 1, IsDate: true}, true
}

// dateBoundary reports whether a date may end at i: no digit, letter, or
// separator followed by a digit comes next.
func dateBoundary(s string, i int) bool {
	if i >= len(s) {
		return true
	}
	if isDigit(s[i]) || wordAt(s, i) && !strings.HasPrefix(strings.ToLower(s[i:]), "am") && !strings.HasPrefix(strings.ToLower(s[i:]), "pm") {
		return false
	}
	if (s[i] == '-' || s[i] == '/' || s[i] == '.' || s[i] == ':') && i+1 < len(s) && isDigit(s[i+1]) {
		return false
	}
	return true
}

var months = newWordSet(`january february march april june july august september october november december
		jan feb mar apr jun jul aug sep sept oct nov dec`)

// isMonth reports whether w names a month; "May" counts only capitalised.
func isMonth(w string) bool {
	w = strings.TrimSuffix(w, ".")
	if w == "May" || w == "MAY" {
		return true
	}
	return months.has(strings.ToLower(w))
}

// nearMonth reports whether the number spanning [start, end) stands next to
// a month name ("31 March", "March 31", "31st of March", "March 2026"),
// not after a comma that follows one ("September, 2 debits").
func (x *extractor) nearMonth(start, end int) bool {
	s := x.s
	// A day is written "September 17", not "September, 17": after a comma
	// a number opens a clause ("since 17 September, 2 debits bounced").
	if !commaBefore(s, start) && x.monthBefore(start) {
		return true
	}
	j := end
	for j < len(s) && (s[j] == ' ' || s[j] == ',') {
		j++
	}
	if j >= len(s) || !wordAt(s, j) {
		return false
	}
	w := s[j:wordEnd(s, j)]
	if strings.EqualFold(w, "of") {
		k := skipSpace1(s, wordEnd(s, j))
		if k < len(s) && wordAt(s, k) {
			w = s[k:wordEnd(s, k)]
		}
	}
	return isMonth(w)
}

// monthBefore reports whether a month name comes before i ("March 31",
// "March the 31st").
func (x *extractor) monthBefore(i int) bool {
	w := x.wordBefore(i)
	if isMonth(w) {
		return true
	}
	return (strings.EqualFold(w, "of") || strings.EqualFold(w, "the")) && isMonth(x.wordBefore(i-len(w)-1))
}

// commaBefore reports whether a comma comes before i, spaces skipped.
func commaBefore(s string, i int) bool {
	for i > 0 && s[i-1] == ' ' {
		i--
	}
	return i > 0 && s[i-1] == ','
}

// wordBefore returns the word that ends before i, skipping spaces and a
// comma or period.
func (x *extractor) wordBefore(i int) string {
	s := x.s
	if i <= 0 || i > len(s) {
		return ""
	}
	j := i
	for j > 0 && (s[j-1] == ' ' || s[j-1] == ',' || s[j-1] == '.') {
		j--
	}
	k := j
	for k > 0 && isASCIILetter(s[k-1]) {
		k--
	}
	return s[k:j]
}

// accountWords come before account numbers and other identifiers.
var accountWords = newWordSet(`account acct a/c ending id ref reference iban card policy tel phone
	invoice order ticket no number nr`)

// accountContext reports whether the number starting at i is introduced as
// an identifier: after "#", a mask ("****", "•••", "xxx", "...") or a word
// such as "account", "ending in" or "no.".
func (x *extractor) accountContext(i int) bool {
	s := x.s
	j := i
	for j > 0 && s[j-1] == ' ' {
		j--
	}
	if j > 0 && s[j-1] == '#' {
		return true
	}
	mask := 0
	for k := j; k > 0 && mask < 8; {
		r, size := utf8.DecodeLastRuneInString(s[:k])
		if r != '*' && r != '•' && r != 'x' && r != 'X' && r != '.' && r != '…' {
			break
		}
		mask++
		k -= size
	}
	if mask >= 3 {
		return true
	}
	for k := 0; k < 3 && j > 0; k++ {
		for j > 0 && (s[j-1] == ' ' || s[j-1] == ':' || s[j-1] == '.' || s[j-1] == '#') {
			j--
		}
		w := strings.ToLower(x.wordBefore(j))
		if w == "" {
			return false
		}
		if accountWords.has(w) {
			return true
		}
		if w != "in" && w != "with" && w != "number" {
			return false
		}
		j -= len(w)
	}
	return false
}

// lineStart reports whether only blanks and quote marks stand between the
// start of i's line and i.
func lineStart(s string, i int) bool {
	for j := i - 1; j >= 0; j-- {
		switch s[j] {
		case '\n':
			return true
		case ' ', '\t', '>':
		default:
			return false
		}
	}
	return true
}

func isDigit(c byte) bool       { return c >= '0' && c <= '9' }
func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isWordByte(c byte) bool    { return isASCIILetter(c) || c == '_' }
func isSpace(c byte) bool       { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isWordRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

func lastRune(s string) rune {
	r, _ := utf8.DecodeLastRuneInString(s)
	return r
}

// wordBefore reports whether a letter, digit or underscore ends right
// before i.
func wordBefore(s string, i int) bool { return i > 0 && isWordRune(lastRune(s[:i])) }

// wordAt reports whether a letter starts at i.
func wordAt(s string, i int) bool {
	if i >= len(s) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return r == '_' || unicode.IsLetter(r)
}

// wordEnd returns the end of the letters starting at i.
func wordEnd(s string, i int) int {
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r != '_' && !unicode.IsLetter(r) {
			break
		}
		i += size
	}
	return i
}

// wordStart returns the start of the letters ending at i (i when none).
func wordStart(s string, i int) int {
	for i > 0 {
		r, size := utf8.DecodeLastRuneInString(s[:i])
		if r != '_' && !unicode.IsLetter(r) {
			break
		}
		i -= size
	}
	return i
}

// boundaryAfter reports whether no letter or digit follows i.
func boundaryAfter(s string, i int) bool {
	if i >= len(s) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return !isWordRune(r)
}

// skipSpace1 skips one space-like character at i.
func skipSpace1(s string, i int) int {
	for _, sp := range []string{" ", "\u00a0", "\u202f", "\u2009"} {
		if strings.HasPrefix(s[i:], sp) {
			return i + len(sp)
		}
	}
	return i
}

func countDigits(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) {
			n++
		}
	}
	return n
}

// leadingValue is the value of the digits s starts with.
func leadingValue(s string) float64 {
	j := 0
	for j < len(s) && j < 18 && isDigit(s[j]) {
		j++
	}
	v, _ := strconv.ParseFloat(s[:j], 64)
	return v
}
