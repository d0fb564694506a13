package grade

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/grade/figures"
	"github.com/mcpeval/mcpeval/internal/builtin"
	"github.com/mcpeval/mcpeval/suite"
)

// writeNumber writes v with grouping mark group between thousands and
// decimal mark dec before places decimals: writeNumber(2394755, " ", ",",
// 0) is "2 394 755".
func writeNumber(v float64, group, dec string, places int) string {
	s := strconv.FormatFloat(math.Abs(v), 'f', places, 64)
	ip, fp, _ := strings.Cut(s, ".")
	var b strings.Builder
	for i, c := range ip {
		if i > 0 && (len(ip)-i)%3 == 0 {
			b.WriteString(group)
		}
		b.WriteRune(c)
	}
	if fp != "" {
		b.WriteString(dec + fp)
	}
	if v < 0 {
		return "-" + b.String()
	}
	return b.String()
}

// spellings are the ways a person writes a figure that every reader of
// figures must take as the same value: money with its currency before or
// after, grouped by commas, spaces, thin spaces, apostrophes or dots, with
// a decimal point or comma; a percentage with a point or a comma.
func spellings(f suite.Figure) []string {
	places := 0
	if f.Value != math.Trunc(f.Value) {
		places = 2
	}
	switch f.Kind {
	case suite.Percent:
		p := strconv.FormatFloat(round(f.Value, 2), 'f', 2, 64)
		return []string{p + "%", strings.Replace(p, ".", ",", 1) + " %", p + " percent"}
	case suite.Count:
		n := writeNumber(f.Value, ",", ".", 0)
		out := []string{n}
		if f.Unit != "" {
			out = append(out, n+" "+f.Unit)
		}
		if f.Value >= 1000 {
			// A lone space group ("2 400") is one number only with what it
			// counts: "in 2025 1 200" is two.
			out = append(out, writeNumber(f.Value, " ", ".", 0)+" "+f.Unit, writeNumber(f.Value, "'", ".", 0))
		}
		return out
	}
	cur := f.Currency
	var out []string
	for _, w := range []struct{ group, dec string }{
		{",", "."}, {" ", "."}, {"\u202f", ","}, {"\u00a0", ","}, {"'", "."}, {"’", "."}, {".", ","},
	} {
		n := writeNumber(f.Value, w.group, w.dec, places)
		if w.group == "." && f.Value < 1e6 && places == 0 {
			// "210.000" has one dot: only a currency written after it
			// makes it a grouping mark.
			out = append(out, n+" "+cur)
			continue
		}
		out = append(out, cur+" "+n, n+" "+cur)
	}
	return out
}

// TestAnswerSpellingsProperty rewrites the key's answer of every household
// case with one figure into each spelling of that figure: each must pass.
// It then moves the figure out of the answer's place (a rival stated
// instead, the expected figure compared, credited to last year, negated or
// hedged): each must fail.
func TestAnswerSpellingsProperty(t *testing.T) {
	s, err := builtin.LoadSuite("household")
	if err != nil {
		t.Fatal(err)
	}
	hh := loadHousehold(t)
	h := hh.header(false)
	cases := 0
	for _, c := range s.Cases {
		if len(c.Figures) != 1 || c.Key.Answer == "" {
			continue
		}
		want := c.Figures[0]
		key := c.Key.Answer
		var at *figures.Figure
		for _, f := range figures.Claims(key) {
			if Match(f, want, s.FigureTolerance(c, want)) {
				at = &f
				break
			}
		}
		if at == nil {
			t.Errorf("%s: the key's answer %q does not state %v", c.ID, key, want.Value)
			continue
		}
		cases++
		calls := hh.keyCalls(t, c)
		with := func(text string) string { return key[:at.Start] + text + key[at.End:] }
		grade := func(answer string) AttemptGrade { return Attempt(s, c, h, answered(c, answer, calls...)) }
		for _, sp := range spellings(want) {
			if g := grade(with(sp)); g.Outcome != Pass {
				t.Errorf("%s: %q must pass: %s%s", c.ID, with(sp), g.Outcome, reasonsText(g.Reasons))
			}
		}
		rival := want
		rival.Value = want.Value * 1.1
		if want.Kind == suite.Count {
			rival.Value = want.Value + 7
		}
		r, e := spellings(rival)[0], spellings(want)[0]
		for _, moved := range []string{
			with(r) + " That is up from " + e + ".",
			with(r) + " The " + e + " is last year's figure.",
			with(r) + " It is not " + e + ".",
			with("either " + e + " or " + r),
			with("maybe " + e),
			with(r + " (not " + e + ")"),
		} {
			if g := grade(moved); g.Outcome != Fail {
				t.Errorf("%s: %q must fail: %s", c.ID, moved, g.Outcome)
			}
		}
	}
	if cases < 10 {
		t.Fatalf("%d household cases with one figure: want at least 10", cases)
	}
}
