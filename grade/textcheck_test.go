package grade

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpeval/mcpeval/suite"
)

func loadTextCheckSuite(t *testing.T, yaml string) *suite.Suite {
	t.Helper()
	s, err := suite.LoadFS(fstest.MapFS{"suite.yaml": {Data: []byte(yaml)}}, "suite.yaml", "suite.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestCheckTextReadsFiguresAsAnswersAre: the figures of a text check are
// read by the grading reader, with the suite's numbers: setting and
// tolerances; kind and currency must fit.
func TestCheckTextReadsFiguresAsAnswersAre(t *testing.T) {
	const text = "Q3 sales\nregion,units,revenue_eur\nNorth,1204,36120\nTotal revenue: EUR 109.530,00 (up 4.5%)\n"
	s := loadTextCheckSuite(t, "name: t\nnumbers: de\npreflight:\n  - tool: x\n    contains: North\ncases:\n  - id: a/b\n    prompt: p\n    decline: true\n")
	for _, tc := range []struct {
		name string
		f    suite.Figure
		ok   bool
	}{
		{"a plain figure of a CSV row", suite.Figure{Value: 36120}, true},
		{"a count", suite.Figure{Value: 1204, Kind: suite.Count}, true},
		{"a decimal comma under numbers: de", suite.Figure{Value: 109530, Kind: suite.Money, Currency: "EUR"}, true},
		{"within the money tolerance", suite.Figure{Value: 109600, Kind: suite.Money}, true},
		{"outside it", suite.Figure{Value: 120000, Kind: suite.Money}, false},
		{"another currency", suite.Figure{Value: 109530, Kind: suite.Money, Currency: "USD"}, false},
		{"a percentage", suite.Figure{Value: 4.5, Kind: suite.Percent}, true},
		{"a percentage is not money", suite.Figure{Value: 4.5, Kind: suite.Money, Tolerance: suite.Tolerance{Absolute: 0.1, Set: true}}, false},
		{"a year is not a figure", suite.Figure{Value: 3, Kind: suite.Count}, false},
	} {
		got := CheckText(s, suite.TextCheck{Figures: []suite.Figure{tc.f}}, text)
		if (len(got) == 0) != tc.ok {
			t.Errorf("%s: problems %q, want ok=%v", tc.name, got, tc.ok)
		}
	}
}

// TestCheckTextSaysWhatWasExpectedAndQuotesTheText: each failed check is
// its own problem, naming what was expected and quoting the text on one
// line, shortened, with control characters escaped.
func TestCheckTextSaysWhatWasExpectedAndQuotesTheText(t *testing.T) {
	text := "line one\n\x1b[31mred\x1b[0m " + strings.Repeat("long ", 60)
	c := suite.TextCheck{Contains: suite.Texts{"line one", "missing"}, Matches: `^\d+$`,
		Figures: []suite.Figure{{Value: 42, Kind: suite.Count, Label: "answers"}}}
	got := CheckText(nil, c, text)
	want := []string{
		`contains "missing": not in the text, which reads "line one \x1b[31mred\x1b[0m long long`,
		`matches "^\\d+$": nothing in the text matches, which reads "line one`,
		`figure 42 exactly for answers: not in the text, which reads "line one`,
	}
	if len(got) != len(want) {
		t.Fatalf("problems %q, want %d", got, len(want))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("problem %d = %q, want it to start %q", i+1, got[i], want[i])
		}
		if strings.ContainsAny(got[i], "\n\x1b") || len(got[i]) > 260 || !strings.HasSuffix(got[i], `…"`) {
			t.Errorf("problem %d is not one short, escaped line: %q", i+1, got[i])
		}
	}
	if got := CheckText(nil, suite.TextCheck{Contains: suite.Texts{"x"}}, " \n"); len(got) != 1 || !strings.HasSuffix(got[0], "which reads nothing (the text is empty)") {
		t.Errorf("an empty text: %q", got)
	}
}
