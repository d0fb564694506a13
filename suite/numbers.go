package suite

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mcpeval/mcpeval/grade/figures"
	"golang.org/x/text/language"

	"github.com/mcpeval/mcpeval/internal/lazyregexp"
)

// The decimal mark of a suite's `numbers:` setting, by language, as the
// Unicode CLDR writes numbers in each (1234.5 is "1,234.5" in English,
// "1.234,5" in German, "1 234,5" in French). A region may differ from its
// language: Swiss German writes "1’234.5", Mexican Spanish "1,234.5", South
// African English "1 234,5".
var (
	// commaLanguages write a decimal comma.
	commaLanguages = strings.Fields(`af az be bg bs ca cs da de el es et eu fi fr gl hr hu hy id is it
		ka kk ky lt lv mk nb nl nn no pl pt ro ru sk sl sq sr sv tr uk uz vi`)
	// pointLanguages write a decimal point.
	pointLanguages = strings.Fields(`bn cy en fil ga he hi ja ko mn ms mt sw ta th ur zh`)
	// regionMarks are the regions whose mark is not their language's.
	regionMarks = map[string]byte{
		"de-CH": '.', "de-LI": '.', "it-CH": '.',
		"es-MX": '.', "es-US": '.', "es-419": '.',
		"en-ZA": ',',
	}
)

// reLanguageTag is the shape of a BCP 47 tag: a language and subtags,
// joined by hyphens.
var reLanguageTag = lazyregexp.New(`^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$`)

// Locale is a BCP 47 language tag naming how numbers are written ("en",
// "en-GB", "de", "de-CH", "fr"). Reading one from YAML refuses a tag whose
// decimal mark is not known (see DecimalMark).
type Locale string

// UnmarshalText implements encoding.TextUnmarshaler.
func (l *Locale) UnmarshalText(b []byte) error {
	if _, err := DecimalMark(string(b)); err != nil {
		return err
	}
	*l = Locale(b)
	return nil
}

// DecimalMark returns the decimal mark ('.' or ',') of the numbers a
// BCP 47 language tag writes ("en", "en-GB", "de", "de-CH", "fr").
// A malformed tag, or one whose language is in neither table, is an
// error that lists the languages known.
func DecimalMark(tag string) (byte, error) {
	t, err := language.Parse(tag)
	if err != nil || !reLanguageTag.MatchString(tag) {
		return 0, fmt.Errorf("numbers %q is not a language tag such as en, en-GB, de, de-CH or fr: want one whose language is one of %s", tag, knownLanguages())
	}
	b, _, r := t.Raw()
	base := b.String()
	if r.String() != "ZZ" {
		if m, ok := regionMarks[base+"-"+r.String()]; ok {
			return m, nil
		}
	}
	switch {
	case contains(commaLanguages, base):
		return ',', nil
	case contains(pointLanguages, base):
		return '.', nil
	}
	return 0, fmt.Errorf("numbers %q: no decimal mark known for language %q: want a tag whose language is one of %s", tag, base, knownLanguages())
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

func knownLanguages() string {
	all := append(append([]string(nil), pointLanguages...), commaLanguages...)
	sort.Strings(all)
	return strings.Join(all, ", ")
}

// FigureOptions returns how the figures of answers and tool results are
// read under the suite's `numbers:` setting: with its locale's decimal
// mark, or with none when the setting is empty (then a form that rests on
// it, such as "1.500", is reported ambiguous).
func (s *Suite) FigureOptions() figures.Options {
	if s == nil || s.Numbers == "" {
		return figures.Options{}
	}
	m, err := DecimalMark(string(s.Numbers))
	if err != nil {
		return figures.Options{} // refused when the suite is loaded
	}
	return figures.Options{Decimal: m}
}
