package figures

import (
	"slices"
	"strings"
)

// column is what a table header says of its column's figures.
type column struct {
	cur      string // the currency every figure is in
	pct      bool
	count    bool
	money    bool // money, in the row's currency when a column holds it
	currency bool // the column holds each row's currency
}

var (
	countHeaders = []string{"units", "unit", "shares", "qty", "quantity", "count"}
	moneyHeaders = []string{"balance", "value", "amount", "total", "price", "cost", "income", "expense", "spend", "net", "worth", "cash", "payment", "salary", "tax", "revenue"}
)

// readColumn reads a header cell.
func readColumn(h string) column {
	h = strings.Trim(strings.TrimSpace(h), `"`)
	lh := strings.ToLower(h)
	col := column{
		cur:      currencyIn(h),
		pct:      strings.Contains(h, "%") || strings.Contains(lh, "percent"),
		currency: lh == "currency" || lh == "ccy",
	}
	// A count by its word: "Account" and "discount" are not counts.
	for _, w := range strings.FieldsFunc(lh, func(r rune) bool { return r == '_' || !isWordRune(r) }) {
		col.count = col.count || slices.Contains(countHeaders, w)
	}
	for _, w := range moneyHeaders {
		col.money = col.money || strings.Contains(lh, w)
	}
	return col
}

// kind gives plain figure f the kind its column states, in a row whose
// currency column (if any) says rowCur.
func (col column) kind(f *Figure, rowCur string) {
	switch {
	case col.cur != "":
		f.Kind, f.Currency = Money, col.cur
	case col.pct:
		f.Kind = Percent
	case col.count:
		f.Kind = Count
	case col.money && rowCur != "":
		f.Kind, f.Currency = Money, rowCur
	}
	if f.Kind != Plain {
		f.IsYear, f.IsAccount = false, false
	}
}

// tables gives the plain figures of a table (Markdown, CSV or TSV) the
// kind and currency their column states: a header naming a currency ("In
// SGD", "Balance (S$)", "revenue_eur") or a percent, or a row's currency
// cell for a money column ("| IBKR | USD | 307,500 |" under "| Account |
// Currency | Balance |").
func (x *extractor) tables() {
	fi := 0
	for _, g := range x.grids {
		cols := make([]column, len(g.header))
		for i, c := range g.header {
			cols[i] = readColumn(x.s[c.start:c.end])
		}
		for _, r := range g.rows {
			for fi < len(x.figs) && x.figs[fi].Start < r.line.start {
				fi++
			}
			x.tableRow(cols, r, fi)
		}
	}
}

// tableRow applies cols to the figures of row r, the first of which may be
// x.figs[fi].
func (x *extractor) tableRow(cols []column, r row, fi int) {
	rowCur := ""
	for i, c := range r.cells {
		if i < len(cols) && cols[i].currency {
			rowCur = currencyCode(strings.Trim(strings.TrimSpace(x.s[c.start:c.end]), `"`))
		}
	}
	ci := 0
	for ; fi < len(x.figs) && x.figs[fi].Start < r.line.end; fi++ {
		f := &x.figs[fi]
		if f.End > r.line.end || f.Kind != Plain || f.IsDate || f.IsList {
			continue
		}
		for ci < len(r.cells) && r.cells[ci].end < f.Start {
			ci++
		}
		if ci < len(r.cells) && ci < len(cols) && f.Start >= r.cells[ci].start && f.End <= r.cells[ci].end {
			cols[ci].kind(f, rowCur)
		}
	}
}

// currencyIn returns the currency a table header names, or "".
func currencyIn(h string) string {
	// "revenue_eur": a word of a snake_case name counts too.
	for _, w := range strings.FieldsFunc(h, func(r rune) bool { return r == '_' || !isWordRune(r) }) {
		if c := currencyCode(w); c != "" {
			return c
		}
	}
	for i := 0; i <= len(h); i++ {
		if c, _ := symbolEndingAt(h, i); c != "" {
			return c
		}
	}
	lh := strings.ToLower(h)
	for _, cw := range currencyWords {
		if strings.Contains(lh, cw.word) {
			return cw.code
		}
	}
	return ""
}

// ranges pairs the ends of ranges ("2.3–2.4 million", "between $2.3M and
// $2.4M", "2.3 to 2.4M") and carries scale, currency and percent from one
// end to the other. A range runs from the smaller end to the larger: "from
// 2.4 to 2.3" is not one, nor is a dash before a difference ("€142.80 —
// €11.40 more than July's").
func (x *extractor) ranges() {
	s := x.s
	for i := 0; i+1 < len(x.figs); i++ {
		a, b := &x.figs[i], &x.figs[i+1]
		if a.IsYear || a.IsDate || a.IsAccount || a.IsList || b.IsYear || b.IsDate || b.IsAccount || b.IsList {
			continue
		}
		between := strings.ToLower(strings.TrimSpace(s[a.End:b.Start]))
		switch between {
		case "-", "–", "—", "to", "~", "and":
		default:
			continue
		}
		if between == "and" && !strings.EqualFold(x.wordBefore(a.Start), "between") {
			continue
		}
		dash := between == "-" || between == "–" || between == "—"
		if between == "-" && b.Signed || dash && comparedAfter(s, b.End) {
			continue
		}
		carry := false
		if a.Scale == 1 && b.Scale != 1 && a.Precision <= 1 && !strings.ContainsAny(a.Text, ",\u00a0\u202f\u2009") {
			v := a.Value * b.Scale
			carry = v <= b.Value*100 && v*100 >= b.Value
		}
		lo := a.Value
		if carry {
			lo *= b.Scale
		}
		if lo > b.Value {
			continue // a range runs up: "from 2.4 to 2.3" is a fall
		}
		a.Range, b.Range, a.RangeFirst = true, true, true
		if carry {
			a.Value, a.Scale = a.Value*b.Scale, b.Scale
			a.Precision *= b.Scale
			a.Step *= b.Scale
		}
		if a.Kind == Plain && b.Kind == Percent {
			a.Kind = Percent
		}
		if b.Kind == Plain && a.Kind == Money {
			b.Kind, b.Currency = Money, a.Currency
		}
		if a.Kind == Plain && b.Kind == Money {
			a.Kind, a.Currency = Money, b.Currency
		}
		if a.Kind == Plain && b.Kind == Count {
			a.Kind, a.Unit = Count, b.Unit
		}
	}
}

// comparedAfter reports whether a word of comparison follows i: "€142.80
// — €11.40 more than July's" states a difference, not a range.
func comparedAfter(s string, i int) bool {
	j := skipSpace1(s, i)
	if j == i || !wordAt(s, j) {
		return false
	}
	switch strings.ToLower(s[j:wordEnd(s, j)]) {
	case "more", "less", "higher", "lower", "fewer", "above", "below":
		return true
	}
	return false
}

// hedgePhrases open a clause that declines to vouch for what follows: "I
// can't say it was $0", "I don't have a figure like $X".
var hedgePhrases = []string{
	"can't say", "cannot say", "can not say", "couldn't say", "could not say",
	"can't tell you", "cannot tell you", "can't confirm", "cannot confirm", "can't verify", "cannot verify",
	"can't vouch", "cannot vouch", "won't vouch", "not vouch",
	"don't have", "do not have", "doesn't have", "does not have", "didn't return", "did not return",
	"no figure", "no data", "no record of", "not in the data", "isn't in the data",
	"won't guess", "will not guess", "wouldn't guess", "not going to guess", "rather than guess", "instead of guessing",
	"can't give", "cannot give", "can't quote", "cannot quote", "can't provide", "cannot provide",
	"unable to say", "unable to confirm", "not able to say", "not able to confirm", "no way to know",
	"don't know", "do not know", "not sure whether", "wouldn't want to",
}

// clauseWords end the clause a hedge governs: "I don't have the price, but
// it is about $520" vouches for $520.
var clauseWords = newWordSet(`but however though although so yet instead because since which
		whereas and while assuming if estimate estimated roughly approximately around about`)

// hedges marks figures in a clause that opens by declining to vouch.
func (x *extractor) hedges() {
	for i := range x.figs {
		f := &x.figs[i]
		if c := x.clauseBefore(f.Start); c != "" {
			for _, h := range hedgePhrases {
				if strings.Contains(c, h) {
					f.Hedged = true
					break
				}
			}
		}
	}
}

// clauseBefore returns, lowercased with typographic apostrophes made
// plain, the text from the start of i's clause to i.
func (x *extractor) clauseBefore(i int) string {
	s := x.s
	from := max(0, i-160)
	for from > 0 && from < len(s) && s[from]&0xC0 == 0x80 {
		from++ // not in the middle of a rune
	}
	t := s[from:i]
	cut := 0
	for _, dash := range []string{"—", " – ", " - "} {
		if k := strings.LastIndex(t, dash); k >= 0 && k+len(dash) > cut {
			cut = k + len(dash)
		}
	}
	for j := cut; j < len(t); j++ {
		switch t[j] {
		case '\n', ';', '!', '?':
			cut = j + 1
		case '.', ',', ':':
			if j+1 == len(t) || t[j+1] == ' ' || t[j+1] == '\n' {
				cut = j + 1
			}
		}
	}
	t = strings.ToLower(strings.ReplaceAll(t[cut:], "’", "'"))
	words := strings.Fields(t)
	for k := len(words) - 1; k >= 0; k-- {
		if clauseWords.has(strings.Trim(words[k], "*_\"'()[]")) {
			return strings.Join(words[k+1:], " ")
		}
	}
	return strings.Join(words, " ")
}
