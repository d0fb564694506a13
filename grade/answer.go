package grade

import (
	"fmt"
	"regexp"
	"strings"

	"golang.org/x/text/cases"
	unorm "golang.org/x/text/unicode/norm"

	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// CheckAnswer names the reasons of a case's answer check: a string the
// answer misses or must not say, or a pattern it does not match.
const CheckAnswer = "answer"

// checkAnswer runs case c's answer check on the final answer of attempt a.
// Each failing part is its own reason. The check's strings are rendered
// with the attempt's token and fixture facts first.
func checkAnswer(c *suite.Case, a *record.Attempt) []Reason {
	ac := c.Answer
	if ac == nil {
		return nil
	}
	var v suite.Vars
	if a.Fixture != nil {
		v = suite.Vars{Token: a.Fixture.Token, Facts: a.Fixture.Facts}
	}
	var rs []Reason
	fail := func(format string, args ...any) {
		rs = append(rs, Reason{CheckAnswer, fmt.Sprintf(format, args...)})
	}
	fold := func(s string) string {
		s = plainText(s)
		if !ac.CaseSensitive {
			s = cases.Fold().String(s)
		}
		return s
	}
	answer := fold(a.Answer)
	// render renders and folds a check string; a string that cannot be
	// rendered is a fault of the suite, said as such.
	render := func(s string) (string, bool) {
		r, err := suite.Render(s, v)
		if err != nil {
			fail("cannot check %q: %v", s, err)
			return "", false
		}
		return fold(r), true
	}
	for _, s := range ac.Contains {
		if w, ok := render(s); ok && !strings.Contains(answer, w) {
			fail("missing %q", shownValue(s, v))
		}
	}
	if len(ac.AnyOf) > 0 {
		found := false
		for _, s := range ac.AnyOf {
			if w, ok := render(s); ok && strings.Contains(answer, w) {
				found = true
			}
		}
		if !found {
			var q []string
			for _, s := range ac.AnyOf {
				q = append(q, fmt.Sprintf("%q", shownValue(s, v)))
			}
			fail("says none of %s", strings.Join(q, ", "))
		}
	}
	for _, s := range ac.NotContains {
		if w, ok := render(s); ok && strings.Contains(answer, w) {
			fail("must not say %q", shownValue(s, v))
		}
	}
	if ac.Matches != "" {
		if !matches(ac, v, a.Answer, fail) {
			fail("does not match /%s/", shownValue(ac.Matches, v))
		}
	}
	return rs
}

// matches reports whether the answer matches ac's pattern; a pattern that
// does not compile is reported through fail (and does not match).
func matches(ac *suite.AnswerCheck, v suite.Vars, answer string, fail func(string, ...any)) bool {
	expr, err := suite.AnswerPattern(ac.Matches, v)
	if err != nil {
		fail("cannot check /%s/: %v", ac.Matches, err)
		return true
	}
	if !ac.CaseSensitive {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		fail("cannot check /%s/: %v", ac.Matches, err)
		return true
	}
	return re.MatchString(plainText(answer))
}

// shownValue renders s with v for a reason, or leaves it as written.
func shownValue(s string, v suite.Vars) string {
	if r, err := suite.Render(s, v); err == nil {
		return r
	}
	return s
}

// typographic maps the quotes, dashes and spaces an answer may use to the
// ASCII forms a suite writes.
var typographic = strings.NewReplacer(
	"\u2018", "'", "\u2019", "'", "\u201a", "'", "\u201b", "'", "\u2032", "'",
	"\u201c", `"`, "\u201d", `"`, "\u201e", `"`, "\u201f", `"`, "\u2033", `"`,
	"\u00ab", `"`, "\u00bb", `"`,
	"\u2010", "-", "\u2011", "-", "\u2012", "-", "\u2013", "-", "\u2014", "-",
	"\u2015", "-", "\u2212", "-", "\ufe58", "-", "\ufe63", "-", "\uff0d", "-",
	"\u00ad", "", "\u200b", "", "\u200c", "", "\u200d", "", "\u2060", "", "\ufeff", "",
)

// NormalizeText is how answer checks read text (after dropping the
// Markdown marks * and `): Unicode NFKC (full-width
// letters, ligatures and non-breaking spaces become their plain forms),
// curly quotes and dashes as ASCII, invisible characters removed, and
// every run of white space one space, trimmed.
func NormalizeText(s string) string {
	s = unorm.NFKC.String(s)
	s = typographic.Replace(s)
	return strings.Join(strings.Fields(s), " ")
}

// emphasis drops the Markdown marks that split words without changing
// what is said ("**no** CSV files").
var emphasis = strings.NewReplacer("*", "", "`", "")

// plainText is NormalizeText without Markdown emphasis marks.
func plainText(s string) string {
	return NormalizeText(emphasis.Replace(s))
}
