package suite

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpeval/mcpeval/grade/figures"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	xnumber "golang.org/x/text/number"
)

func TestDecimalMark(t *testing.T) {
	for tag, want := range map[string]byte{
		"en": '.', "en-GB": '.', "en-US": '.', "ja": '.', "zh-Hant-TW": '.',
		"de": ',', "de-DE": ',', "de-AT": ',', "fr": ',', "fr-CH": ',', "pt-BR": ',', "es": ',',
		"de-CH": '.', "it-CH": '.', "es-MX": '.', "es-419": '.', "en-ZA": ',', "DE-ch": '.',
	} {
		if got, err := DecimalMark(tag); err != nil || got != want {
			t.Errorf("DecimalMark(%q) = %q, %v; want %q", tag, got, err, want)
		}
	}
	for _, bad := range []string{"", "xx", "english", "de_DE", "1", "de-", "tlh", "ar"} {
		_, err := DecimalMark(bad)
		if err == nil || !strings.Contains(err.Error(), "en, ") || !strings.Contains(err.Error(), "de, ") {
			t.Errorf("DecimalMark(%q) = %v, want an error listing the languages known", bad, err)
		}
	}
}

// TestDecimalMarkAgreesWithCLDR checks the table against the Unicode CLDR
// data of golang.org/x/text: each language and region writes 1234.5 with
// the decimal mark the table gives it.
func TestDecimalMarkAgreesWithCLDR(t *testing.T) {
	tags := append(append([]string(nil), commaLanguages...), pointLanguages...)
	for r := range regionMarks {
		tags = append(tags, r)
	}
	for _, tag := range tags {
		if tag == "no" {
			continue // x/text has no data of its own for "no"; CLDR writes it as nb
		}
		printed := message.NewPrinter(language.MustParse(tag)).Sprint(xnumber.Decimal(1234.5))
		r := []rune(printed)
		cldr := byte(r[len(r)-2])
		got, err := DecimalMark(tag)
		if err != nil || got != cldr {
			t.Errorf("DecimalMark(%q) = %q, %v; CLDR writes 1234.5 as %q", tag, got, err, printed)
		}
	}
}

// TestNumbersDoc checks what docs/suite.md says of numbers: the languages
// it lists under each mark, the regions, and how each locale reads the
// forms it names.
func TestNumbersDoc(t *testing.T) {
	b, err := os.ReadFile(docFile)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	start := strings.Index(doc, "### numbers\n")
	if start < 0 {
		t.Fatalf("%s has no numbers section", docFile)
	}
	sec := doc[start:]
	sec = sec[:strings.Index(sec[4:], "\n### ")+4]
	flat := strings.Join(strings.Fields(sec), " ")
	list := func(after string) []string {
		i := strings.Index(flat, after)
		if i < 0 {
			t.Fatalf("the numbers section has no %q", after)
		}
		rest := flat[i+len(after):]
		return strings.Split(strings.TrimSpace(rest[:strings.Index(rest, ".")]), ", ")
	}
	if got := list("Languages with a decimal comma:"); !slices.Equal(got, commaLanguages) {
		t.Errorf("the doc lists %v with a decimal comma, the table %v", got, commaLanguages)
	}
	if got := list("With a decimal point:"); !slices.Equal(got, pointLanguages) {
		t.Errorf("the doc lists %v with a decimal point, the table %v", got, pointLanguages)
	}
	for r, m := range regionMarks {
		mark := map[byte]string{'.': "write a point", ',': "a comma"}[m]
		re := regexp.MustCompile("`" + r + "`[^.]*?" + mark)
		if !re.MatchString(flat) {
			t.Errorf("the doc does not say that %s writes %s", r, mark)
		}
	}
	read := func(numbers, in string) float64 {
		s := &Suite{Numbers: Locale(numbers)}
		fs := figures.ExtractWith(in, s.FigureOptions())
		if len(fs) != 1 {
			t.Fatalf("under %q %q is %d figures", numbers, in, len(fs))
		}
		return fs[0].Value
	}
	for _, tt := range []struct {
		numbers, in string
		want        float64
	}{
		{"de", "1,5", 1.5}, {"de", "1,500", 1.5}, {"de", "1.500", 1500},
		{"en", "1.500", 1.5}, {"en", "1,500", 1500},
		{"", "16.800 €", 16800}, {"", "1.500", 1.5}, {"de", "[1.500]", 1.5},
	} {
		if got := read(tt.numbers, tt.in); got != tt.want {
			t.Errorf("under numbers %q, %q reads %v; the doc says %v", tt.numbers, tt.in, got, tt.want)
		}
	}
	if fs := figures.ExtractWith("1.500", (&Suite{}).FigureOptions()); !fs[0].Ambiguous || fs[0].Alt != 1500 {
		t.Errorf("without numbers, 1.500 is %+v: the doc says it is marked ambiguous with 1,500 as its other reading", fs[0])
	}
}

func TestLoadNumbers(t *testing.T) {
	const decline = "cases:\n  - id: a/b\n    prompt: Is it there?\n    decline: true\n"
	for _, tt := range []struct {
		numbers string
		want    byte
		err     string
	}{
		{"de", ',', ""},
		{"en-GB", '.', ""},
		{"de-CH", '.', ""},
		{"", 0, ""},
		{"xx", 0, `suite.yaml:2:10: numbers "xx" is not a language tag`},
		{"klingon", 0, `suite.yaml:2:10: numbers "klingon" is not a language tag`},
		{"ar", 0, `suite.yaml:2:10: numbers "ar": no decimal mark known for language "ar": want a tag whose language is one of af, az, `},
	} {
		body := "name: x\n"
		if tt.numbers != "" {
			body += "numbers: " + tt.numbers + "\n"
		}
		s, err := LoadFS(fstest.MapFS{"suite.yaml": {Data: []byte(body + decline)}}, "suite.yaml", "suite.yaml")
		switch {
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("numbers %q: error %v, want %q", tt.numbers, err, tt.err)
		case tt.err == "" && err != nil:
			t.Errorf("numbers %q: %v", tt.numbers, err)
		case tt.err == "" && s.FigureOptions().Decimal != tt.want:
			t.Errorf("numbers %q: decimal mark %q, want %q", tt.numbers, s.FigureOptions().Decimal, tt.want)
		}
	}
}
