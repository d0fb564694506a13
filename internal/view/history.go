package view

import (
	"cmp"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/report/htmlreport"
)

// historyRow is one run of a suite's history.
type historyRow struct {
	Key, Date, Status string
	Rate              htmlreport.RateView
	Cost              string
	// Confusion is the run's most frequent confusion, "wanted → called
	// (n of m key calls)"; empty when it made none.
	Confusion string
	start     time.Time
}

// historyModel is one model's runs of the suite, oldest first.
type historyModel struct {
	Model string
	Runs  []historyRow
}

type historyData struct {
	Suite  string
	Suites []string
	Models []historyModel
}

// historyURL is the address of suite's history.
func historyURL(suite string) string { return "/history?" + url.Values{"suite": {suite}}.Encode() }

// historyPage shows a suite's runs per model in time order: pass rate,
// cost and top tool confusion, so a drift over weeks reads down a column.
func (s *Server) historyPage(w http.ResponseWriter, r *http.Request) {
	d := historyData{Suite: r.URL.Query().Get("suite")}
	byModel := map[string]*historyModel{}
	suites := map[string]bool{}
	for _, run := range s.store.all() {
		row := summarize(run)
		if row.Suite == "" {
			continue
		}
		suites[row.Suite] = true
		if row.Suite != d.Suite {
			continue
		}
		hr := historyRow{Key: row.Key, Date: row.Date, Status: row.Status, Rate: row.Rate, Cost: row.Cost, start: run.Rec.Header.Start}
		if run.Res != nil {
			if top := run.Res.Confusion.Top(1); len(top) > 0 {
				c := top[0]
				hr.Confusion = fmt.Sprintf("%s → %s (%d of %d key calls)", c.Wanted, c.Called, c.Count, grade.Total(run.Res.Confusion.Calls, c.Wanted))
			}
		}
		m := byModel[row.Model]
		if m == nil {
			m = &historyModel{Model: row.Model}
			byModel[row.Model] = m
		}
		m.Runs = append(m.Runs, hr)
	}
	for s := range suites {
		d.Suites = append(d.Suites, s)
	}
	slices.Sort(d.Suites)
	for _, m := range byModel {
		slices.SortStableFunc(m.Runs, func(a, b historyRow) int { return cmp.Or(a.start.Compare(b.start), cmp.Compare(a.Key, b.Key)) })
		d.Models = append(d.Models, *m)
	}
	slices.SortFunc(d.Models, func(a, b historyModel) int { return cmp.Compare(a.Model, b.Model) })
	title := "History"
	if d.Suite != "" {
		title = "History of " + d.Suite
	}
	s.render(w, http.StatusOK, "history.html.tmpl", s.page(title, d))
}
