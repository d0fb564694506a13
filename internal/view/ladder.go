package view

import (
	"net/http"
	"net/url"
	"sort"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/ladder"
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
	s.render(w, http.StatusOK, "ladder.html.tmpl", s.page("Ladder", d))
}
