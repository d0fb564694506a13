package grade

import "testing"

// TestTracerTextSeries traces what docs/suite.md promises for
// no_invented_figures on a server that returns text only: a number the
// text holds, a sum or difference of two, a monthly figure × 12, and a
// month-on-month change between consecutive values of a series the text
// lists, one a line, along a line, or down a table's column. A change
// between values that are not consecutive, or between two columns of a
// row, is not traced.
func TestTracerTextSeries(t *testing.T) {
	results := map[string]string{
		"lines": "Monthly spending (SGD):\n2026-01: SGD 12,500\n2026-02: SGD 13,630\n2026-03: SGD 12,980\n2026-04: SGD 14,020",
		"prose": "Spending was SGD 12,500 in January, SGD 13,630 in February, SGD 12,980 in March and SGD 14,020 in April.",
		"table": "| month | spending | income |\n|---|---:|---:|\n| 2026-01 | 12,500 | 20,000 |\n| 2026-02 | 13,630 | 20,400 |\n" +
			"| 2026-03 | 12,980 | 20,400 |\n| 2026-04 | 14,020 | 21,000 |",
	}
	answers := []struct {
		answer string
		ok     bool
	}{
		{"January's spending was SGD 12,500.", true},                // as given
		{"Spending rose 9.04% from January to February.", true},     // month-on-month, in percent
		{"Spending rose about 9% in February.", true},               // rounded as people round
		{"It fell 4.77% in March, then rose 8.01% in April.", true}, // each consecutive pair
		{"February was 8.29% above January.", true},                 // in percent of the later month
		{"Spending rose SGD 1,130 in February.", true},              // absolute: a difference of two
		{"January and February together: SGD 26,130.", true},        // a sum of two
		{"At January's rate that is SGD 150,000 a year.", true},     // a monthly figure × 12
		{"Spending rose 3.84% from January to March.", false},       // not consecutive
		{"Spending rose 12.16% from January to April.", false},      // not consecutive
		{"Spending rose 7.5% in February.", false},                  // invented
		{"Spending was SGD 15,500 in February.", false},             // invented
		{"Spending rose SGD 2,000 in February.", false},             // invented
	}
	for name, result := range results {
		tr := tracerFor(result, "")
		for _, a := range answers {
			if bad := untraced(tr, a.answer); (len(bad) == 0) != a.ok {
				t.Errorf("%s: %q: untraced %q, want traced %v", name, a.answer, figureTexts(bad), a.ok)
			}
		}
	}
	// Down a column, each column is a series of its own: income's 2% in
	// February traces, the 60% from spending to income across a row does
	// not.
	tr := tracerFor(results["table"], "")
	for answer, ok := range map[string]bool{
		"Income rose 2% in February.":              true,
		"Income rose 2.94% in April.":              true,
		"Income is 60% above spending in January.": false,
	} {
		if bad := untraced(tr, answer); (len(bad) == 0) != ok {
			t.Errorf("table: %q: untraced %q, want traced %v", answer, figureTexts(bad), ok)
		}
	}
}
