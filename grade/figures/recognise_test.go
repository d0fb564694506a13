package figures

import (
	"reflect"
	"testing"
)

// newExtractor is an extractor over s with its layout read, as Extract
// makes it before scanning.
func newExtractor(s string) *extractor {
	x := &extractor{s: s}
	x.layout()
	return x
}

// TestRecognisers gives each recogniser numbers it reads and numbers it
// leaves to the ones after it.
func TestRecognisers(t *testing.T) {
	tests := []struct {
		recogniser string
		in         string
		at         int
		text       string // the figure read; "" when the recogniser does not apply
		flags      string
	}{
		{"identifier", "Q3 results", 1, "3", "a"},
		{"identifier", "FY2026.1 plan", 2, "2026.1", "a"},
		{"identifier", "rows A1,5", 6, "1", "a"}, // stops at a comma
		{"identifier", "SGD2,000", 3, "", ""},    // a currency, not a word
		{"identifier", "at 3", 3, "", ""},
		{"date", "on 2026-09-30", 3, "2026-09-30", "yd"},
		{"date", "30/09/2026", 0, "30/09/2026", "d"},
		{"date", "10:30am", 0, "10:30am", "d"},
		{"date", "2026-13", 0, "", ""},
		{"date", "845,250", 0, "", ""},
		{"dashed account", "1234-5678-9012", 0, "1234-5678-9012", "a"},
		{"dashed account", "123-456", 0, "", ""}, // too short for an account
		{"version", "v 1.2.3", 2, "1.2.3", "a"},
		{"version", "192.168.0.1", 0, "192.168.0.1", "a"},
		{"version", "1.5,2.5", 0, "", ""},
		{"version", "1,234.5", 0, "", ""},
		{"version", "EUR 1.234,56", 4, "", ""}, // continental: a figure
		{"version", "1.234.567,89", 0, "", ""}, // continental
		{"version", "10.100.200.250", 0, "10.100.200.250", "a"},
		{"version", "version 1.100.200", 8, "1.100.200", "a"},
		{"figure", "EUR 1.234,56", 4, "EUR 1.234,56", ""},
		{"figure", "2.394.755", 0, "2.394.755", ""},
		{"version", "0.125,0.5", 0, "", ""},      // two values
		{"version", "1.352,103.8198", 0, "", ""}, // two values, not continental
		{"figure", "-$1,200", 2, "-$1,200", ""},
		{"figure", "(1,200)", 1, "(1,200)", "p"},
		{"figure", "S$2.39M", 2, "S$2.39M", ""},
		{"figure", "30kg", 0, "30kg", ""},
		{"figure", "in 2026", 3, "2026", "y"},
		{"figure", "1. Cash", 0, "1", "l"},
		{"figure", "845,25350", 0, "845", ""},
	}
	byName := map[string]recogniser{}
	for _, r := range recognisers {
		byName[r.name] = r.read
	}
	if last := recognisers[len(recognisers)-1].name; last != "figure" {
		t.Fatalf("the last recogniser is %s: it must be figure, the one that always applies", last)
	}
	for _, tt := range tests {
		read := byName[tt.recogniser]
		if read == nil {
			t.Fatalf("no recogniser %q", tt.recogniser)
		}
		x := newExtractor(tt.in)
		end, ok := read(x, tt.at)
		switch {
		case tt.text == "" && (ok || len(x.figs) > 0):
			t.Errorf("%s(%q at %d) read %q, want it not to apply", tt.recogniser, tt.in, tt.at, texts(x.figs))
		case tt.text == "":
		case !ok || len(x.figs) != 1:
			t.Errorf("%s(%q at %d) = %v %q, want %q", tt.recogniser, tt.in, tt.at, ok, texts(x.figs), tt.text)
		case x.figs[0].Text != tt.text || flagsOf(x.figs[0]) != tt.flags || end != x.figs[0].End:
			t.Errorf("%s(%q at %d) read %q [%s] and went on at %d, want %q [%s]", tt.recogniser, tt.in, tt.at, x.figs[0].Text, flagsOf(x.figs[0]), end, tt.text, tt.flags)
		}
	}
}

// TestReadCore checks which commas are thousands separators: only between
// groups of exactly three digits, and never one the layout says separates
// values.
func TestReadCore(t *testing.T) {
	tests := []struct {
		in        string
		intDigits string
		frac      string
		end       int
	}{
		{"1,234", "1234", "", 5},
		{"12,345,678.50", "12345678", "50", 13},
		{"1,234, 5", "1234", "", 5},
		{"845,25350", "845", "", 3},
		{"1,23", "1", "", 1},
		{"12,3456", "12", "", 2},
		{"1,234,5678", "1", "", 1},
		{"1,234,56", "1", "", 1},
		{"1234,567", "1234", "", 4},
		{"1912,75", "1912", "75", 7},
		{"12345,5", "12345", "5", 7},
		{"1912,755", "1912", "", 4},
		{"1912,75,3", "1912", "", 4},
		{"0.5,0.25", "0", "5", 3},
		{"2\u202f394\u202f755", "2394755", "", 13},
		{"2 394", "2", "", 1},
		{"[845,250]"[1:], "845250", "", 7}, // no layout without the brackets
		{"region,units\nSouth,845,250"[19:], "845250", "", 7},
	}
	for _, tt := range tests {
		c := newExtractor(tt.in).readCore(0)
		if c.intDigits != tt.intDigits || c.frac != tt.frac || c.end != tt.end {
			t.Errorf("readCore(%q) = %q . %q ending at %d, want %q . %q ending at %d", tt.in, c.intDigits, c.frac, c.end, tt.intDigits, tt.frac, tt.end)
		}
	}
	// The same digits where the layout says the comma separates values.
	for in, at := range map[string]int{"[845,250]": 1, "region,units,revenue\nSouth,845,250": 27, `{"a":845,"b":250}`: 5} {
		if c := newExtractor(in).readCore(at); c.intDigits != "845" {
			t.Errorf("readCore(%q at %d) = %q, want 845", in, at, c.intDigits)
		}
	}
}

// TestLayout checks which commas the layout marks as separating values,
// and which tables it finds.
func TestLayout(t *testing.T) {
	tests := []struct {
		in    string
		seps  []int
		grids int
	}{
		{"[845,250]", []int{4}, 0},
		{`{"units":845,"share":"1,234","rows":[1,2]}`, []int{12, 28, 38}, 0},
		{"see [1,234 and {oops}", nil, 0},
		{"[1,2,]", nil, 0}, // not JSON
		{"a ] b [845,250]", []int{10}, 0},
		{"region,units\nSouth,845\nNorth,\"1,234\"", []int{18, 28}, 1},
		{"region,units\nSouth,845,250", nil, 0}, // a row too wide is left out
		{"region,units\nSouth,845,250\nNorth,12", []int{32}, 1},
		{"region\tunits\nSouth\t845", nil, 1},
		{"| a | b |\n|---|---|\n| 1,234 | 5 |", nil, 1},
		{"Hello, Bob\nYou have 1,200", nil, 0},
		{"Cash, 1,200\nDebt, 3,400", nil, 0},
		{"a,b\nc,d,e\na,b\nc,d,e", []int{11}, 1}, // the rows that line up
		{"We have two lines.\nSouth,845,250", nil, 0},
	}
	for _, tt := range tests {
		x := newExtractor(tt.in)
		var seps []int
		for i := range tt.in {
			if x.isSep(i) {
				seps = append(seps, i)
			}
		}
		if !reflect.DeepEqual(seps, tt.seps) || len(x.grids) != tt.grids {
			t.Errorf("layout(%q): separators at %v and %d tables, want %v and %d", tt.in, seps, len(x.grids), tt.seps, tt.grids)
		}
	}
}

func TestUnitAfter(t *testing.T) {
	tests := []struct {
		in, unit string
		end      int
	}{
		{"30kg", "kg", 4}, {"2.5 kg", "kg", 6}, {"16GB", "GB", 4}, {"5g", "g", 2},
		{"5 g", "", 1}, {"3 in", "", 1}, {"4G", "", 1}, {"5 kgs", "", 1}, {"7", "", 1},
	}
	for _, tt := range tests {
		at := digitsEnd(tt.in, 0)
		if at < len(tt.in) && tt.in[at] == '.' {
			at = digitsEnd(tt.in, at+1)
		}
		if unit, end := unitAfter(tt.in, at); unit != tt.unit || end != tt.end {
			t.Errorf("unitAfter(%q, %d) = %q, %d; want %q, %d", tt.in, at, unit, end, tt.unit, tt.end)
		}
	}
}

func TestDateShapes(t *testing.T) {
	tests := []struct {
		shape string
		read  func(string, int, string) (int, Figure, bool)
		in    string
		end   int // 0: not this shape
	}{
		{"iso", isoDate, "2026-09-30 x", 10}, {"iso", isoDate, "2026-09", 7}, {"iso", isoDate, "2026-13", 0}, {"iso", isoDate, "2026-09/30", 0},
		{"dmy", dayMonthYear, "30/09/2026", 10}, {"dmy", dayMonthYear, "13/13/2026", 0}, {"dmy", dayMonthYear, "30/09-2026", 0},
		{"month-year", monthYear, "09/2026", 7}, {"month-year", monthYear, "13/2026", 0},
		{"time", timeOfDay, "10:30 am", 8}, {"time", timeOfDay, "10:30:15", 8}, {"time", timeOfDay, "25:00", 0}, {"time", timeOfDay, "10:61", 0},
	}
	for _, tt := range tests {
		end, _, ok := tt.read(tt.in, 0, tt.in)
		if ok != (tt.end > 0) || ok && end != tt.end {
			t.Errorf("%s(%q) = %d, %v; want %d", tt.shape, tt.in, end, ok, tt.end)
		}
	}
}
