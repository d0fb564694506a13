package grade

import (
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mcpeval/mcpeval/grade/figures"
	"github.com/mcpeval/mcpeval/internal/lazyregexp"
)

// role is what an answer says a figure is, read from the words of its
// clause and between it and its neighbours (see docs/suite.md, "Which
// figure is the answer").
type role int

const (
	// asserted: the answer gives the figure as a value (the default).
	asserted role = iota
	// compared: the figure is what something is compared with ("up from
	// X", "X before the renewal").
	compared
	// negated: the answer says the value is not the figure ("not X").
	negated
	// elsewhere: the figure belongs to another period than the one asked
	// about ("the 1,450 is last year's figure", "X in December 2025").
	elsewhere
	// hedged: the answer does not commit to the figure ("either X or Y",
	// "I can't say it was X", "maybe X").
	hedged
	// operand: the figure is a term of a written calculation ("X + Y =").
	operand
	// difference: the figure is how far one thing is from another ("50
	// more than", "€11.40 less than July's").
	difference
	// another: the answer binds the figure to another thing of the kind
	// asked ("the savings account holds X" when the checking account's
	// balance is asked).
	another
)

// reading is one figure of an answer with its role and the words it was
// read from.
type reading struct {
	f    figures.Figure
	role role
	// why quotes the words that gave the role ("up from", "last year's").
	why string
	// clause is the text the figure is bound to: its clause, with a
	// heading ("Net worth: X") it continues.
	clause string
	// period is the period the figure is bound to, if any.
	period period
	// other is the index of the figure of the same kind the answer hedges
	// this one with ("either X or Y"), or -1.
	other int
	// prev is the index of the figure of the kind before this one in its
	// clause, or -1.
	prev int
	// lead is the text between the figure and the one before it of the
	// kind, or its clause's start.
	lead string
	// own is true when the period was read from the figure's own clause,
	// not from earlier in its sentence.
	own bool
	// inCode is true for a figure inside Markdown code (a tool call's
	// arguments written out).
	inCode bool
}

// inCode reports whether offset i of s is inside a Markdown code span.
func inCode(s string, i int) bool {
	for _, m := range codeSpan.FindAllStringIndex(s, -1) {
		if m[0] < i && i < m[1] {
			return true
		}
	}
	return false
}

// possessive reports whether s has "'s" at i.
func possessive(s string, i int) bool {
	return strings.HasPrefix(s[i:], "'s") || strings.HasPrefix(s[i:], "’s") || strings.HasPrefix(s[i:], "'")
}

// isForRE matches the words that say a figure is a period's: "X is",
// "X was the figure for".
var isForRE = lazyregexp.New(`(?i)^[\s*_]*(?:(?:[a-z]+\s+){0,2}?(?:is|was|are|were)\b)?\s*(?:the\s+)?(?:figure\s+|value\s+|number\s+)?(?:for\s+)?$`)

// joinRE matches a word that joins two clauses.
var joinRE = lazyregexp.New(`(?i)\b(?:and|but|while|whereas|compared|versus|vs)\b`)

// A period is a time the answer ties a figure to: a month (with or
// without its year), a quarter, a year, or a relative period ("last
// year"). The zero period is none.
type period struct {
	year    int    // 0 when not stated
	month   int    // 1..12, 0 when not a month
	quarter int    // 1..4, 0 when not a quarter
	rel     string // "last year", "last month", ... for relative periods
	text    string // as written
}

func (p period) none() bool { return p.year == 0 && p.month == 0 && p.quarter == 0 && p.rel == "" }

// fits reports whether the answer's period p may be the asked period a:
// nothing stated contradicts it ("March" fits "March 2026", "2026" fits
// "Q3 2026"; "December 2025" does not fit "March 2026").
func (p period) fits(a period) bool {
	if p.rel != "" || a.rel != "" {
		return p.rel == a.rel && p.year == a.year
	}
	if p.year != 0 && a.year != 0 && p.year != a.year {
		return false
	}
	if p.month != 0 && a.month != 0 && p.month != a.month {
		return false
	}
	if p.quarter != 0 && a.quarter != 0 && p.quarter != a.quarter {
		return false
	}
	if p.month != 0 && a.quarter != 0 && (p.month-1)/3+1 != a.quarter {
		return false
	}
	if p.quarter != 0 && a.month != 0 && (a.month-1)/3+1 != p.quarter {
		return false
	}
	return true
}

// fitsAny reports whether p fits one of the asked periods. A question
// that names no period asks about now: every period fits it but a past
// one written as such ("last year's", "the previous month").
func (p period) fitsAny(asked []period) bool {
	if p.none() {
		return true
	}
	if len(asked) == 0 {
		return !strings.HasPrefix(p.rel, "last ")
	}
	for _, a := range asked {
		if p.fits(a) {
			return true
		}
	}
	return false
}

var monthNames = map[string]int{
	"jan": 1, "january": 1, "feb": 2, "february": 2, "mar": 3, "march": 3,
	"apr": 4, "april": 4, "may": 5, "jun": 6, "june": 6, "jul": 7, "july": 7,
	"aug": 8, "august": 8, "sep": 9, "sept": 9, "september": 9, "oct": 10,
	"october": 10, "nov": 11, "november": 11, "dec": 12, "december": 12,
}

// periods returns the periods written in s, each with its byte offset:
// "March 2026", "Mar '26", "June", "Q3 2026", "2026-09", "2025", "last
// year", "the previous month", "a year ago". A lower-case "may" with no
// year after it is the verb, not the month. It reads words, not a
// regular expression: it runs on every answer a grader reads.
func periods(s string) ([]period, []int) {
	var ps []period
	var at []int
	ws := words(s)
	for i := 0; i < len(ws); i++ {
		w := ws[i]
		lw := strings.ToLower(s[w[0]:w[1]])
		var p period
		end := w[1]
		switch {
		case monthNames[lw] != 0:
			p.month = monthNames[lw]
			from := end
			if from < len(s) && s[from] == '.' {
				from++ // "Mar. 2026"
			}
			if y, e, ok := yearAfter(s, from); ok {
				p.year, end = y, e
				i = skipTo(ws, i, e)
			} else if y, e, ok := dayYearAfter(s, from); ok {
				p.year, end = y, e // "March 17, 2026"
				i = skipTo(ws, i, e)
			} else if s[w[0]:w[1]] == "may" {
				continue
			}
		case len(lw) == 2 && lw[0] == 'q' && lw[1] >= '1' && lw[1] <= '4':
			p.quarter = int(lw[1] - '0')
			if y, e, ok := quarterYear(s, end); ok {
				p.year, end = y, e
				i = skipTo(ws, i, e)
			}
		case isYear(lw):
			p.year = year(lw)
			// "2026-09", "2026-09-30"
			if end+3 <= len(s) && s[end] == '-' && i+1 < len(ws) && ws[i+1][0] == end+1 && ws[i+1][1] == end+3 {
				if m := atoi(s[end+1 : end+3]); m >= 1 && m <= 12 {
					p.month = m
					end += 3
					i++
					if end+3 <= len(s) && s[end] == '-' && i+1 < len(ws) && ws[i+1][0] == end+1 && ws[i+1][1] == end+3 {
						end += 3
						i++
					}
				}
			}
		default:
			rel, n := relative(s, ws, i)
			if n == 0 {
				continue
			}
			p.rel = rel
			end = ws[i+n-1][1]
			i += n - 1
		}
		p.text = s[w[0]:end]
		ps = append(ps, p)
		at = append(at, w[0])
	}
	return ps, at
}

// words returns the spans of the runs of letters and digits of s.
func words(s string) [][2]int {
	var ws [][2]int
	start := -1
	for i, r := range s {
		alnum := unicode.IsLetter(r) || unicode.IsDigit(r)
		switch {
		case alnum && start < 0:
			start = i
		case !alnum && start >= 0:
			ws = append(ws, [2]int{start, i})
			start = -1
		}
	}
	if start >= 0 {
		ws = append(ws, [2]int{start, len(s)})
	}
	return ws
}

// skipTo returns the index of the last word of ws that ends at or before
// e, from i on.
func skipTo(ws [][2]int, i, e int) int {
	for i+1 < len(ws) && ws[i+1][1] <= e {
		i++
	}
	return i
}

func isYear(w string) bool {
	return len(w) == 4 && (w[:2] == "19" || w[:2] == "20") && isNumber(w)
}

// yearAfter reads the year written after a month that ends at i: " 2026",
// " of 2026", " '26", " 26". It returns the year and where it ends.
func yearAfter(s string, i int) (int, int, bool) {
	j := i
	for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
		j++
	}
	if j == i {
		return 0, 0, false
	}
	if strings.HasPrefix(strings.ToLower(s[j:]), "of ") {
		j += 3
		for j < len(s) && s[j] == ' ' {
			j++
		}
	}
	apostrophe := j < len(s) && (s[j] == '\'' || strings.HasPrefix(s[j:], "’"))
	if apostrophe {
		_, n := utf8.DecodeRuneInString(s[j:])
		j += n
	}
	k := j
	for k < len(s) && isDigit(s[k]) {
		k++
	}
	if k < len(s) && (unicode.IsLetter(rune(s[k])) || s[k] == '_') {
		return 0, 0, false
	}
	// Two digits are a year only after an apostrophe ("Mar '26"): "March
	// 17" is a day.
	switch d := s[j:k]; {
	case len(d) == 4 && isYear(d), len(d) == 2 && apostrophe:
		return year(d), k, true
	}
	return 0, 0, false
}

// dayYearRE matches a day and a year after a month: " 17, 2026", " 1st 2026".
var dayYearRE = lazyregexp.New(`^\s+\d{1,2}(?:st|nd|rd|th)?,?\s+((?:19|20)\d\d)\b`)

// dayYearAfter reads "March 17, 2026" from the end of the month's name at i.
func dayYearAfter(s string, i int) (int, int, bool) {
	m := dayYearRE.FindStringSubmatchIndex(s[i:])
	if m == nil {
		return 0, 0, false
	}
	return year(s[i+m[2] : i+m[3]]), i + m[1], true
}

// quarterYear reads the year written after a quarter: "Q3 2026", "Q3'2026".
func quarterYear(s string, i int) (int, int, bool) {
	j := i
	for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
		j++
	}
	if j < len(s) && s[j] == '\'' {
		j++
	}
	if j+4 <= len(s) && isYear(s[j:j+4]) && (j+4 == len(s) || !isDigit(s[j+4]) && !unicode.IsLetter(rune(s[j+4]))) {
		return year(s[j : j+4]), j + 4, true
	}
	return 0, 0, false
}

// relative reads a relative period starting at word i: "last year",
// "previous month", "a year ago", "the year before", "year-ago". It
// returns its name and how many words it takes, or 0.
func relative(s string, ws [][2]int, i int) (string, int) {
	word := func(k int) string {
		if k >= len(ws) {
			return ""
		}
		return strings.ToLower(s[ws[k][0]:ws[k][1]])
	}
	unit := func(w string, quarterOK, weekOK bool) bool {
		return w == "year" || w == "month" || quarterOK && w == "quarter" || weekOK && w == "week"
	}
	spaced := func(k int) bool { return strings.TrimSpace(s[ws[k][1]:ws[k+1][0]]) == "" }
	w0 := word(i)
	switch w0 {
	case "last", "previous", "prior", "this", "current", "next":
		if w1 := word(i + 1); unit(w1, true, true) && spaced(i) {
			return normalRel(w0 + " " + w1), 2
		}
	case "a", "one":
		if w1, w2 := word(i+1), word(i+2); unit(w1, true, false) && (w2 == "ago" || w2 == "earlier" || w2 == "before") && spaced(i) && spaced(i+1) {
			return normalRel(w0 + " " + w1 + " " + w2), 3
		}
	case "the":
		if w1, w2 := word(i+1), word(i+2); unit(w1, true, false) && w2 == "before" && spaced(i) && spaced(i+1) {
			return normalRel("the " + w1 + " before"), 3
		}
	case "year":
		if w1 := word(i + 1); w1 == "ago" && i+1 < len(ws) {
			if sep := s[ws[i][1]:ws[i+1][0]]; sep == "-" || sep == " " {
				return normalRel("year ago"), 2
			}
		}
	}
	return "", 0
}

// mentions are the periods written in an answer, read once, with their
// offsets.
type mentions struct {
	ps []period
	at []int
}

// normalRel reads a relative period as one of a few names, so that "the
// previous year" and "last year's" are the same period.
func normalRel(s string) string {
	s = strings.ToLower(strings.Join(strings.Fields(s), " "))
	unit := "year"
	for _, u := range []string{"month", "quarter", "week"} {
		if strings.Contains(s, u) {
			unit = u
		}
	}
	switch {
	case strings.HasPrefix(s, "this"), strings.HasPrefix(s, "current"):
		return "this " + unit
	case strings.HasPrefix(s, "next"):
		return "next " + unit
	}
	return "last " + unit
}

func year(s string) int {
	if s == "" {
		return 0
	}
	y := atoi(s)
	if y < 100 {
		y += 2000
	}
	return y
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// askedPeriods returns the periods a figure is asked for: those of its
// label, else those of the case's prompt.
func askedPeriods(label, prompt string) []period {
	if ps, _ := periods(label); len(ps) > 0 {
		return ps
	}
	ps, _ := periods(prompt)
	return ps
}

// readAnswer reads the figures of an answer that may state a figure
// (every figure but years, dates, list and account numbers), each with
// its role. fits says which figures are of the kind asked for: the
// neighbours a figure is hedged with or compared against are only those.
func readAnswer(answer string, fs []figures.Figure, fits func(figures.Figure) bool, asked []period) []reading {
	rs := make([]reading, len(fs))
	for i, f := range fs {
		rs[i] = reading{f: f, other: -1, prev: -1}
	}
	var ms mentions
	ms.ps, ms.at = periods(answer)
	for i := range rs {
		r := &rs[i]
		start, end := clauseBounds(answer, r.f.Start, r.f.End)
		// The words before the figure, back to its clause's start or the
		// previous figure of the kind asked; and after it, to the next.
		leadFrom, tailTo := start, end
		prev, next := -1, -1
		for j := i - 1; j >= 0; j-- {
			if fits(rs[j].f) && rs[j].f.End <= r.f.Start {
				prev = j
				leadFrom = max(leadFrom, rs[j].f.End)
				break
			}
		}
		for j := i + 1; j < len(rs); j++ {
			if fits(rs[j].f) && rs[j].f.Start >= r.f.End {
				next = j
				tailTo = min(tailTo, rs[j].f.Start)
				break
			}
		}
		lead := answer[leadFrom:r.f.Start]
		tail := answer[r.f.End:tailTo]
		r.lead = lead
		r.clause = boundText(answer, start, end, r.f.Start, fs, fits)
		r.period, r.own = boundPeriod(answer, start, end, r.f, fs, fits, asked, ms)
		r.inCode = inCode(answer, r.f.Start)
		r.role, r.why = roleOf(r.f, lead, tail, answer, start)
		if prev >= 0 && rs[prev].f.End > start {
			r.prev = prev
		}
		// A hedge between two figures of the kind: "either X or Y", "X or
		// Y", "X/Y". Only when both are in one sentence.
		if r.role == asserted && next >= 0 && orRE.MatchString(answer[r.f.End:rs[next].f.Start]) && sameSentence(answer, r.f.End, rs[next].f.Start) && sameMoney(r.f, rs[next].f) {
			r.role, r.why, r.other = hedged, quote(answer, r.f.Start, rs[next].f.End), next
		}
		if r.role == asserted && prev >= 0 && orRE.MatchString(answer[rs[prev].f.End:r.f.Start]) && sameSentence(answer, rs[prev].f.End, r.f.Start) && sameMoney(r.f, rs[prev].f) {
			r.role, r.why, r.other = hedged, quote(answer, rs[prev].f.Start, r.f.End), prev
		}
		if r.role == asserted && !r.period.none() && !r.period.fitsAny(asked) {
			r.role, r.why = elsewhere, quote(answer, start, end)
		}
	}
	// A change "from X to Y": X is what Y is compared with, and Y is
	// stated. The reader takes it for a range.
	for i := range rs {
		f := rs[i].f
		if !f.RangeFirst || i+1 >= len(rs) {
			continue
		}
		start, _ := clauseBounds(answer, f.Start, f.End)
		sStart, _ := sentenceBounds(answer, f.Start, f.End)
		before := strings.ToLower(answer[start:f.Start])
		if changeFromRE.MatchString(strings.ToLower(answer[sStart:f.Start])) {
			if rs[i].role == asserted || rs[i].role == hedged {
				rs[i].role, rs[i].why = compared, quote(answer, start, f.End)
			}
			continue
		}
		// A range runs from the smaller to the larger: "€142.80 — €11.40
		// more" is not one.
		if math.Abs(f.Value) > math.Abs(rs[i+1].f.Value) {
			continue
		}
		if fromRE.MatchString(before) || betweenRE.MatchString(before) || rangeDashRE.MatchString(answer[f.End:rs[i+1].f.Start]) {
			rs[i].other, rs[i+1].other = i+1, i
		}
	}
	return rs
}

// sameMoney reports whether two figures may be amounts in one currency:
// "JPY 4,300,000, or SGD 37,840" says one amount twice, not two
// candidates.
func sameMoney(a, b figures.Figure) bool {
	return a.Currency == "" || b.Currency == "" || strings.EqualFold(a.Currency, b.Currency) ||
		a.Currency == "$" || b.Currency == "$"
}

// roleOf reads a figure's role from the words just before it (lead) and
// just after it (tail), within its clause.
func roleOf(f figures.Figure, lead, tail, answer string, clauseStart int) (role, string) {
	if f.Hedged {
		return hedged, quote(answer, clauseStart, f.End)
	}
	// The words that give a role stand next to the figure: read at most
	// the last and first 80 bytes of its clause around it.
	l := strings.ToLower(trimMarks(lastBytes(lead, 80)))
	t := strings.ToLower(trimMarksLeft(firstBytes(tail, 80)))
	at := func(i int) string { return quote(answer, clauseStart, min(len(answer), f.End+i)) }
	switch {
	case operatorAfterRE.MatchString(t) || operatorBeforeRE.MatchString(l):
		return operand, at(len(tail))
	case negatedRE.MatchString(l):
		return negated, at(0)
	case compareBeforeRE.MatchString(l):
		return compared, at(0)
	case compareAfterRE.MatchString(t):
		return compared, at(len(tail))
	case differenceRE.MatchString(t):
		return difference, at(len(tail))
	case maybeRE.MatchString(l):
		return hedged, at(0)
	case elsewhereAfterRE.MatchString(t):
		return elsewhere, at(len(tail))
	}
	return asserted, ""
}

// The words that give a figure its role. A qualifier ("about", "~") may
// stand between them and the figure.
const approx = `(?:\s+(?:about|around|roughly|approximately|approx\.?|some|nearly|almost|just\s+(?:over|under)|~|≈))?\s*$`

var (
	compareBeforeRE = lazyregexp.New(`(?:\b(?:from|out\s+of|share\s+of|part\s+of|compared\s+(?:with|to)|against|vs\.?|versus|than|instead\s+of|rather\s+than|previously|prior(?:\s+(?:to|of))?|formerly|down\s+from|up\s+from|was\s+previously)|\bthe\s+(?:previous|prior|earlier|old)\s+(?:figure|value|balance|total|amount)\s+(?:of|was|is)?)` + approx)
	differenceRE    = lazyregexp.New(`^\s*(?:[a-z]+\s+){0,2}?(?:more|less|fewer|higher|lower|above|below|greater|bigger|smaller)\s+(?:[\w']+\s+){0,3}?than\b`)
	compareAfterRE  = lazyregexp.New(`^\s*(?:before\b(?:\s+(?:tax|taxes|fees|costs|deductions|expenses)\b)?|earlier\b|previously\b|ago\b|(?:in|at)\s+the\s+(?:previous|prior)\b|a\s+(?:year|month|quarter)\s+(?:ago|earlier|before)\b)`)
	negatedRE       = lazyregexp.New(`\b(?:not|isn't|is\s+not|wasn't|was\s+not|aren't|are\s+not|weren't|won't\s+be|will\s+not\s+be|no\s+longer|never|rather\s+than)(?:\s+(?:about|around|exactly|quite|the|a|an))?\s*$`)
	maybeRE         = lazyregexp.New(`\b(?:maybe|perhaps|possibly|might\s+be|may\s+be|could\s+be)` + approx)
	// elsewhereAfterRE: "X is last year's figure", "X was for December".
	elsewhereAfterRE = lazyregexp.New(`^\s*(?:(?:figure|value|number|amount|total|balance)\s+)?(?:is|was|are|were|would\s+be)\s+(?:the\s+|a\s+)?(?:figure\s+)?(?:for\s+)?(?:last|previous|prior)\s+(?:year|month|quarter|week)'?s?\b`)
	// operatorAfterRE: a term followed by an operator and another number.
	operatorAfterRE  = lazyregexp.New(`^\s*(?:[+×÷]|\*\s*\d|\s[x−-]\s|\bplus\b|\bminus\b|\btimes\b)`)
	operatorBeforeRE = lazyregexp.New(`(?:[+×÷]|\d\s*\*|\s[x−-]|\bplus|\bminus|\btimes)\s*$`)
	orRE             = lazyregexp.New(`^[\s*_]*(?:,\s*)?(?:or|/|or\s+(?:maybe|perhaps|possibly|about|around|roughly))[\s*_]*$`)
	changeFromRE     = lazyregexp.New(`\b(?:rises?|rose|risen|rising|falls?|fell|fallen|falling|grows?|grew|grown|growing|increase[sd]?|increasing|decrease[sd]?|decreasing|drop(?:s|ped)?|decline[sd]?|climb(?:s|ed)?|jump(?:s|ed)?|slip(?:s|ped)?|go(?:es)?\s+(?:up|down)|went\s+(?:up|down)|gone\s+(?:up|down)|move[sd]?|change[sd]?|up|down)\b(?:\s+by\s+[^,.;]*?)?[\s,]+from` + approx)
	fromRE           = lazyregexp.New(`\b(?:anywhere|somewhere|ranging|ranges?)\s+from` + approx)
	betweenRE        = lazyregexp.New(`\bbetween` + approx)
	rangeDashRE      = lazyregexp.New(`^\s*(?:-|–|—|to)\s*$`)
)

// downRE and upRE are the words that give an unsigned figure its sign:
// "fell 3.5%" is -3.5%, "a loss of 1,200" is -1,200.
var (
	downRE = lazyregexp.New(`(?i)\b(?:gesunken|gefallen|zurückgegangen|verloren|Verlust|Rückgang|weniger|baissé|diminué|perte|fell|falls?|fallen|falling|dropp?(?:ed|s)?|decrease[sd]?|decreasing|declined?|declines|down|lost|loss(?:es)?|lower|less|shr[au]nk|shrinks?|deficit|shortfall|negative|minus|overdrawn|owe[sd]?|owing|debt|reduced|cut)\b`)
	upRE   = lazyregexp.New(`(?i)\b(?:gestiegen|Anstieg|mehr|augmenté|hausse|rose|rises?|risen|rising|grew|grows?|grown|growing|increase[sd]?|increasing|up|gain(?:ed|s)?|higher|climbed|jumped|positive|plus|surplus)\b`)
)

// direction returns -1 when the words of a figure's clause say it goes
// down or is a loss ("fell 3.5%", "um 640,50 € gesunken"), 1 when they say
// it goes up, else 0; lead and tail are the clause before and after it,
// and the word nearest the figure decides.
func direction(lead, tail string) int {
	best, dir := -1, 0
	for _, w := range []struct {
		re  *lazyregexp.Regexp
		dir int
	}{{downRE, -1}, {upRE, 1}} {
		if m := w.re.FindAllStringIndex(lead, -1); len(m) > 0 {
			if d := len(lead) - m[len(m)-1][1]; best < 0 || d < best {
				best, dir = d, w.dir
			}
		}
		if m := w.re.FindStringIndex(tail); m != nil {
			if d := m[0]; best < 0 || d < best {
				best, dir = d, w.dir
			}
		}
	}
	return dir
}

// lastBytes returns about the last n bytes of s, cut at a rune's start.
func lastBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := len(s) - n
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return s[i:]
}

// firstBytes returns about the first n bytes of s, cut at a rune's start.
func firstBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// trimMarks drops the Markdown marks and spaces at the end of lead text.
func trimMarks(s string) string { return strings.TrimRight(s, " \t*_`") }

// trimMarksLeft drops them at the start of tail text.
func trimMarksLeft(s string) string { return strings.TrimLeft(s, "*_`") }

// clauseBounds returns the clause around the span [from, to): the text
// between the nearest clause marks (. ! ? ; : , newline, parentheses,
// dashes, table bars) outside any figure.
func clauseBounds(s string, from, to int) (int, int) { return bounds(s, from, to, clauseMark) }

// sentenceBounds returns the sentence (or line) around the span [from, to).
func sentenceBounds(s string, from, to int) (int, int) { return bounds(s, from, to, sentenceMark) }

// bounds returns the text around [from, to) between the nearest places
// mark says end it.
func bounds(s string, from, to int, mark func(string, int) bool) (int, int) {
	start := 0
	for i := from - 1; i >= 0; i-- {
		if mark(s, i) {
			start = i + 1
			if s[i] == 0xE2 {
				start = i + 3 // past "—" or "–"
			}
			break
		}
	}
	end := len(s)
	for i := to; i < len(s); i++ {
		if mark(s, i) {
			end = i
			break
		}
	}
	return start, end
}

// clauseMark reports whether s[i] ends a clause.
func clauseMark(s string, i int) bool {
	switch s[i] {
	case ';', ':', '\n', '(', ')', '[', ']', '|':
		return true
	case ',':
		// A comma between digits groups them; one followed by a space
		// separates clauses.
		return !(i > 0 && i+1 < len(s) && isDigit(s[i-1]) && isDigit(s[i+1]))
	case '.', '!', '?':
		return i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\n' || s[i+1] == '*'
	case '-':
		// " - " is a dash; "-" inside a word or before a number is not.
		return i > 0 && i+1 < len(s) && s[i-1] == ' ' && s[i+1] == ' '
	case 0xE2:
		// "—" and "–" with spaces around them.
		if strings.HasPrefix(s[i:], "—") {
			return true
		}
		if strings.HasPrefix(s[i:], "–") {
			return i > 0 && s[i-1] == ' '
		}
	}
	return false
}

func sentenceMark(s string, i int) bool {
	switch s[i] {
	case '\n':
		return true
	case '.', '!', '?':
		return i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\n' || s[i+1] == '*'
	}
	return false
}

func sameSentence(s string, from, to int) bool {
	for i := from; i < to && i < len(s); i++ {
		if sentenceMark(s, i) {
			return false
		}
	}
	return true
}

// boundText returns the words a figure is bound to: its clause, and the
// heading it continues ("Net worth, March 2026: X", "| Net worth | X |"):
// the clauses before a ":" or "|" in its sentence that hold no figure of
// the kind asked. A clause that starts with its verb ("…, though, is X")
// takes the clauses before it that name its subject.
func boundText(s string, start, end, at int, fs []figures.Figure, fits func(figures.Figure) bool) string {
	sStart, _ := sentenceBounds(s, start, end)
	for start > sStart && (s[start-1] == ':' || s[start-1] == '|') {
		hs, _ := clauseBounds(s, start-1, start-1)
		hs = max(hs, sStart)
		if hasFigure(fs, fits, hs, start-1) {
			break
		}
		start = hs
	}
	for k := 0; k < 2 && start > sStart && predicateRE.MatchString(strings.ToLower(s[start:at])); k++ {
		hs, _ := clauseBounds(s, start-1, start-1)
		hs = max(hs, sStart)
		if hasFigure(fs, fits, hs, start-1) {
			break
		}
		start = hs
	}
	return s[start:end]
}

// predicateRE matches a clause that holds only a verb and what follows
// it, or nothing: its subject is in the clause before.
var predicateRE = lazyregexp.New(`^[\s*_]*(?:(?:though|however|actually|in\s+fact|really)[\s,]*)*(?:(?:is|was|are|were|comes?\s+to|came\s+to|stands?\s+at|stood\s+at|totals?|totall?ed|amounts?\s+to|amounted\s+to)\b.*)?$`)

// copulaRE matches the words that make a figure the value of what comes
// before it: "net worth was X", "the loaf stays at X", "a return of X".
var copulaRE = lazyregexp.New(`(?:\b(?:is|was|are|were|be|been|'s|stands?\s+at|stood\s+at|stays?\s+at|stayed\s+at|comes?\s+to|came\s+to|totals?|totall?ed|amounts?\s+to|amounted\s+to|reached|equals?|holds?|held|made|makes|earned|returned|spent|sold|costs?|of)|[:=])` + approx)

// namesAny reports whether text holds a word of ws.
func namesAny(text string, ws []string) bool {
	for _, w := range ws {
		if namesAll(text, []string{w}) {
			return true
		}
	}
	return false
}

// anotherThing returns the thing of the kind asked that subject, the
// words a verb binds a figure to, names in place of the one ref (the
// figure's label, else the question) names: a word of ref qualified by
// another word ("savings account" where ref says "checking account"),
// that word found nowhere in ref. It is empty when subject names no
// other thing.
func anotherThing(subject, ref string) string {
	words := func(s string) []string {
		ws := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '’'
		})
		for i, w := range ws {
			w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")
			ws[i] = strings.Trim(w, "'’")
		}
		return ws
	}
	plain := func(w string) bool { return !labelStop[w] && !questionStop[w] && !isNumber(w) }
	rw := words(ref)
	in := map[string]bool{}
	heads := map[string]bool{}
	for i, w := range rw {
		in[w], in[singular(w)] = true, true
		if i > 0 && plain(w) && plain(rw[i-1]) {
			heads[singular(w)] = true
		}
	}
	sw := words(subject)
	for i := len(sw) - 1; i > 0; i-- {
		m, h := sw[i-1], singular(sw[i])
		if heads[h] && plain(m) && !in[m] && !in[singular(m)] {
			return m + " " + sw[i]
		}
	}
	return ""
}

// codeSpan matches Markdown code: a tool's name or an argument is not
// prose that says what a figure is.
var codeSpan = lazyregexp.New("`[^`]*`")

func hasFigure(fs []figures.Figure, fits func(figures.Figure) bool, from, to int) bool {
	for _, f := range fs {
		if fits(f) && f.Start >= from && f.End <= to {
			return true
		}
	}
	return false
}

// referenceRE marks a period written as a reference point, not as the
// figure's own period: "since last year", "compared with March".
var referenceRE = lazyregexp.New(`(?i)\b(?:since|from|than|compared\s+(?:with|to)|vs\.?|versus|over|through|thru|until|till|as\s+of)\s+(?:the\s+(?:end|start)\s+of\s+)?$`)

// boundPeriod returns the period a figure is bound to: the nearest
// period written in its clause (and heading) with no other figure of the
// kind between them; else the nearest before it in its sentence with
// none between. A period written as a reference point ("since March",
// "data through Sep 2026") binds nothing.
func boundPeriod(s string, start, end int, f figures.Figure, fs []figures.Figure, fits func(figures.Figure) bool, asked []period, ms mentions) (period, bool) {
	sStart, _ := sentenceBounds(s, start, end)
	text := boundText(s, start, end, f.Start, fs, fits)
	bStart := end - len(text)
	best, bestD := period{}, -1
	consider := func(from, to int, onlyBefore bool) {
		for k, p := range ms.ps {
			o := ms.at[k]
			if o < from || o+len(p.text) > to {
				continue
			}
			if referenceRE.MatchString(s[max(from, o-40):o]) && !p.fitsAny(asked) {
				continue
			}
			if onlyBefore && o >= f.Start {
				continue
			}
			if o >= f.Start && o < f.End {
				continue
			}
			lo, hi := o+len(p.text), f.Start
			if o > f.Start {
				lo, hi = f.End, o
				// "X in December and in March Y": a period after a joining
				// word starts the next figure's clause.
				if joinRE.MatchString(s[lo:hi]) {
					continue
				}
				// "X once April's revaluation is included": a possessive
				// period qualifies another noun, unless the figure is said
				// to be its ("X is December's").
				if possessive(s, o+len(p.text)) && !isForRE.MatchString(s[lo:hi]) {
					continue
				}
			}
			if hasFigure(fs, func(g figures.Figure) bool { return fits(g) && g.Start != f.Start }, lo, hi) {
				continue
			}
			if o < f.Start && attachedToOther(s, from, o, f, fs, fits) {
				continue
			}
			d := hi - lo
			if bestD < 0 || d < bestD {
				best, bestD = p, d
			}
		}
	}
	consider(bStart, end, false)
	if bestD >= 0 {
		return best, true
	}
	if sStart < bStart {
		consider(sStart, bStart, true)
	}
	return best, false
}

// attachRE matches the words between a figure and a period written just
// after it, which ties the period to that figure: "X in January", "X at
// the end of March", "X (December)".
var attachRE = lazyregexp.New(`(?i)^[\s*_]*(?:in|at|on|for|by|during|as\s+of)?\s*(?:the\s+)?(?:end\s+of\s+|start\s+of\s+)?$`)

// attachedToOther reports whether the period at offset o belongs to a
// figure of the kind written just before it that is not f.
func attachedToOther(s string, from, o int, f figures.Figure, fs []figures.Figure, fits func(figures.Figure) bool) bool {
	for k := len(fs) - 1; k >= 0; k-- {
		g := fs[k]
		if g.End > o || g.Start < from || !fits(g) {
			continue
		}
		return g.Start != f.Start && attachRE.MatchString(s[g.End:o])
	}
	return false
}

// quote returns s[from:to] trimmed and clipped for a reason.
func quote(s string, from, to int) string {
	from = max(0, min(from, len(s)))
	to = max(from, min(to, len(s)))
	q := strings.TrimSpace(NormalizeText(emphasis.Replace(s[from:to])))
	q = strings.TrimRight(q, ",;:")
	if utf8.RuneCountInString(q) > 90 {
		r := []rune(q)
		q = string(r[:87]) + "…"
	}
	return q
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// stop words a label's content words leave out.
var labelStop = map[string]bool{
	"the": true, "a": true, "an": true, "of": true, "at": true, "in": true, "on": true,
	"for": true, "to": true, "and": true, "our": true, "your": true, "my": true, "end": true,
	"start": true, "total": true, "as": true, "by": true, "from": true, "over": true, "per": true,
}

// contentWords returns the words of a label that say what the figure is:
// "net worth at the end of March 2026" → net, worth.
func contentWords(label string) []string {
	ps, at := periods(label)
	b := []byte(label)
	for k, p := range ps {
		for i := at[k]; i < at[k]+len(p.text); i++ {
			b[i] = ' '
		}
	}
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(string(b)), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if !labelStop[w] && !isNumber(w) {
			out = append(out, w)
		}
	}
	return out
}

func isNumber(w string) bool {
	for _, c := range w {
		if !unicode.IsDigit(c) {
			return false
		}
	}
	return true
}

// namesAll reports whether text holds every word of ws (a word may be
// plural or possessive in the text).
func namesAll(text string, ws []string) bool {
	if len(ws) == 0 {
		return false
	}
	words := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	}) {
		w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "'")
		words[w] = true
		words[singular(w)] = true
	}
	for _, w := range ws {
		if !words[w] && !words[singular(w)] {
			return false
		}
	}
	return true
}

// singular folds a plural English noun the simple way: "units" → "unit",
// "holdings" → "holding", "boxes" → "box".
func singular(w string) string {
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "ses") || strings.HasSuffix(w, "xes") || strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "ss"):
		return w
	case strings.HasSuffix(w, "s") && len(w) > 2:
		return w[:len(w)-1]
	}
	return w
}

// unitWords are the short forms of units, read as the unit's name.
var unitWords = map[string]string{
	"b": "byte", "kb": "kilobyte", "kib": "kilobyte", "mb": "megabyte", "mib": "megabyte",
	"gb": "gigabyte", "gib": "gigabyte", "tb": "terabyte", "kg": "kilogram", "g": "gram",
	"mg": "milligram", "km": "kilometre", "kilometer": "kilometre", "m": "metre", "meter": "metre",
	"cm": "centimetre", "mm": "millimetre", "l": "litre", "liter": "litre", "ml": "millilitre",
	"pcs": "piece", "pc": "piece", "h": "hour", "hr": "hour", "hrs": "hour", "min": "minute",
	"mins": "minute", "s": "second", "sec": "second", "secs": "second", "d": "day", "wk": "week",
	"wks": "week", "mo": "month", "mos": "month", "yr": "year", "yrs": "year",
}

// timeUnits are the units of a count of time.
var timeUnits = map[string]bool{
	"second": true, "sec": true, "minute": true, "min": true, "hour": true, "hr": true, "day": true,
	"week": true, "wk": true, "month": true, "mo": true, "quarter": true, "year": true, "yr": true,
}

// unitFits reports whether a count's unit as written may be the unit
// expected: when both name one, a word of the one written is the unit
// expected or a word of the label (case and plural folded: "450 VOO"
// for "VOO units"); a count of time only ever for a count of time.
func unitFits(got, want, label string) bool {
	words := func(s string) []string {
		var out []string
		for _, w := range strings.Fields(strings.ToLower(s)) {
			if u, ok := unitWords[w]; ok {
				w = u
			}
			out = append(out, singular(w))
		}
		return out
	}
	gs, ws := words(got), words(want)
	if len(gs) == 0 {
		return true
	}
	anyTime := func(xs []string) bool {
		for _, x := range xs {
			if timeUnits[x] {
				return true
			}
		}
		return false
	}
	if anyTime(gs) != anyTime(ws) {
		return false
	}
	if len(ws) == 0 {
		return true
	}
	for _, l := range contentWords(label) {
		ws = append(ws, singular(l))
	}
	for _, g := range gs {
		for _, w := range ws {
			if g == w {
				return true
			}
		}
	}
	return false
}
