package grade

import (
	"fmt"
	"math"
	"strings"

	"github.com/mcpeval/mcpeval/grade/figures"
	"github.com/mcpeval/mcpeval/internal/lazyregexp"
	"github.com/mcpeval/mcpeval/suite"
)

// checkFigures checks that every expected figure is stated in the answer
// as the answer: a figure of the answer that fits it (kind, currency,
// unit) is within its tolerance (see Match) and is stated, not compared
// with, negated, hedged, credited to another period or a term of a
// calculation, and no other figure of the answer is stated for the same
// thing (see docs/suite.md, "Which figure is the answer"). Each failing
// figure is its own reason, saying what the answer states instead.
func checkFigures(s *suite.Suite, c *suite.Case, answer string) []Reason {
	if len(c.Figures) == 0 {
		return nil
	}
	all := readable(answer, s.FigureOptions())
	var rs []Reason
	for i := range c.Figures {
		if r, ok := checkFigure(s, c, i, answer, all); !ok {
			rs = append(rs, r)
		}
	}
	return rs
}

// readable returns the figures of an answer that could state a figure:
// all but years, dates, list numbers and account numbers. Figures the
// answer declines to vouch for are kept, read as hedged.
func readable(answer string, o figures.Options) []figures.Figure {
	var out []figures.Figure
	for _, f := range figures.ExtractWith(answer, o) {
		if !f.IsYear && !f.IsDate && !f.IsList && !f.IsAccount {
			out = append(out, f)
		}
	}
	return out
}

// checkFigure checks case c's i-th figure against the answer's figures
// all.
func checkFigure(s *suite.Suite, c *suite.Case, i int, answer string, all []figures.Figure) (Reason, bool) {
	want := c.Figures[i]
	tol := s.FigureTolerance(c, want) // before the kind default: no kind is exact
	if want.Kind == "" {
		want.Kind = suite.Money
	}
	ofKind := func(f figures.Figure) bool { return kindFits(f, want) }
	fits := func(f figures.Figure) bool {
		return kindFits(f, want) && currencyFits(f.Currency, want.Currency) &&
			(want.Kind != suite.Count || unitFits(f.Unit, want.Unit, want.Label))
	}
	asked := askedPeriods(want.Label, c.Prompt)
	rd := readAnswer(answer, all, ofKind, asked)
	diff := asksDifference.MatchString(c.Prompt + " " + want.Label)
	within := func(r reading) bool {
		return fits(r.f) && !r.f.Ambiguous && Match(r.f, want, tol) && signFits(r, answer, want)
	}
	// otherWant reports whether f states another expected figure of the
	// case: such a figure is never a competitor.
	otherWant := func(f figures.Figure) bool {
		for j, w := range c.Figures {
			if j == i {
				continue
			}
			t := s.FigureTolerance(c, w)
			if w.Kind == "" {
				w.Kind = suite.Money
			}
			if Match(f, w, t) {
				return true
			}
		}
		return false
	}
	ref := want.Label
	if ref == "" {
		ref = c.Prompt
	}
	var good, only []reading
	for _, r := range rd {
		if !within(r) {
			continue
		}
		if r.role == asserted && copulaRE.MatchString(strings.ToLower(trimMarks(r.lead))) {
			if thing := anotherThing(before(codeSpan.ReplaceAllString(r.clause, " "), r), ref); thing != "" {
				r.role, r.why = another, thing
			}
		}
		if r.role == asserted {
			if thing := anotherThing(namedAfter(codeSpan.ReplaceAllString(r.clause, " "), r), ref); thing != "" {
				r.role, r.why = another, thing // "X is the savings account's"
			}
		}
		switch {
		case r.role == asserted, r.role == difference && diff:
			good = append(good, r)
		case r.role == compared && r.prev >= 0 && otherWant(rd[r.prev].f):
			// "450 VOO vs 400 FXTC shares": two figures asked for, set
			// side by side.
			good = append(good, r)
		case r.role == hedged && r.other >= 0 && within(rd[r.other]):
			// "either 2,261,924 or 2,261,925": both within the tolerance.
			good = append(good, r)
		case r.role == asserted || r.other >= 0 && r.f.Range && within(rd[r.other]):
			good = append(good, r)
		default:
			only = append(only, r)
		}
	}
	// A range both of whose ends are within the tolerance states it; a
	// wider one does not.
	for k := 0; k < len(good); k++ {
		r := good[k]
		if r.f.Range && r.other >= 0 && !within(rd[r.other]) {
			r.role, r.why = hedged, quote(answer, min(r.f.Start, rd[r.other].f.Start), max(r.f.End, rd[r.other].f.End))
			only = append(only, r)
			good = append(good[:k], good[k+1:]...)
			k--
		}
	}
	words := contentWords(want.Label)
	if len(words) == 0 {
		words = questionWords(c.Prompt)
	}
	var rivals []reading
	for _, r := range rd {
		if !fits(r.f) || within(r) || r.role != asserted || otherWant(r.f) || r.f.Ambiguous || r.inCode {
			continue
		}
		if r.f.Range && r.other >= 0 {
			continue
		}
		clause := codeSpan.ReplaceAllString(r.clause, " ")
		bound := copulaRE.MatchString(strings.ToLower(trimMarks(r.lead)))
		if bound && anotherThing(before(clause, r), ref) != "" {
			// "the savings account holds 120,000": another thing's.
			continue
		}
		twice := withinTwice(r.f.Value, want.Value)
		switch {
		case namesAll(clause, words) && (bound || twice):
		case namesAny(before(clause, r), words) && bound:
		case r.own && len(asked) > 0 && bound && namesAny(clause, words):
			// "you spent EUR 282.45 on groceries in Q3 2026": what is asked,
			// for the period asked, in its own clause.
		case r.own && len(asked) > 0 && bound && twice:
			// "from November it will be 5.90 EUR": its own clause ties it
			// to the period asked.
		default:
			continue
		}
		rivals = append(rivals, r)
	}
	head := "expected " + expected(want, tol)
	switch {
	case len(good) > 0 && len(rivals) == 0:
		return Reason{}, true
	case len(good) > 0:
		return Reason{CheckFigures, head + "; the answer states " + clip(good[0].f.Text, 40) +
			" but also " + rival(rivals[0], want)}, false
	case len(only) > 0:
		msg := head + "; " + roleText(only[0], rd)
		if len(rivals) > 0 {
			msg += ", and " + rival(rivals[0], want)
		}
		return Reason{CheckFigures, msg}, false
	}
	var claims []figures.Figure
	for _, f := range all {
		if !f.Claim() {
			continue
		}
		// A figure of the value that counts something else is said apart.
		if want.Kind != suite.Count || unitFits(f.Unit, want.Unit, want.Label) || !Match(f, want, tol) {
			claims = append(claims, f)
		}
	}
	for _, r := range rd {
		if r.f.Ambiguous && fits(r.f) && (Match(r.f, want, tol) || tol.Within(r.f.Alt, want.Value) || r.f.Alt == want.Value) {
			return Reason{CheckFigures, fmt.Sprintf("%s; the answer's %s is ambiguous: %s or %s; say how the suite writes numbers with numbers: (a locale such as en or de)",
				head, clip(r.f.Text, 40), groupDigits(r.f.Value), groupDigits(r.f.Alt))}, false
		}
	}
	msg := head + "; " + stated(claims, want, answer)
	for _, r := range rd {
		if kindFits(r.f, want) && currencyFits(r.f.Currency, want.Currency) && Match(r.f, want, tol) && !fits(r.f) {
			msg += fmt.Sprintf("; the answer's %s counts %s (%q), not %s", clip(r.f.Text, 40), unitName(r.f.Unit), quote(answer, r.f.Start-30, r.f.End+20), unitName(want.Unit))
			break
		}
	}
	return Reason{CheckFigures, msg}, false
}

// signFits reports whether the sign an answer gives figure r fits the
// expected value: a figure written with a sign has it; an unsigned one
// takes its sign from the words before it in its clause ("fell 3.5%", "a
// loss of 1,200"), and may state a negative value only when they give it.
// An accounting parenthesis may stand for either sign.
func signFits(r reading, answer string, want suite.Figure) bool {
	if r.f.Signed && !r.f.Paren || r.f.Paren || want.Value == 0 || want.Kind == suite.Count {
		return true
	}
	start, end := clauseBounds(answer, r.f.Start, r.f.End)
	if want.Value < 0 {
		return direction(answer[start:r.f.Start], answer[r.f.End:end]) < 0
	}
	return !changeRE.MatchString(answer[start:r.f.Start])
}

// asksDifference matches a question that asks how far apart two things
// are: its answer is a difference ("50 more").
var asksDifference = lazyregexp.New(`(?i)\b(?:how\s+(?:many|much)\s+(?:more|less|fewer)|difference|by\s+how\s+much|gap|change[sd]?)\b`)

// changeRE matches the verbs of change: a positive figure said to fall
// is not the positive change asked for, where a loss of a positive
// amount may be.
var changeRE = lazyregexp.New(`(?i)\b(?:fell|falls?|fallen|dropp?(?:ed|s)?|decrease[sd]?|declined?|declines|shr[au]nk|shrinks?|reduced)\b`)

// questionWords are the content words of a question, for a figure with
// no label: "How much is in the fixed deposit?" → fixed, deposit.
func questionWords(prompt string) []string {
	var out []string
	for _, w := range contentWords(prompt) {
		if !questionStop[w] {
			out = append(out, w)
		}
	}
	return out
}

var questionStop = map[string]bool{
	"how": true, "much": true, "many": true, "what": true, "which": true, "who": true, "when": true,
	"where": true, "why": true, "is": true, "are": true, "was": true, "were": true, "do": true,
	"does": true, "did": true, "we": true, "us": true, "i": true, "me": true, "have": true, "has": true,
	"had": true, "be": true, "it": true, "there": true, "this": true, "that": true, "right": true,
	"now": true, "currently": true, "current": true, "will": true, "would": true, "can": true,
	"could": true, "please": true, "tell": true, "with": true, "into": true, "about": true,
}

// namedAfter returns what a figure that opens its sentence is said to be:
// the words after "X is" (or was, are, were) up to the end of that noun
// phrase (a comma, a semicolon, "and", "but", "while"), so that "X is the
// savings account's balance, and ..." reads "the savings account's
// balance". It is empty when no copula follows the figure.
func namedAfter(clause string, r reading) string {
	i := strings.LastIndex(clause, r.f.Text)
	if i < 0 {
		return ""
	}
	rest := clause[i+len(r.f.Text):]
	m := copulaAfterRE.FindStringIndex(strings.ToLower(rest))
	if m == nil {
		return ""
	}
	rest = rest[m[1]:]
	if j := phraseEndRE.FindStringIndex(strings.ToLower(rest)); j != nil {
		rest = rest[:j[0]]
	}
	return rest
}

// copulaAfterRE is a copula right after a figure; phraseEndRE where the
// phrase it names ends.
var (
	copulaAfterRE = lazyregexp.New(`^\s*(?:is|was|are|were)\s`)
	phraseEndRE   = lazyregexp.New(`[,;:.!?()]|\s(?:and|but|while|whereas|than|from|up|down)\b`)
)

// before returns the part of a figure's bound text before it: the
// subject a verb binds the figure to ("the fixed deposit holds X").
func before(clause string, r reading) string {
	if i := strings.LastIndex(clause, r.f.Text); i >= 0 {
		return clause[:i]
	}
	return clause
}

// withinTwice reports whether v is within a factor of two of want: a figure
// farther off is a figure of something else, not a rival answer.
func withinTwice(v, want float64) bool {
	v, want = math.Abs(v), math.Abs(want)
	if want == 0 {
		return v == 0
	}
	return v >= want/2 && v <= want*2
}

// rival says what the answer states for the thing asked instead.
func rival(r reading, want suite.Figure) string {
	what := "it"
	if want.Label != "" {
		what = want.Label
	}
	return fmt.Sprintf("states %s for %s (%q)", clip(r.f.Text, 40), what, quote(r.clause, 0, len(r.clause)))
}

// roleText says why a figure within the tolerance does not state it.
func roleText(r reading, rd []reading) string {
	t := clip(r.f.Text, 40)
	switch r.role {
	case compared:
		return fmt.Sprintf("%s appears only as the comparison (%q)", t, r.why)
	case negated:
		return fmt.Sprintf("the answer says it is not %s (%q)", t, r.why)
	case elsewhere:
		return fmt.Sprintf("the answer credits %s to another period (%q)", t, r.why)
	case another:
		return fmt.Sprintf("the answer credits %s to the %s", t, r.why)
	case operand:
		return fmt.Sprintf("%s appears only as a term of a calculation (%q)", t, r.why)
	case difference:
		return fmt.Sprintf("%s appears only as a difference between two figures (%q)", t, r.why)
	case hedged:
		if r.other >= 0 {
			o := rd[r.other].f
			a, b := r.f, o
			if o.Start < r.f.Start {
				a, b = o, r.f
			}
			if r.f.Range {
				return fmt.Sprintf("the answer hedges across the range %s to %s, wider than the tolerance (%q)", clip(a.Text, 40), clip(b.Text, 40), r.why)
			}
			return fmt.Sprintf("the answer hedges between %s and %s (%q)", clip(a.Text, 40), clip(b.Text, 40), r.why)
		}
		return fmt.Sprintf("the answer hedges on %s: it does not commit to it (%q)", t, r.why)
	}
	return t
}

func unitName(u string) string {
	if u == "" {
		return "something else"
	}
	return u
}

// stated lists the figures an answer states that could have been the
// expected one, the nearest marked with how far off it is.
func stated(claims []figures.Figure, want suite.Figure, answer string) string {
	if strings.TrimSpace(answer) == "" {
		return "the answer is empty"
	}
	var cands, near []figures.Figure
	for _, w := range claims {
		if kindFits(w, want) {
			cands = append(cands, w)
			// A plain number two orders of magnitude away (a rate, a
			// count) is not a candidate worth listing.
			if r := math.Abs(w.Value) / math.Max(math.Abs(want.Value), 1e-9); w.Kind != figures.Plain || r > 0.01 && r < 100 {
				near = append(near, w)
			}
		}
	}
	if len(near) > 0 {
		cands = near
	}
	if len(cands) == 0 {
		what := "money figure"
		switch want.Kind {
		case suite.Percent:
			what = "percentage"
		case suite.Count:
			what = "count"
		}
		if len(claims) == 0 {
			return "the answer states no figure"
		}
		return "the answer states no " + what + " (only " + listTexts(claims, 6) + ")"
	}
	nearest, best := -1, math.Inf(1)
	for i, w := range cands {
		if !currencyFits(w.Currency, want.Currency) {
			continue
		}
		for _, v := range signs(w) {
			if d := math.Abs(v - want.Value); d < best {
				nearest, best = i, d
			}
		}
	}
	var parts []string
	for i, w := range cands {
		if i == 6 {
			parts = append(parts, fmt.Sprintf("and %d more", len(cands)-6))
			break
		}
		p := clip(w.Text, 40)
		switch {
		case !currencyFits(w.Currency, want.Currency):
			p += " (in " + w.Currency + ", not " + want.Currency + ")"
		case i == nearest:
			v := w.Value
			if math.Abs(-v-want.Value) < math.Abs(v-want.Value) {
				v = -v
			}
			p += " (" + off(v, want) + ")"
		}
		parts = append(parts, p)
	}
	return "answer states " + strings.Join(parts, ", ")
}

func listTexts(fs []figures.Figure, max int) string {
	var parts []string
	for i, f := range fs {
		if i == max {
			parts = append(parts, fmt.Sprintf("and %d more", len(fs)-max))
			break
		}
		parts = append(parts, clip(f.Text, 40))
	}
	return strings.Join(parts, ", ")
}
