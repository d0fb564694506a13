package grade

import (
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// TestNumbersSetting grades answers whose numbers rest on the decimal
// mark: the suite's numbers: setting decides how the answer and the tool
// results are read, for the expected figures and for invented ones.
func TestNumbersSetting(t *testing.T) {
	rate := record.Call{ID: "c1", Name: "get_rate", Shown: true, Result: `{"rate": 1.25, "balance": 1500}`}
	hd := &record.Header{Format: record.Format, RunID: "test", Preflight: record.Preflight{Valid: true}, Attempts: 1,
		Tools: []record.Tool{{Name: "get_rate", ReadOnly: true}}}
	figure := &suite.Case{ID: "fx/rate", Prompt: "Wie ist der Kurs?", Tools: suite.ToolRules{Required: []string{"get_rate"}},
		Figures: []suite.Figure{{Value: 1.25, Tolerance: suite.Tolerance{Absolute: 0.001, Set: true}}}}
	grounded := &suite.Case{ID: "fx/balance", Prompt: "Wie ist der Saldo?", Tools: suite.ToolRules{Required: []string{"get_rate"}},
		NoInventedFigures: true}
	tests := []struct {
		name    string
		numbers suite.Locale
		c       *suite.Case
		answer  string
		fail    string // "" to pass
	}{
		{"a decimal comma under de", "de", figure, "Der Kurs ist 1,250.", ""},
		{"the same without a locale groups thousands", "", figure, "Der Kurs ist 1,250.", "expected"},
		{"a point groups thousands under de", "de", grounded, "Der Saldo ist 1.500.", ""},
		{"under en it is 1.5, which no tool returned", "en", grounded, "Der Saldo ist 1.500.", "1.500"},
		{"without a locale an ambiguous 1.500 traces by its other reading", "", grounded, "Der Saldo ist 1.500.", ""},
		{"a comma decimal under de is read so for grounding", "de", grounded, "Der Kurs ist 1,25 und der Saldo 1.500.", ""},
		{"a continental figure no tool returned is invented", "", grounded, "Der Saldo ist 1.500, nicht 1.250,5.", "1.250,5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &suite.Suite{Name: "x", Numbers: tt.numbers}
			g := Attempt(s, tt.c, hd, answered(tt.c, tt.answer, rate))
			text := reasonsText(g.Reasons)
			switch {
			case tt.fail == "" && g.Outcome != Pass:
				t.Errorf("%q under numbers %q: %s, want a pass:%s", tt.answer, tt.numbers, g.Outcome, text)
			case tt.fail != "" && (g.Outcome != Fail || !strings.Contains(text, tt.fail)):
				t.Errorf("%q under numbers %q: %s, want a failure naming %q:%s", tt.answer, tt.numbers, g.Outcome, tt.fail, text)
			}
		})
	}
}
