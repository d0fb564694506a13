package grade

import (
	"fmt"
	"strings"
	"testing"
)

// TestPeriods pins down the periods an answer's words name, each with
// the text it was read from.
func TestPeriods(t *testing.T) {
	tests := []struct{ text, want string }{
		{"At the end of March 2026 it was", "2026-03 (March 2026)"},
		{"in Mar. 2026 and Dec '25", "2026-03 (Mar. 2026); 2025-12 (Dec '25)"},
		{"on March 17, 2026", "2026-03 (March 17, 2026)"},
		{"on March 17 the bill", "03 (March)"},
		{"mid-March", "03 (March)"},
		{"it may be lower in May", "05 (May)"},
		{"in may 2026", "2026-05 (may 2026)"},
		{"as of 2026-09-30, up from 2026-06", "2026-09 (2026-09-30); 2026-06 (2026-06)"},
		{"Q3 2026 against q2", "2026 Q3 (Q3 2026); Q2 (q2)"},
		{"the 1,450 is last year's figure", "last year (last year)"},
		{"the previous month, a year ago, the quarter before, year-ago", "last month (previous month); last year (a year ago); last quarter (the quarter before); last year (year-ago)"},
		{"this month and next year", "this month (this month); next year (next year)"},
		{"FY2026 and 20260 and 2025", "2025 (2025)"},
		{"the last 12 months", ""},
	}
	for _, tt := range tests {
		ps, at := periods(tt.text)
		var got []string
		for k, p := range ps {
			if tt.text[at[k]:at[k]+len(p.text)] != p.text {
				t.Errorf("%q: period %q is not the text at its offset", tt.text, p.text)
			}
			got = append(got, describe(p))
		}
		if g := strings.Join(got, "; "); g != tt.want {
			t.Errorf("periods(%q)\n got %s\nwant %s", tt.text, g, tt.want)
		}
	}
}

func describe(p period) string {
	var s string
	switch {
	case p.rel != "":
		s = p.rel
	case p.quarter != 0 && p.year != 0:
		s = fmt.Sprintf("%d Q%d", p.year, p.quarter)
	case p.quarter != 0:
		s = fmt.Sprintf("Q%d", p.quarter)
	case p.month != 0 && p.year != 0:
		s = fmt.Sprintf("%d-%02d", p.year, p.month)
	case p.month != 0:
		s = fmt.Sprintf("%02d", p.month)
	default:
		s = fmt.Sprint(p.year)
	}
	return s + " (" + p.text + ")"
}

// BenchmarkPeriods reads the periods of a long answer.
func BenchmarkPeriods(b *testing.B) {
	text := strings.Repeat("At the end of March 2026 your net worth was SGD 2,261,924, up from SGD 2,243,222 in January 2026; last year it was lower. ", 8)
	for b.Loop() {
		periods(text)
	}
}
