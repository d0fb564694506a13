package figures

import (
	"math"
	"regexp"
	"strconv"
	"strings"
)

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

// reContinental is a number written with points between thousands and a
// decimal comma.
var reContinental = regexp.MustCompile(`^[1-9]\d{0,2}(?:\.\d{3})+,\d+`)

// groupSeps are the thousands separators read: a comma, and the spaces
// typesetters use inside numbers (not an ordinary space).
var groupSeps = []string{",", "\u00a0", "\u202f", "\u2009"}

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
	if j-i >= 1 && j-i <= 3 {
		if groups, e := x.groups(j); e > j {
			c.intDigits, c.sep, j = s[i:j]+groups, true, e
		}
	}
	if j+1 < len(s) && s[j] == '.' && isDigit(s[j+1]) {
		k := digitsEnd(s, j+1)
		c.frac = s[j+1 : k]
		j = k
	}
	c.end, c.junk = j, x.junkEnd(i, j, c)
	x.core, x.coreAt = c, i+1
	return c
}

// junkEnd returns the end of a malformed run that starts at i and goes on
// after the number c ending at j, or j when there is none. A run that goes
// on with a point and more digits is not one number ("1.2.3"), nor is one
// written the continental way ("1.234,56", "1.234.567,89"). Otherwise a
// comma after a decimal part separates values ("0.5,0.25").
func (x *extractor) junkEnd(i, j int, c core) int {
	s := x.s
	if j+1 >= len(s) || !isDigit(s[j+1]) {
		return j
	}
	if len(c.frac) == 3 && (s[j] == '.' || s[j] == ',' && !x.isSep(j)) {
		if m := reContinental.FindString(s[i:]); m != "" && !continues(s, i+len(m)) {
			return i + len(m)
		}
	}
	if s[j] == '.' {
		return pointRunEnd(s, j)
	}
	return j
}

// groups reads the thousands groups that follow a number's first one to
// three digits, from j: each a separator and exactly three digits, with
// the same separator throughout. It returns their digits and where they
// end, or j when there are none.
//
// A separator followed by other than three digits makes the whole run a
// list: "845,25350" is 845 and 25350, "1,234,5678" is 1, 234 and 5678.
// A comma the layout marks as separating values (in JSON, or in a CSV row)
// is never a thousands separator.
func (x *extractor) groups(j int) (string, int) {
	s := x.s
	sep := groupSepAt(s, j, "")
	if sep == "" || x.isSep(j) {
		return "", j
	}
	start := j
	var b strings.Builder
	for {
		k := j + len(sep)
		e := digitsEnd(s, k)
		if e-k != 3 {
			if e > k {
				return "", start // a list, not one number
			}
			break
		}
		b.WriteString(s[k:e])
		j = e
		if groupSepAt(s, j, sep) == "" || x.isSep(j) {
			break
		}
	}
	return b.String(), j
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
