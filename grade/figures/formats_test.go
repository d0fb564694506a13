package figures

import (
	"strings"
	"testing"
)

// TestFormats reads numbers laid out as data is: CSV, TSV, Markdown
// tables, JSON, and numbers glued to their units. Each input yields
// exactly the figures listed, and never the values listed under not: the
// numbers a wrong reading of its commas would make up.
func TestFormats(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []want
		not  []float64
	}{
		{"csv", "region,units,revenue_eur\nSouth,845,25350\nNorth,1200,36000",
			[]want{{"845", 845, Count, "", ""}, {"25350", 25350, Money, "EUR", ""}, {"1200", 1200, Count, "", ""}, {"36000", 36000, Money, "EUR", ""}},
			[]float64{84525350, 120036000}},
		{"csv groups of three under a header", "region,units,revenue_eur\nSouth,845,250\nNorth,12,500",
			[]want{{"845", 845, Count, "", ""}, {"250", 250, Money, "EUR", ""}, {"12", 12, Count, "", ""}, {"500", 500, Money, "EUR", ""}},
			[]float64{845250, 12500}},
		{"csv quoted thousands", "region,units,revenue_eur\n\"South\",\"1,234\",\"25,350.50\"\nNorth,\"845\",-3.5",
			[]want{{"1,234", 1234, Count, "", ""}, {"25,350.50", 25350.5, Money, "EUR", ""}, {"845", 845, Count, "", ""}, {"-3.5", -3.5, Money, "EUR", ""}},
			[]float64{1, 234, 350.5}},
		{"csv negatives and accounting parentheses", "item,delta\nfees,(1,200)\ntax,-3.5\nrefund,+12",
			[]want{{"(1,200)", -1200, Plain, "", "p"}, {"-3.5", -3.5, Plain, "", ""}, {"+12", 12, Plain, "", ""}},
			[]float64{1200, 3.5, 200}},
		{"csv with dates", "month,balance_sgd\n2026-08,84250\n2026-09,86100",
			[]want{{"2026-08", 2026, Plain, "", "yd"}, {"84250", 84250, Money, "SGD", ""}, {"2026-09", 2026, Plain, "", "yd"}, {"86100", 86100, Money, "SGD", ""}},
			nil},
		{"csv row too wide for its header keeps the comma rule", "region,revenue\nSouth,1,234",
			[]want{{"1,234", 1234, Plain, "", ""}}, []float64{1, 234}},
		{"an account column is not a count", "account,units_sold,discount_sgd\n12345678,5,120",
			[]want{{"12345678", 12345678, Plain, "", "a"}, {"5", 5, Count, "", ""}, {"120", 120, Money, "SGD", ""}},
			nil},
		{"tsv", "region\tunits\trevenue_eur\nSouth\t845\t25350\nEast\t1,234\t-3.5",
			[]want{{"845", 845, Count, "", ""}, {"25350", 25350, Money, "EUR", ""}, {"1,234", 1234, Count, "", ""}, {"-3.5", -3.5, Money, "EUR", ""}},
			[]float64{84525350, 1, 234}},
		{"markdown", "| region | units | revenue_eur |\n|---|---:|---:|\n| South | 845 | 25350 |\n|East|1,234|(1,200)|",
			[]want{{"845", 845, Count, "", ""}, {"25350", 25350, Money, "EUR", ""}, {"1,234", 1234, Count, "", ""}, {"(1,200)", -1200, Money, "EUR", "p"}},
			[]float64{84525350, 1234000}},
		{"json array", "[845,25350]", []want{{"845", 845, Plain, "", ""}, {"25350", 25350, Plain, "", ""}}, []float64{84525350}},
		{"json array of groups of three", "[845,250,-5,-6.5]",
			[]want{{"845", 845, Plain, "", ""}, {"250", 250, Plain, "", ""}, {"-5", -5, Plain, "", ""}, {"-6.5", -6.5, Plain, "", ""}},
			[]float64{845250, 5, 6.5}},
		{"json object", `{"units":845,"revenue":25350,"share":"1,234","rows":[1,234]}`,
			[]want{{"845", 845, Plain, "", ""}, {"25350", 25350, Plain, "", ""}, {"1,234", 1234, Plain, "", ""}, {"1", 1, Plain, "", ""}, {"234", 234, Plain, "", ""}},
			[]float64{84525350}},
		{"json in prose", "The tool returned [845,250] and then {\"a\": 12, \"b\": 500}; in all 1,095 units.",
			[]want{{"845", 845, Plain, "", ""}, {"250", 250, Plain, "", ""}, {"12", 12, Plain, "", ""}, {"500", 500, Plain, "", ""}, {"1,095 units", 1095, Count, "", ""}},
			[]float64{845250, 1095000}},
		{"commas between values", "845,25350 and 1,23 and 12,3456 and 1,234,5678 and 0.5,0.25",
			[]want{{"845", 845, Plain, "", ""}, {"25350", 25350, Plain, "", ""}, {"1", 1, Plain, "", ""}, {"23", 23, Plain, "", ""},
				{"12", 12, Plain, "", ""}, {"3456", 3456, Plain, "", ""}, {"1", 1, Plain, "", ""}, {"234", 234, Plain, "", ""}, {"5678", 5678, Plain, "", ""},
				{"0.5", 0.5, Plain, "", ""}, {"0.25", 0.25, Plain, "", ""}},
			[]float64{84525350, 123, 1.23, 123456, 1234, 12345678, 1234.5678}},
		{"thousands separators", "1,234 and 12,345,678.50 and 2,394,755",
			[]want{{"1,234", 1234, Plain, "", ""}, {"12,345,678.50", 12345678.5, Plain, "", ""}, {"2,394,755", 2394755, Plain, "", ""}},
			[]float64{1, 234, 12, 345, 678.5}},
		{"glued units", "25350EUR, EUR25350, 12.5%, 30kg, 2.5 kg, 16GB and 250ms",
			[]want{{"25350EUR", 25350, Money, "EUR", ""}, {"EUR25350", 25350, Money, "EUR", ""}, {"12.5%", 12.5, Percent, "", ""},
				{"30kg", 30, Plain, "", ""}, {"2.5 kg", 2.5, Plain, "", ""}, {"16GB", 16, Plain, "", ""}, {"250ms", 250, Plain, "", ""}},
			nil},
		{"glued identifiers stay identifiers", "a 3D model on 4G, rows A1,5",
			[]want{{"3D", 3, Plain, "", "a"}, {"4G", 4, Plain, "", "a"}, {"1", 1, Plain, "", "a"}, {"5", 5, Plain, "", ""}},
			[]float64{1.5}},
		{"negatives", "-3.5 and (1,200) and x,-5,6",
			[]want{{"-3.5", -3.5, Plain, "", ""}, {"(1,200)", -1200, Plain, "", "p"}, {"-5", -5, Plain, "", ""}, {"6", 6, Plain, "", ""}},
			[]float64{56, 5.6}},
		{"prose with a comma line is not a table", "Hello, Bob\nYou have 1,200 SGD",
			[]want{{"1,200 SGD", 1200, Money, "SGD", ""}}, []float64{1, 200}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Extract(tt.in)
			for _, g := range got {
				for _, v := range tt.not {
					if close(g.Value, v) {
						t.Errorf("Extract(%q) read %q as %v, which it must not", tt.in, g.Text, g.Value)
					}
				}
			}
			if len(got) != len(tt.want) {
				t.Fatalf("Extract(%q): got %d figures %q, want %d", tt.in, len(got), texts(got), len(tt.want))
			}
			for i, w := range tt.want {
				g := got[i]
				if g.Text != w.text || !close(g.Value, w.value) || g.Kind != w.kind || g.Currency != w.cur || flagsOf(g) != w.flags {
					t.Errorf("[%d] = %q %v %s %q [%s], want %q %v %s %q [%s]",
						i, g.Text, g.Value, g.Kind, g.Currency, flagsOf(g), w.text, w.value, w.kind, w.cur, w.flags)
				}
			}
		})
	}
}

// TestUnits checks the unit a measure is written in.
func TestUnits(t *testing.T) {
	for in, unit := range map[string]string{"30kg": "kg", "2.5 kg": "kg", "16GB": "GB", "250ms": "ms", "450 units": "units"} {
		fs := Extract(in)
		if len(fs) != 1 || fs[0].Unit != unit || !fs[0].Claim() {
			t.Errorf("Extract(%q) = %+v, want one claim in %s", in, fs, unit)
		}
	}
}

func BenchmarkExtractCSV(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("region,month,units,revenue_eur,share\n")
	for i := 0; i < 100; i++ {
		sb.WriteString("South,2026-09,845,\"25,350\",12.5%\n")
	}
	in := sb.String()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		Extract(in)
	}
}

func BenchmarkExtractJSON(b *testing.B) {
	in := "[" + strings.Repeat(`{"region":"South","units":845,"revenue":25350,"share":0.125},`, 100) + `{"units":1}]`
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		Extract(in)
	}
}

func BenchmarkExtractMarkdown(b *testing.B) {
	in := "| region | units | revenue_eur |\n|---|---:|---:|\n" + strings.Repeat("| South | 845 | 25,350 |\n", 100)
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		Extract(in)
	}
}
