package view

import (
	"net/http"
	"net/url"
	"sort"
	"strconv"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/compare"
	"github.com/mcpeval/mcpeval/internal/ladder"
	"github.com/mcpeval/mcpeval/internal/report"
	"github.com/mcpeval/mcpeval/internal/report/format"
	"github.com/mcpeval/mcpeval/internal/report/htmlreport"
	"github.com/mcpeval/mcpeval/record"
)

type rungView struct {
	ladder.Rung
	Key  string
	Rate htmlreport.RateView
}

type ladderCell struct {
	Text, URL string
	Bar       htmlreport.BarView
	None      bool
}

type ladderRow struct {
	ID, Group, Reading, Why string
	Cells                   []ladderCell
}

type ladderData struct {
	Rungs         []rungView
	Rows          []ladderRow
	Calibrated    bool
	NotCalibrated string
	Warnings      []string
	// Matrix sets the picked runs side by side model by surface, when
	// they measured several surfaces of a suite; nil otherwise.
	Matrix *matrixView
}

// matrixView is the table of the picked runs on several surfaces
// (report.Surfaces), its figures written as the terminal writes them.
type matrixView struct {
	Canonical, TestNote, CostNote string
	Rows                          []matrixRow
}

type matrixRow struct {
	Key, Surface, Model, Tools, Pass, CI, PassK, Vs string
	ToolTokens, Tokens, Cost, PerSuccess            string
}

// ladderPage sets the picked runs side by side, strongest (highest pass
// rate) first, as "mcpeval ladder" does, with each case's reading.
func (s *Server) ladderPage(w http.ResponseWriter, r *http.Request) {
	keys := r.URL.Query()["run"]
	if len(keys) < 2 {
		s.fail(w, http.StatusBadRequest, "pick two runs or more for a ladder")
		return
	}
	var runs []*run
	for _, k := range keys {
		x := s.store.get(k)
		if x == nil || x.Res == nil {
			s.fail(w, http.StatusNotFound, "no run "+k+" for the ladder")
			return
		}
		runs = append(runs, x)
	}
	sort.SliceStable(runs, func(i, j int) bool { return runs[i].Res.Totals.Rate > runs[j].Res.Totals.Rate })
	recs := make([]*record.Run, len(runs))
	results := make([]*grade.Result, len(runs))
	for i, x := range runs {
		recs[i], results[i] = x.Rec, x.Res
	}
	l := ladder.Build(recs, results)
	d := ladderData{Calibrated: l.Calibrated, NotCalibrated: l.NotCalibrated, Warnings: l.Warnings}
	for i, rg := range l.Rungs {
		d.Rungs = append(d.Rungs, rungView{Rung: rg, Key: runs[i].Key, Rate: htmlreport.Rate("", "", rg.Totals, colorAs, 100)})
	}
	for _, c := range l.Cases {
		row := ladderRow{ID: c.ID, Group: c.Group, Reading: c.Reading, Why: c.Why}
		for i, cn := range c.Counts {
			if cn == nil {
				row.Cells = append(row.Cells, ladderCell{None: true})
				continue
			}
			f := format.Counts(*cn)
			row.Cells = append(row.Cells, ladderCell{Text: f.Percent() + " " + f.Count(),
				URL: "/run/" + pathEscape(runs[i].Key) + "?" + url.Values{"case": {c.ID}}.Encode(),
				Bar: htmlreport.Rate("", "", *cn, colorAs, 80).Bar})
		}
		d.Rows = append(d.Rows, row)
	}
	d.Matrix = matrix(runs)
	s.render(w, http.StatusOK, "ladder.html.tmpl", s.page("Ladder", d))
}

// matrix sets runs side by side model by surface when they measured
// more than one surface; nil otherwise.
func matrix(runs []*run) *matrixView {
	names := map[string]bool{}
	var srs []report.SurfaceRun
	for _, x := range runs {
		name := ""
		if x.Rec.Header.Surface != nil {
			name = x.Rec.Header.Surface.Name
		}
		names[name] = true
		srs = append(srs, report.SurfaceRun{Record: x.Rec, Result: x.Res, Cost: x.cost(), Tokens: x.tally.Summary().Total.Tokens})
	}
	if len(names) < 2 {
		return nil
	}
	t := report.BuildSurfaces(srs)
	m := &matrixView{Canonical: t.Canonical, TestNote: t.TestNote(), CostNote: report.SurfaceCostNote}
	for i, r := range t.Rows {
		rate := format.Counts(r.Counts)
		row := matrixRow{Key: runs[i].Key, Surface: r.Surface, Model: r.Model, Tools: strconv.Itoa(r.Tools), Pass: rate.Cell(), CI: rate.CI(), PassK: format.None, Vs: format.None,
			ToolTokens: format.Grouped(strconv.Itoa(r.ToolTokens)), Tokens: format.Grouped(strconv.FormatInt(r.Tokens, 10)), Cost: r.Cost.Run(), PerSuccess: r.Cost.PerSuccess()}
		if r.PassHatK != nil {
			row.PassK = format.Pct(*r.PassHatK)
		}
		if v := r.VsCanonical; v != nil {
			row.Vs = "p=" + compare.FormatP(v.P)
			if v.Significant {
				row.Vs += " *"
			}
		}
		m.Rows = append(m.Rows, row)
	}
	return m
}
