package grade

import (
	"fmt"
	"math"
	"strings"

	"github.com/mcpeval/mcpeval/grade/figures"
	"github.com/mcpeval/mcpeval/suite"
)

// checkFigures checks that every expected figure is stated in the answer
// (see Match). Each missing figure is its own reason, listing what the
// answer states instead.
func checkFigures(s *suite.Suite, c *suite.Case, answer string) []Reason {
	if len(c.Figures) == 0 {
		return nil
	}
	claims := figures.ClaimsWith(answer, s.FigureOptions())
	var rs []Reason
	for _, want := range c.Figures {
		tol := s.FigureTolerance(c, want) // before the kind default: no kind is exact
		if want.Kind == "" {
			want.Kind = suite.Money
		}
		found := false
		for _, w := range claims {
			if Match(w, want, tol) {
				found = true
				break
			}
		}
		if found {
			continue
		}
		rs = append(rs, Reason{CheckFigures, "expected " + expected(want, tol) + "; " + stated(claims, want, answer)})
	}
	return rs
}

// stated lists the figures an answer states that could have been the
// expected one, the nearest marked with how far off it is.
func stated(claims []figures.Figure, want suite.Figure, answer string) string {
	if strings.TrimSpace(answer) == "" {
		return "the answer is empty"
	}
	var cands, near []figures.Figure
	for _, w := range claims {
		if kindFits(w, want) {
			cands = append(cands, w)
			// A plain number two orders of magnitude away (a rate, a
			// count) is not a candidate worth listing.
			if r := math.Abs(w.Value) / math.Max(math.Abs(want.Value), 1e-9); w.Kind != figures.Plain || r > 0.01 && r < 100 {
				near = append(near, w)
			}
		}
	}
	if len(near) > 0 {
		cands = near
	}
	if len(cands) == 0 {
		what := "money figure"
		switch want.Kind {
		case suite.Percent:
			what = "percentage"
		case suite.Count:
			what = "count"
		}
		if len(claims) == 0 {
			return "the answer states no figure"
		}
		return "the answer states no " + what + " (only " + listTexts(claims, 6) + ")"
	}
	nearest, best := -1, math.Inf(1)
	for i, w := range cands {
		if !currencyFits(w.Currency, want.Currency) {
			continue
		}
		for _, v := range signs(w) {
			if d := math.Abs(v - want.Value); d < best {
				nearest, best = i, d
			}
		}
	}
	var parts []string
	for i, w := range cands {
		if i == 6 {
			parts = append(parts, fmt.Sprintf("and %d more", len(cands)-6))
			break
		}
		p := clip(w.Text, 40)
		switch {
		case !currencyFits(w.Currency, want.Currency):
			p += " (in " + w.Currency + ", not " + want.Currency + ")"
		case i == nearest:
			v := w.Value
			if math.Abs(-v-want.Value) < math.Abs(v-want.Value) {
				v = -v
			}
			p += " (" + off(v, want) + ")"
		}
		parts = append(parts, p)
	}
	return "answer states " + strings.Join(parts, ", ")
}

func listTexts(fs []figures.Figure, max int) string {
	var parts []string
	for i, f := range fs {
		if i == max {
			parts = append(parts, fmt.Sprintf("and %d more", len(fs)-max))
			break
		}
		parts = append(parts, clip(f.Text, 40))
	}
	return strings.Join(parts, ", ")
}
