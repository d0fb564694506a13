package grade

import (
	"testing"

	"github.com/mcpeval/mcpeval/grade/figures"
)

// TestTracerData grades answers against tool results laid out as data
// (CSV, TSV, a Markdown table, JSON in the text): a figure copied from the
// data traces, a figure the data does not hold is invented, and so is one
// made by reading a comma between two values as a thousands separator.
func TestTracerData(t *testing.T) {
	results := map[string]string{
		"csv":      "region,units,revenue_eur\nSouth,845,25350\nNorth,312,250\nEast,\"1,234\",9360",
		"tsv":      "region\tunits\trevenue_eur\nSouth\t845\t25350\nNorth\t312\t250\nEast\t1,234\t9360",
		"markdown": "| region | units | revenue_eur |\n|---|---:|---:|\n| South | 845 | 25350 |\n| North | 312 | 250 |\n| East | 1,234 | 9360 |",
		"json":     `sales: [{"region":"South","units":845,"revenue_eur":25350},{"region":"North","units":312,"revenue_eur":250},{"region":"East","units":1234,"revenue_eur":9360}]`,
	}
	answers := []struct {
		answer string
		ok     bool
	}{
		{"South sold 845 units for EUR 25,350.", true},
		{"South's revenue was 25350EUR.", true},
		{"North brought in €250.", true},
		{"East sold 1,234 units for €9,360.", true},
		{"South and North together: €25,600.", true},                    // a sum of two
		{"South's revenue was EUR 84,525,350.", false},                  // "845,25350" read as one number
		{"North's revenue was €312,250.", false},                        // "312,250" read as one number
		{"South's revenue was EUR 41,000.", false},                      // invented
		{"East's revenue was €1,234,936.", false},                       // a row run together
		{"| region | revenue |\n|---|---|\n| South | €29,000 |", false}, // invented, in a table
	}
	for name, result := range results {
		tr := tracerFor(result, "")
		for _, a := range answers {
			bad := untraced(tr, a.answer)
			if (len(bad) == 0) != a.ok {
				t.Errorf("%s: %q: untraced %q, want traced %v", name, a.answer, figureTexts(bad), a.ok)
			}
		}
	}
}

// TestTracerDataAnswer reads an answer written as data: each figure of a
// CSV or JSON answer is checked on its own.
func TestTracerDataAnswer(t *testing.T) {
	tr := tracerFor("South units 845, revenue EUR 25,350; North units 312, revenue EUR 250", "")
	for answer, ok := range map[string]bool{
		"region,units,revenue_eur\nSouth,845,25350\nNorth,312,250":            true,
		`[{"units":845,"revenue_eur":25350},{"units":312,"revenue_eur":250}]`: true,
		"region,units,revenue_eur\nSouth,845,27350\nNorth,312,250":            false,
		`{"revenue_eur":[25350,2500]}`:                                        false,
	} {
		if bad := untraced(tr, answer); (len(bad) == 0) != ok {
			t.Errorf("%q: untraced %q, want traced %v", answer, figureTexts(bad), ok)
		}
	}
}

func figureTexts(fs []figures.Figure) []string {
	out := []string{}
	for _, f := range fs {
		out = append(out, f.Text)
	}
	return out
}
