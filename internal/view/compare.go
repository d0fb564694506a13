package view

import (
	"fmt"
	"net/http"
	"net/url"

	"github.com/mcpeval/mcpeval/internal/compare"
	"github.com/mcpeval/mcpeval/internal/report/format"
	"github.com/mcpeval/mcpeval/internal/report/htmlreport"
)

// movedRow is one line of what moved.
type movedRow struct {
	Kind, Name        string
	Base, New         string
	BaseBar, NewBar   htmlreport.BarView
	Delta, P, Verdict string
	Note              string
	BaseURL, NewURL   string
}

type compareData struct {
	Base, New       compare.RunInfo
	BaseKey, NewKey string
	Changes         []compare.Change
	Tools           []compare.ToolDiff
	OverlayOnly     bool
	CasesAdded      []string
	CasesRemoved    []string
	Comparable      bool
	Rows            []movedRow
	Test            string
	Alpha           float64
	Warnings        []string
	// Confusions are how the tool confusions moved (compare.ConfusionRow).
	Confusions    []compare.ConfusionRow
	ConfusionTest string
}

func (s *Server) comparePage(w http.ResponseWriter, r *http.Request) {
	keys := r.URL.Query()["run"]
	if len(keys) != 2 {
		s.fail(w, http.StatusBadRequest, fmt.Sprintf("pick two runs to compare (%d picked): the base, then the new one", len(keys)))
		return
	}
	b, n := s.store.get(keys[0]), s.store.get(keys[1])
	for i, x := range []*run{b, n} {
		if x == nil || x.Res == nil {
			s.fail(w, http.StatusNotFound, "no run "+keys[i]+" to compare")
			return
		}
	}
	// The older run is the base, whichever was picked first.
	if start(n).Before(start(b)) {
		b, n = n, b
	}
	c := compare.Compare(b.Rec, n.Rec, b.Res, n.Res)
	d := compareData{Base: c.Base, New: c.New, BaseKey: b.Key, NewKey: n.Key, Changes: c.Changes, Tools: c.Tools,
		OverlayOnly: c.OverlayOnly, CasesAdded: c.CasesAdded, CasesRemoved: c.CasesRemoved, Comparable: c.Comparable,
		Test: c.Test, Alpha: c.Alpha, Warnings: c.Warnings, Confusions: c.Confusions, ConfusionTest: compare.ConfusionTest}
	if c.Comparable {
		for _, row := range c.Rows() {
			m := movedRow{Kind: row.Kind, Name: row.Name, Base: side(row.Base), New: side(row.New), Verdict: row.Verdict,
				BaseBar: htmlreport.Rate("", "", row.Base.Counts, colorAs, 100).Bar,
				NewBar:  htmlreport.Rate("", "", row.New.Counts, colorAfter, 100).Bar}
			switch row.Verdict {
			case compare.Regressed, compare.Improved:
				m.Delta = format.Points(row.Delta)
			case compare.Noise:
				m.Delta = "~"
			}
			if row.Base.Graded > 0 && row.New.Graded > 0 {
				m.P = compare.FormatP(row.P)
			}
			if row.BecameInconsistent {
				m.Note = "became inconsistent"
			}
			if row.Kind == "case" {
				m.BaseURL = "/run/" + pathEscape(b.Key) + "?" + url.Values{"case": {row.Name}}.Encode()
				m.NewURL = "/run/" + pathEscape(n.Key) + "?" + url.Values{"case": {row.Name}}.Encode()
			}
			d.Rows = append(d.Rows, m)
		}
	}
	s.render(w, http.StatusOK, "compare.html.tmpl", s.page("Compare "+b.Key+" → "+n.Key, d))
}

func side(sd compare.Side) string {
	if !sd.Present {
		return "—"
	}
	if sd.Graded == 0 {
		return format.None
	}
	f := format.Counts(sd.Counts)
	return fmt.Sprintf("%s %s n=%d", f.Percent(), f.CI(), sd.Graded)
}
