package grade

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpeval/mcpeval/grade/figures"
	"github.com/mcpeval/mcpeval/suite"
)

// quoteLen is how many bytes of a result's text a text check's problem
// quotes.
const quoteLen = 120

// CheckText checks the text of a result (a preflight or verify call's)
// against c, under suite s's tolerances and numbers: setting: every text
// of c.Contains appears in it, c.Matches matches somewhere in it, and for
// each figure of c.Figures some figure of the text, read as answers are
// read (years, dates, list numbers and identifiers left out, and a figure
// whose reading rests on an unknown decimal mark too), fits its kind and
// currency and is within its tolerance (see Match). Each failure is one
// problem, which says what was expected and quotes the start of the text
// on one line, escaped so that it is safe on a terminal. s may be nil (the
// default tolerances, no numbers: setting).
func CheckText(s *suite.Suite, c suite.TextCheck, text string) []string {
	var problems []string
	quoted := ", which reads " + quoteText(text)
	for _, want := range c.Contains {
		if !strings.Contains(text, want) {
			problems = append(problems, "contains "+strconv.Quote(want)+": not in the text"+quoted)
		}
	}
	if c.Matches != "" {
		re, err := c.Pattern()
		switch {
		case err != nil:
			problems = append(problems, fmt.Sprintf("matches %q: %v", c.Matches, err))
		case !re.MatchString(text):
			problems = append(problems, "matches "+strconv.Quote(c.Matches)+": nothing in the text matches"+quoted)
		}
	}
	if len(c.Figures) == 0 {
		return problems
	}
	if s == nil {
		s = &suite.Suite{}
	}
	all := readable(text, s.FigureOptions())
	for _, want := range c.Figures {
		tol := s.FigureTolerance(nil, want) // before the kind default: no kind is exact
		if want.Kind == "" {
			want.Kind = suite.Money
		}
		if !statesFigure(all, want, tol) {
			problems = append(problems, "figure "+expected(want, tol)+": not in the text"+quoted)
		}
	}
	return problems
}

// statesFigure reports whether one of the figures fits want (kind,
// currency, unit of a count) and is within tol of it.
func statesFigure(all []figures.Figure, want suite.Figure, tol suite.Tolerance) bool {
	for _, f := range all {
		if f.Ambiguous || (want.Kind == suite.Count && !unitFits(f.Unit, want.Unit, want.Label)) {
			continue
		}
		if Match(f, want, tol) {
			return true
		}
	}
	return false
}

// quoteText quotes the start of a result's text on one line: its spaces
// and line breaks run together, at most quoteLen bytes, every control
// and invisible character escaped.
func quoteText(text string) string {
	if strings.TrimSpace(text) == "" {
		return "nothing (the text is empty)"
	}
	return strconv.Quote(clip(text, quoteLen))
}
