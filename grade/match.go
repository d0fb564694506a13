package grade

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/mcpeval/mcpeval/grade/figures"
	"github.com/mcpeval/mcpeval/suite"
)

// Match reports whether figure w, as read from an answer, states the
// expected figure want, judged with tolerance tol. The rule:
//
//   - Counts are compared exactly.
//   - Money and percentages match when the figure as written is within
//     the tolerance: "2.39M" states 2,394,755 within 1% (it is 0.2% off),
//     "17.2%" states 17.24% within 0.1 points.
//   - They also match when the expected value, rounded to the precision the
//     figure was written with, equals it, provided the figure has at least
//     three significant digits: "2,394,755.12" rounded to "2,394,755" is
//     right even when the tolerance is exact. Two-digit roundings are not
//     forgiven beyond the tolerance, because a tolerance is what tells a
//     month from its neighbour: with 0.25%, "2.3M" does not state
//     2,261,924, since December's 2,271,632 rounds to it as well.
//   - A figure written without a sign matches either sign ("fell 3.5%"
//     states -3.5%), and so does one in accounting parentheses, which are
//     also used to annotate.
//   - A money figure's currency, when stated, must be the expected one; a
//     bare "$" or "dollars" stands for any dollar currency, and a figure
//     with no currency stands for any.
//
// Years, dates, list numbers, account numbers and figures the answer
// does not vouch for never match: callers pass claims only.
func Match(w figures.Figure, want suite.Figure, tol suite.Tolerance) bool {
	if !kindFits(w, want) || !currencyFits(w.Currency, want.Currency) {
		return false
	}
	for _, v := range signs(w) {
		if want.Kind == suite.Count {
			if math.Abs(v-want.Value) < 1e-9 {
				return true
			}
			continue
		}
		if tol.Within(v, want.Value) {
			return true
		}
		if w.SigDigits >= 3 && w.Step > 0 {
			r := math.Round(want.Value/w.Step) * w.Step
			if math.Abs(r-v) <= 1e-9*math.Max(1, math.Abs(v)) {
				return true
			}
		}
	}
	return false
}

// signs returns the values a figure may stand for.
func signs(w figures.Figure) []float64 {
	if w.Paren || !w.Signed {
		return []float64{w.Value, -w.Value}
	}
	return []float64{w.Value}
}

// kindFits reports whether figure w is of a kind that can state want: a
// money figure or a plain number for money, a percentage for a percentage,
// a count or a plain number for a count.
func kindFits(w figures.Figure, want suite.Figure) bool {
	switch want.Kind {
	case suite.Percent:
		return w.Kind == figures.Percent
	case suite.Count:
		return (w.Kind == figures.Count || w.Kind == figures.Plain) && w.Scale == 1
	default:
		return w.Kind == figures.Money || w.Kind == figures.Plain
	}
}

// dollars are the currencies a bare "$" may stand for.
var dollars = map[string]bool{"SGD": true, "USD": true, "AUD": true, "CAD": true, "HKD": true, "NZD": true, "TWD": true}

func currencyFits(got, want string) bool {
	switch {
	case got == "" || want == "" || strings.EqualFold(got, want):
		return true
	case got == "$":
		return dollars[strings.ToUpper(want)]
	}
	return false
}

// expected writes an expected figure for a reason: "SGD 2,261,924
// (±0.25%)", "17.2% (±0.1 points)", "450 units exactly".
func expected(f suite.Figure, tol suite.Tolerance) string {
	var s string
	switch f.Kind {
	case suite.Count:
		s = groupDigits(f.Value)
		if f.Unit != "" {
			s += " " + f.Unit
		}
		s += " exactly"
	case suite.Percent:
		s = groupDigits(f.Value) + "% (" + tolText(f, tol) + ")"
	default:
		s = groupDigits(f.Value)
		if f.Currency != "" {
			s = f.Currency + " " + s
		}
		s += " (" + tolText(f, tol) + ")"
	}
	if f.Label != "" {
		s += " for " + f.Label
	}
	return s
}

func tolText(f suite.Figure, tol suite.Tolerance) string {
	switch {
	case tol.Relative != 0:
		return "±" + strconv.FormatFloat(tol.Relative*100, 'f', -1, 64) + "%"
	case tol.Absolute == 0:
		return "exactly"
	case f.Kind == suite.Percent:
		return "±" + strconv.FormatFloat(tol.Absolute, 'f', -1, 64) + " points"
	}
	return "±" + groupDigits(tol.Absolute)
}

// off says how far a figure is from the expected value: "0.43% off",
// "0.3 points off", "off by 50".
func off(v float64, f suite.Figure) string {
	d := math.Abs(v - f.Value)
	switch {
	case f.Kind == suite.Count:
		return "off by " + groupDigits(d)
	case f.Kind == suite.Percent:
		return strconv.FormatFloat(round(d, 2), 'f', -1, 64) + " points off"
	case f.Value == 0:
		return "off by " + groupDigits(d)
	}
	return fmt.Sprintf("%s%% off", strconv.FormatFloat(round(d/math.Abs(f.Value)*100, 2), 'f', -1, 64))
}

func round(v float64, places int) float64 {
	p := math.Pow(10, float64(places))
	return math.Round(v*p) / p
}

// groupDigits writes v with thousands separators and at most two decimals:
// 2394755 → "2,394,755", 17.24 → "17.24".
func groupDigits(v float64) string {
	s := strconv.FormatFloat(round(v, 2), 'f', -1, 64)
	if math.Abs(v) < 1 {
		s = strconv.FormatFloat(v, 'f', -1, 64)
		if len(s) > 8 {
			s = strconv.FormatFloat(v, 'g', 4, 64)
		}
	}
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	ip, fp, _ := strings.Cut(s, ".")
	var b strings.Builder
	for i, c := range ip {
		if i > 0 && (len(ip)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	out := b.String()
	if fp != "" {
		out += "." + fp
	}
	if neg {
		out = "-" + out
	}
	return out
}
