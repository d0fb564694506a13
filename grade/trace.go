package grade

import (
	"bytes"
	"encoding/json"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/mcpeval/mcpeval/grade/figures"
	"github.com/mcpeval/mcpeval/internal/lazyregexp"
	"github.com/mcpeval/mcpeval/record"
)

// Tracer says whether a figure can be traced to what an attempt's tools
// returned. A figure traces when, rounded as people round, it is:
//
//   - a number in a tool result (its text, or its structured content), or
//     in the prompt;
//   - the sum or the difference of two such numbers;
//   - a month-on-month change, absolute or in percent, of a dated series
//     (a JSON list of objects with a date or month field, or an object
//     keyed by month), or of a series a text result lists: consecutive
//     amounts along a line ("SGD 12,500 in January, SGD 13,630 in
//     February"), or down a column, the amounts at one place of
//     consecutive lines that hold as many (one a line, or a table's rows);
//     a text series may run either way in time, so its change in percent
//     is taken of either value;
//   - the total of one field across a returned list (every balance summed);
//   - a number × 12 (a monthly figure made yearly), or a fraction × 100
//     (0.172 written as 17.2%).
//
// "Rounded as people round" means the figure is within half a step of its
// last significant digit ("2.39M" traces to 2,394,755), where that step
// never leaves the figure with fewer than two significant digits ("2M"
// traces to 1.95M–2.05M, not to 1.5M–2.5M). Signs are ignored: "a loss of
// 1,200" traces to -1200. Other arithmetic (a tax bracket applied to a
// salary) is not traced.
type Tracer struct {
	// base are the magnitudes of the numbers returned, sorted.
	base []float64
	// derived are the magnitudes of the derived figures, sorted.
	derived []float64
	calls   int
	// opt is how numbers are read, in the tool results and in answers.
	opt figures.Options
}

// NewTracer reads the numbers of a's tool results and prompt, with no
// locale (see NewTracerWith).
func NewTracer(a *record.Attempt) *Tracer { return NewTracerWith(a, figures.Options{}) }

// NewTracerWith reads the numbers of a's tool results and prompt with o,
// the suite's way of writing numbers; the answers it is given are read the
// same way.
func NewTracerWith(a *record.Attempt, o figures.Options) *Tracer {
	t := &Tracer{opt: o}
	b := map[float64]bool{}
	d := map[float64]bool{}
	addText := func(s string) []figures.Figure {
		fs := figures.ExtractWith(s, o)
		for _, f := range fs {
			if !f.IsDate {
				b[math.Abs(f.Value)] = true
			}
		}
		return fs
	}
	addText(a.Prompt)
	for _, c := range a.Calls() {
		t.calls++
		fs := addText(c.Result)
		text := true // the result's text is prose or a table, not JSON
		for i, raw := range [][]byte{c.Structured, []byte(c.Result)} {
			raw = bytes.TrimSpace(raw)
			if len(raw) == 0 || raw[0] != '{' && raw[0] != '[' {
				continue
			}
			var v any
			if json.Unmarshal(raw, &v) == nil {
				walk(v, b, d, o)
				text = text && i == 0
			}
		}
		if text {
			textChanges(c.Result, fs, d)
		}
	}
	for v := range b {
		t.base = append(t.base, v)
		d[v*12] = true
		d[v*100] = true
	}
	for v := range d {
		t.derived = append(t.derived, math.Abs(v))
	}
	sort.Float64s(t.base)
	sort.Float64s(t.derived)
	return t
}

var reMonthKey = lazyregexp.New(`^\d{4}-\d{2}`)

// dateKeys are field names that date the elements of a series.
var dateKeys = map[string]bool{"month": true, "date": true, "period": true, "as_of": true, "month_end": true, "asof": true, "end_of_month": true}

// walk collects the numbers of a JSON value into base, and the series
// changes and column totals it holds into derived.
func walk(v any, base, derived map[float64]bool, o figures.Options) {
	switch x := v.(type) {
	case float64:
		base[math.Abs(x)] = true
	case string:
		for _, f := range figures.ExtractWith(x, o) {
			if !f.IsDate {
				base[math.Abs(f.Value)] = true
			}
		}
	case []any:
		var objs []map[string]any
		for _, e := range x {
			walk(e, base, derived, o)
			if o, ok := e.(map[string]any); ok {
				objs = append(objs, o)
			}
		}
		if len(objs) >= 2 {
			totals(objs, derived)
			if key := seriesKey(objs); key != "" {
				sort.SliceStable(objs, func(i, j int) bool { return str(objs[i][key]) < str(objs[j][key]) })
				changes(objs, derived)
			}
		}
	case map[string]any:
		var months []string
		for k, e := range x {
			walk(e, base, derived, o)
			if _, ok := e.(float64); ok && reMonthKey.MatchString(k) {
				months = append(months, k)
			}
		}
		if len(months) >= 2 {
			sort.Strings(months)
			var objs []map[string]any
			for _, m := range months {
				objs = append(objs, map[string]any{"v": x[m]})
			}
			changes(objs, derived)
		}
	}
}

// seriesKey returns the field that dates every element, or "".
func seriesKey(objs []map[string]any) string {
	for k, v := range objs[0] {
		s, ok := v.(string)
		if !ok || !(dateKeys[strings.ToLower(k)] || reMonthKey.MatchString(s)) {
			continue
		}
		all := true
		for _, o := range objs[1:] {
			if _, ok := o[k].(string); !ok {
				all = false
				break
			}
		}
		if all {
			return k
		}
	}
	return ""
}

// totals adds the sum of each numeric field across objs.
func totals(objs []map[string]any, derived map[float64]bool) {
	sums := map[string]float64{}
	for _, o := range objs {
		for k, v := range o {
			if f, ok := v.(float64); ok {
				sums[k] += f
			}
		}
	}
	for _, s := range sums {
		derived[math.Abs(s)] = true
	}
}

// changes adds the change of each numeric field between consecutive
// elements, absolute and in percent.
func changes(objs []map[string]any, derived map[float64]bool) {
	for i := 1; i < len(objs); i++ {
		for k, v := range objs[i] {
			cur, ok1 := v.(float64)
			prev, ok2 := objs[i-1][k].(float64)
			if !ok1 || !ok2 {
				continue
			}
			derived[math.Abs(cur-prev)] = true
			if prev != 0 {
				derived[math.Abs((cur-prev)/prev*100)] = true
			}
		}
	}
}

// textChanges adds the changes in percent of the series text lists, read
// from its figures (figures.Extract's): money and plain amounts,
// consecutive along a line that is not a table's row, and at one place of
// consecutive lines holding as many amounts (a column). Their absolute
// changes are differences of two returned numbers already.
func textChanges(text string, fs []figures.Figure, derived map[float64]bool) {
	type line struct {
		n       int
		amounts []figures.Figure
	}
	var lines []line
	for _, f := range fs {
		if f.Kind != figures.Money && f.Kind != figures.Plain || f.IsDate || f.IsYear || f.IsList || f.IsAccount {
			continue
		}
		n := strings.Count(text[:f.Start], "\n")
		if len(lines) == 0 || lines[len(lines)-1].n != n {
			lines = append(lines, line{n: n})
		}
		l := &lines[len(lines)-1]
		l.amounts = append(l.amounts, f)
	}
	rows := strings.Split(text, "\n")
	for i, l := range lines {
		if row := rows[l.n]; !strings.ContainsAny(row, "|\t") {
			for j := 1; j < len(l.amounts); j++ {
				change(l.amounts[j-1], l.amounts[j], derived)
			}
		}
		if i > 0 && len(lines[i-1].amounts) == len(l.amounts) {
			for j, f := range l.amounts {
				change(lines[i-1].amounts[j], f, derived)
			}
		}
	}
}

// change adds the change from a to b in percent of a and of b, when both
// are amounts of the same currency (or of none).
func change(a, b figures.Figure, derived map[float64]bool) {
	if a.Currency != "" && b.Currency != "" && a.Currency != b.Currency {
		return
	}
	diff := math.Abs(b.Value - a.Value)
	for _, base := range []float64{a.Value, b.Value} {
		if base != 0 {
			derived[diff/math.Abs(base)*100] = true
		}
	}
}

func str(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return ""
}

// Calls returns how many tool calls the tracer read.
func (t *Tracer) Calls() int { return t.calls }

// Traces reports whether figure w traces to the tool results. An
// ambiguous figure ("1.500" with no locale) traces by either reading.
func (t *Tracer) Traces(w figures.Figure) bool {
	a := math.Abs(w.Value)
	if t.tracesValue(a, traceTol(w)) {
		return true
	}
	if !w.Ambiguous {
		return false
	}
	// The other reading moves the point three places: "1.500" as 1500.
	alt := w
	alt.Value, alt.Precision, alt.Step = w.Alt, w.Precision*1000, w.Step*1000
	return t.tracesValue(math.Abs(alt.Value), traceTol(alt))
}

func (t *Tracer) tracesValue(a, d float64) bool {
	if has(t.base, a-d, a+d) || a != 0 && has(t.derived, a-d, a+d) {
		return true
	}
	if a == 0 {
		return false // every number minus itself is no evidence of a zero
	}
	for i, m := range t.base {
		// m + n = a
		if lo := a - d - m; lo <= t.base[len(t.base)-1] {
			j := sort.SearchFloat64s(t.base, lo)
			if j == i {
				j++
			}
			if j < len(t.base) && t.base[j] <= a+d-m {
				return true
			}
		}
		// n - m = a
		j := sort.SearchFloat64s(t.base, m+a-d)
		if j == i {
			j++
		}
		if j < len(t.base) && t.base[j] <= m+a+d {
			return true
		}
	}
	return false
}

// Within reports whether a number the tools returned lies between lo and
// hi: a range that holds the true figure is grounded.
func (t *Tracer) Within(lo, hi float64) bool {
	lo, hi = math.Abs(lo), math.Abs(hi)
	if lo > hi {
		lo, hi = hi, lo
	}
	return has(t.base, lo, hi) || has(t.derived, lo, hi)
}

// has reports whether sorted xs holds a value in [lo, hi].
func has(xs []float64, lo, hi float64) bool {
	i := sort.SearchFloat64s(xs, lo)
	return i < len(xs) && xs[i] <= hi
}

// traceTol is how far a figure may be from what it traces to: half a step
// of its last significant digit, keeping at least two significant digits.
// A zero traces only to a zero.
func traceTol(w figures.Figure) float64 {
	a := math.Abs(w.Value)
	if a == 0 {
		return 1e-9 // a zero traces to a zero only
	}
	step := w.Step
	if step <= 0 {
		step = w.Precision
	}
	if max := math.Pow(10, math.Floor(math.Log10(a))-1); step > max {
		step = max
	}
	return math.Max(step/2, 1e-9*a)
}

// claimChecked reports whether the no-invented-figures rule applies to a
// claim: every money figure and percentage, and plain numbers that look
// like amounts (with decimals, a scale word, or 100 and above). Counts
// ("450 units", "12 months") and small whole numbers are not checked.
func claimChecked(f figures.Figure) bool {
	switch f.Kind {
	case figures.Money, figures.Percent:
		return true
	case figures.Plain:
		return f.Decimals > 0 || f.Scale > 1 || math.Abs(f.Value) >= 100
	}
	return false
}

// untraced returns the answer's checked claims that do not trace. A range
// is grounded when either end traces or a returned number lies within it.
func untraced(t *Tracer, answer string) []figures.Figure {
	all := figures.ExtractWith(answer, t.opt)
	var out []figures.Figure
	for i := 0; i < len(all); i++ {
		f := all[i]
		if f.RangeFirst && i+1 < len(all) && f.Claim() && all[i+1].Claim() {
			g := all[i+1]
			i++
			if !claimChecked(f) && !claimChecked(g) {
				continue
			}
			if t.Traces(f) || t.Traces(g) || t.Within(f.Value, g.Value) {
				continue
			}
			out = append(out, f, g)
			continue
		}
		if f.Claim() && claimChecked(f) && !t.Traces(f) {
			out = append(out, f)
		}
	}
	return out
}

// joinFigures writes figures for a reason: "US$1,784,467, 1.35 and 12%".
func joinFigures(fs []figures.Figure) string {
	var parts []string
	for i, f := range fs {
		if i == 8 {
			parts = append(parts, strconv.Itoa(len(fs)-8)+" more")
			break
		}
		parts = append(parts, clip(f.Text, 40))
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}
