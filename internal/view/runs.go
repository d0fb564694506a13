package view

import (
	"fmt"
	"html/template"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/report/format"
	"github.com/mcpeval/mcpeval/internal/report/htmlreport"
)

var funcs = template.FuncMap{
	"attemptURL": attemptURL,
	"runURL":     func(key string) string { return "/run/" + url.PathEscape(key) },
	"pct":        format.Pct,
	"crumb":      func(text, url string) crumbView { return crumbView{Text: text, URL: url} },
	"crumbs":     func(c ...crumbView) []crumbView { return c },
	"historyURL": historyURL,
}

// crumbView is one step of the navigation trail.
type crumbView struct{ Text, URL string }

// attemptURL is the address of attempt caseID #n of run key.
func attemptURL(key, caseID string, n int) string {
	return "/attempt?" + url.Values{"run": {key}, "case": {caseID}, "n": {strconv.Itoa(n)}}.Encode()
}

const (
	colorAs    = "#3b6fd8"
	colorAfter = "#7a4cc2"
)

// runRow is one line of the runs list.
type runRow struct {
	Key, Dir, Suite, Model, Date string
	// Status is "valid", "invalid", "incomplete" or "in progress".
	Status, StatusNote string
	Problem            string
	Rate               htmlreport.RateView
	Errors             int
	Reviewed           string
	Attempts, Planned  int
	Tokens, Cost       string
	Live               bool
}

// summarize lays out run r as a line of the runs list.
func summarize(r *run) runRow {
	row := runRow{Key: r.Key, Dir: r.Dir}
	if r.Rec == nil {
		row.Status, row.Problem = "unreadable", errText(r.Err)
		return row
	}
	h := &r.Rec.Header
	row.Suite, row.Model = h.Suite.Name, h.Model.Spec
	if !h.Start.IsZero() {
		row.Date = h.Start.UTC().Format("2006-01-02 15:04")
	}
	row.Attempts, row.Planned = r.N, len(h.Planned)
	switch {
	case r.Res == nil:
		row.Status, row.Problem = "unreadable", errText(r.Err)
		return row
	case r.InProgress():
		row.Status, row.Live = "in progress", true
		row.StatusNote = fmt.Sprintf("%d of %d attempts", row.Attempts, row.Planned)
	case !r.Res.Valid:
		row.Status, row.StatusNote = "invalid", r.Res.Invalid
	case !r.Rec.Complete():
		row.Status, row.StatusNote = "incomplete", r.Rec.End.Reason
	default:
		row.Status = "valid"
	}
	if r.Res.Model != "" {
		row.Model = r.Res.Model
	}
	if r.Err != nil {
		row.Problem = r.Err.Error()
	}
	row.Rate = htmlreport.Rate("", "", r.RV.AsGraded, colorAs, 120)
	row.Errors = r.RV.AsGraded.Errors
	row.Reviewed = reviewedText(r)
	if r.In+r.Out > 0 {
		row.Tokens = fmt.Sprintf("%s in, %s out", compact(r.In), compact(r.Out))
	}
	if r.Usage != nil && r.Usage.Total.CostUSD != nil {
		row.Cost = fmt.Sprintf("$%.2f", *r.Usage.Total.CostUSD)
	}
	return row
}

// reviewedText is the share of a run's failures with a current review:
// "3/4 reviewed".
func reviewedText(r *run) string {
	rv := r.RV
	if rv.Failures == 0 {
		return "no failures"
	}
	return fmt.Sprintf("%d/%d reviewed", rv.Failures-rv.Unreviewed, rv.Failures)
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// compact writes a token count briefly: 950, 12.3k, 4.1M.
func compact(n int64) string {
	switch {
	case n >= 1_000_000:
		return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + "M"
	case n >= 10_000:
		return strconv.FormatFloat(float64(n)/1e3, 'f', 0, 64) + "k"
	case n >= 1_000:
		return strconv.FormatFloat(float64(n)/1e3, 'f', 1, 64) + "k"
	}
	return strconv.FormatInt(n, 10)
}

type runsData struct {
	Rows         []runRow
	Suites       []string
	Models       []string
	Suite, Model string
	Total        int
	Roots        string
	HasLive      bool
}

func (s *Server) runsPage(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	d := runsData{Suite: q.Get("suite"), Model: q.Get("model"), Roots: strings.Join(s.opts.Dirs, ", ")}
	suites, models := map[string]bool{}, map[string]bool{}
	for _, run := range s.store.all() {
		row := summarize(run)
		d.Total++
		if row.Suite != "" {
			suites[row.Suite] = true
		}
		if row.Model != "" {
			models[row.Model] = true
		}
		if (d.Suite != "" && row.Suite != d.Suite) || (d.Model != "" && row.Model != d.Model) {
			continue
		}
		d.HasLive = d.HasLive || row.Live
		d.Rows = append(d.Rows, row)
	}
	d.Suites, d.Models = slices.Sorted(maps.Keys(suites)), slices.Sorted(maps.Keys(models))
	p := s.page("Runs", d)
	p.Live = "*"
	s.render(w, http.StatusOK, "runs.html.tmpl", p)
}

// counts is a rate's figures for a live update.
func counts(c grade.Counts) string {
	f := format.Counts(c)
	return f.Percent() + " " + f.Count()
}
