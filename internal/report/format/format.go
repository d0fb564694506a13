package format

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/grade/actions"
	"github.com/mcpeval/mcpeval/stats"
)

// None is written for a rate of nothing counted.
const None = "—"

// Rate is a share, Num of Den, with its 95% Wilson interval [Low, High].
type Rate struct {
	Num, Den int
	// Value is Num / Den, 0 when Den is 0.
	Value     float64
	Low, High float64
}

// Of is num of den, with its 95% Wilson interval ([0, 1] when den is 0).
func Of(num, den int) Rate {
	r := Rate{Num: num, Den: den}
	if den > 0 {
		r.Value = float64(num) / float64(den)
	}
	r.Low, r.High = stats.Wilson(num, den)
	return r
}

// Counts is c's pass rate: passed of graded, with the rate and interval c
// carries.
func Counts(c grade.Counts) Rate {
	return Rate{Num: c.Passed, Den: c.Graded, Value: c.Rate, Low: c.WilsonLow, High: c.WilsonHigh}
}

// Column is an action column's rate: scored of counted.
func Column(c actions.Column) Rate { return Of(c.Num, c.Den) }

// Count writes num of den: "10/12".
func (r Rate) Count() string { return strconv.Itoa(r.Num) + "/" + strconv.Itoa(r.Den) }

// Percent writes the rate as a whole percentage, None when nothing was
// counted.
func (r Rate) Percent() string {
	if r.Den == 0 {
		return None
	}
	return Pct(r.Value)
}

// CI writes the 95% interval: "[55%, 95%]".
func (r Rate) CI() string { return "[" + Pct(r.Low) + ", " + Pct(r.High) + "]" }

// Range writes the 95% interval as a range, for a table cell: "55%–95%".
func (r Rate) Range() string { return Pct(r.Low) + "–" + Pct(r.High) }

// String writes the rate with its interval and n: "83% [55%, 95%] n=12",
// or "— n=0" when nothing was counted.
func (r Rate) String() string {
	if r.Den == 0 {
		return None + " n=0"
	}
	return r.Percent() + " " + r.CI() + " n=" + strconv.Itoa(r.Den)
}

// Cell writes the rate for a table cell: "83% 10/12", or None when
// nothing was counted.
func (r Rate) Cell() string {
	if r.Den == 0 {
		return None
	}
	return r.Percent() + " " + r.Count()
}

// Pct writes a share as a whole percentage: 0.834 is "83%".
func Pct(f float64) string { return fmt.Sprintf("%.0f%%", math.Round(f*100)) }

// Points writes a difference of two rates in percentage points, signed:
// "-40pts".
func Points(d float64) string { return fmt.Sprintf("%+.0fpts", math.Round(d*100)) }

// S is the plural suffix for n things: "" for one, "s" otherwise.
func S(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// N writes n things: N(1, "attempt") is "1 attempt", N(2, "attempt") is
// "2 attempts".
func N(n int, thing string) string { return strconv.Itoa(n) + " " + thing + S(n) }

// Kinds writes counts by kind, most frequent first, then by name:
// "timeout 2, provider 1".
func Kinds(kinds map[string]int) string {
	names := make([]string, 0, len(kinds))
	for k := range kinds {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool {
		if kinds[names[i]] != kinds[names[j]] {
			return kinds[names[i]] > kinds[names[j]]
		}
		return names[i] < names[j]
	})
	parts := make([]string, len(names))
	for i, k := range names {
		parts[i] = k + " " + strconv.Itoa(kinds[k])
	}
	return strings.Join(parts, ", ")
}

// Hash shortens a content hash (a suite's, a catalog's) to its first 12
// characters for a table; "-" stands for none.
func Hash(h string) string {
	if h == "" {
		return "-"
	}
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// Grouped puts commas in the whole part of a number written in digits:
// "2394755.5" is "2,394,755.5", "-1204" is "-1,204".
func Grouped(s string) string {
	whole, frac, _ := strings.Cut(s, ".")
	neg := strings.HasPrefix(whole, "-")
	whole = strings.TrimPrefix(whole, "-")
	for i := len(whole) - 3; i > 0; i -= 3 {
		whole = whole[:i] + "," + whole[i:]
	}
	if neg {
		whole = "-" + whole
	}
	if frac != "" {
		return whole + "." + frac
	}
	return whole
}
