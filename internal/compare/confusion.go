package compare

import (
	"cmp"
	"fmt"
	"io"
	"slices"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/report/format"
	"github.com/mcpeval/mcpeval/internal/termsafe"
	"github.com/mcpeval/mcpeval/stats"
)

// ConfusionTest names the test a confusion's movement is judged by.
const ConfusionTest = "Fisher's exact test (two-sided) on the key calls of the wanted tool that went to the other tool vs the rest"

// Confusions that moved.
const (
	Grew   = "grew"
	Shrank = "shrank"
)

// ConfusionRow is how one confusion (the key wanted one tool, the model
// called another: grade.Confusion's Calls) moved between the runs.
type ConfusionRow struct {
	Wanted string `json:"wanted"`
	Called string `json:"called"`
	// Base and New count the key calls of Wanted that went to Called, of
	// all the key calls of Wanted.
	Base ConfusionSide `json:"base"`
	New  ConfusionSide `json:"new"`
	// Delta is the new share less the base share, when both runs made key
	// calls of Wanted.
	Delta float64 `json:"delta"`
	// P is the p-value of ConfusionTest; 1 when either run made no key
	// call of Wanted.
	P           float64 `json:"p"`
	Significant bool    `json:"significant"`
	// Verdict is Grew or Shrank for a significant movement, "~" otherwise.
	Verdict string `json:"verdict"`
}

// ConfusionSide is one run's count of a confusion.
type ConfusionSide struct {
	Count int `json:"count"`
	Of    int `json:"of"`
}

func (s ConfusionSide) share() float64 {
	if s.Of == 0 {
		return 0
	}
	return float64(s.Count) / float64(s.Of)
}

// confusionRows pairs the confusions either run made, the significant
// first, then the largest movement.
func confusionRows(b, n *grade.Confusion) []ConfusionRow {
	type pair struct{ wanted, called string }
	var pairs []pair
	seen := map[pair]bool{}
	for _, c := range []*grade.Confusion{n, b} {
		for _, cell := range c.Top(0) {
			p := pair{cell.Wanted, cell.Called}
			if !seen[p] {
				seen[p] = true
				pairs = append(pairs, p)
			}
		}
	}
	side := func(c *grade.Confusion, p pair) ConfusionSide {
		if c == nil {
			return ConfusionSide{}
		}
		s := ConfusionSide{Of: grade.Total(c.Calls, p.wanted)}
		for _, cell := range c.Calls {
			if cell.Wanted == p.wanted && cell.Called == p.called {
				s.Count = cell.Count
			}
		}
		return s
	}
	var rows []ConfusionRow
	for _, p := range pairs {
		rows = append(rows, ConfusionRow{Wanted: p.wanted, Called: p.called, Base: side(b, p), New: side(n, p)})
	}
	return rows
}

func (r *ConfusionRow) mark(alpha float64) {
	b, n := r.Base, r.New
	r.P = stats.Fisher(b.Count, b.Of-b.Count, n.Count, n.Of-n.Count)
	r.Delta = 0
	if b.Of > 0 && n.Of > 0 {
		r.Delta = n.share() - b.share()
	}
	r.Significant = b.Of > 0 && n.Of > 0 && r.P < alpha
	switch {
	case r.Significant && r.Delta > 0:
		r.Verdict = Grew
	case r.Significant && r.Delta < 0:
		r.Verdict = Shrank
	default:
		r.Verdict = Noise
	}
}

// sortConfusions puts the significant movements first, then the largest.
func sortConfusions(rows []ConfusionRow) {
	slices.SortStableFunc(rows, func(x, y ConfusionRow) int {
		abs := func(f float64) float64 { return max(f, -f) }
		return cmp.Or(cmp.Compare(boolInt(y.Significant), boolInt(x.Significant)), cmp.Compare(abs(y.Delta), abs(x.Delta)),
			cmp.Compare(y.New.Count, x.New.Count), cmp.Compare(x.Wanted, y.Wanted), cmp.Compare(x.Called, y.Called))
	})
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// ConfusionsWith returns the confusions whose verdict is v (Grew or
// Shrank).
func (c *Comparison) ConfusionsWith(v string) []ConfusionRow {
	var out []ConfusionRow
	for _, r := range c.Confusions {
		if r.Verdict == v {
			out = append(out, r)
		}
	}
	return out
}

// Describe writes the row for a person on one line: "get_accounts →
// get_holdings: 0/9 → 9/9 key calls, p=2.1e-05".
func (r ConfusionRow) Describe() string {
	return fmt.Sprintf("%s → %s: %d/%d → %d/%d key calls, p=%s", r.Wanted, r.Called, r.Base.Count, r.Base.Of, r.New.Count, r.New.Of, FormatP(r.P))
}

// confusionText writes the confusions that grew or shrank significantly,
// or, when none did but some were made, says so.
func confusionText(w io.Writer, c *Comparison) {
	if len(c.Confusions) == 0 {
		return
	}
	grew, shrank := c.ConfusionsWith(Grew), c.ConfusionsWith(Shrank)
	if len(grew)+len(shrank) == 0 {
		fmt.Fprintf(w, "\ntool confusion: %s made, none grew or shrank significantly at %g\n", format.N(len(c.Confusions), "confusion"), c.Alpha)
		return
	}
	for _, l := range []struct {
		title string
		rows  []ConfusionRow
	}{{"tool confusions that grew", grew}, {"tool confusions that shrank", shrank}} {
		if len(l.rows) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s (significant at %g)\n", l.title, c.Alpha)
		for _, r := range l.rows {
			fmt.Fprintf(w, "  %s\n", termsafe.Line(r.Describe()))
		}
	}
	fmt.Fprintf(w, "tool confusion p: %s.\n", ConfusionTest)
}

// mdConfusions writes every confusion either run made as a table.
func mdConfusions(w io.Writer, c *Comparison) {
	if len(c.Confusions) == 0 {
		return
	}
	fmt.Fprint(w, "\n**Tool confusion** (key calls of the wanted tool the model made to another):\n\n")
	fmt.Fprintln(w, "| Wanted | Called instead | Base | New | Δ | p | |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---|")
	for _, r := range c.Confusions {
		fmt.Fprintf(w, "| %s | %s | %d/%d | %d/%d | %s | %s | %s |\n", format.CodeSpanCell(r.Wanted), format.CodeSpanCell(r.Called),
			r.Base.Count, r.Base.Of, r.New.Count, r.New.Of, format.Points(r.Delta), FormatP(r.P), r.Verdict)
	}
	fmt.Fprintf(w, "\np: %s.\n", ConfusionTest)
}
