package view

import (
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/report/htmlreport"
	"github.com/mcpeval/mcpeval/record"
)

// attemptRow is one attempt in a run's list of attempts.
type attemptRow struct {
	Case, Group     string
	N               int
	Outcome, Review string
	// Reason is the first failing reason, or the answer's start.
	Reason string
	// Reasons are every failing reason.
	Reasons []string
	// Text is what search looks in: case, prompt, answer and reasons, in
	// lower case.
	Text string
	URL  string
}

// failureGroup is the failures of a run that failed for identical reasons.
type failureGroup struct {
	Case     string
	Reasons  []string
	Attempts []attemptRow
	// Unreviewed counts the group's failures with no current review.
	Unreviewed int
}

type runData struct {
	Key        string
	Dir        string
	Run        *htmlreport.RunView
	InProgress bool
	Progress   string
	Reviewed   string
	Rate       string
	SuiteErr   string
	Failures   []failureGroup
	Attempts   []attemptRow
	Shown      int
	Q, Case    string
	Charts     []*histogram
}

func (s *Server) runPage(w http.ResponseWriter, r *http.Request) {
	run := s.store.get(r.PathValue("key"))
	if run == nil {
		s.fail(w, http.StatusNotFound, "no run "+r.PathValue("key")+" under "+strings.Join(s.opts.Dirs, ", "))
		return
	}
	if run.Res == nil {
		s.fail(w, http.StatusUnprocessableEntity, "run "+run.Key+" cannot be shown: "+errText(run.Err))
		return
	}
	q := r.URL.Query()
	d := runData{Key: run.Key, Dir: run.Dir, Q: q.Get("q"), Case: q.Get("case"), SuiteErr: run.SuiteErr, InProgress: run.InProgress()}
	d.Run = htmlreport.NewRunView(&htmlreport.RunPage{Run: run.Rec, Result: run.Res, Reviewed: run.RV})
	d.Run.Filters = false
	d.Run.Provenance = append(d.Run.Provenance, htmlreport.KV{K: "directory", V: run.Dir})
	if d.InProgress {
		d.Progress = fmt.Sprintf("%d of %d attempts", len(run.Rec.Attempts), len(run.Rec.Header.Planned))
	}
	d.Reviewed = reviewedText(run)
	d.Charts = runCharts(run)
	d.Rate = counts(run.RV.AsGraded)
	rows := attemptRows(run)
	d.Failures = failureGroups(rows)
	query := strings.ToLower(strings.TrimSpace(d.Q))
	for _, a := range rows {
		if d.Case != "" && a.Case != d.Case {
			continue
		}
		if query != "" && !strings.Contains(a.Text, query) {
			continue
		}
		d.Attempts = append(d.Attempts, a)
	}
	d.Shown = len(d.Attempts)
	p := s.page("Run "+run.Key, d)
	p.Live = run.Key
	s.render(w, http.StatusOK, "run.html.tmpl", p)
}

// attemptRows lists a run's graded attempts in the grades' order.
func attemptRows(run *run) []attemptRow {
	recs := map[record.AttemptKey]*record.Attempt{}
	for i := range run.Rec.Attempts {
		a := &run.Rec.Attempts[i]
		recs[a.Key()] = a
	}
	groupOf := map[string]string{}
	for _, c := range run.Res.Cases {
		groupOf[c.ID] = c.Group
	}
	var rows []attemptRow
	for _, g := range run.Res.Attempts {
		row := attemptRow{Case: g.Case, N: g.N, Group: groupOf[g.Case], Outcome: string(g.Outcome), URL: attemptURL(run.Key, g.Case, g.N)}
		if ra := run.RV.Attempt(g.Case, g.N); ra != nil && ra.Review != nil {
			row.Review = string(ra.Review.Verdict)
		}
		text := []string{g.Case}
		if g.Outcome != grade.Pass {
			for _, rs := range g.Reasons {
				row.Reasons = append(row.Reasons, rs.String())
			}
			text = append(text, row.Reasons...)
			if len(g.Reasons) > 0 {
				row.Reason = g.Reasons[0].String()
				if len(g.Reasons) > 1 {
					row.Reason += fmt.Sprintf(" (and %d more)", len(g.Reasons)-1)
				}
			}
		}
		if a := recs[record.AttemptKey{Case: g.Case, N: g.N}]; a != nil {
			text = append(text, a.Prompt, a.Answer)
			if row.Reason == "" {
				row.Reason = clip(a.Answer, 140)
			}
		}
		row.Text = strings.ToLower(strings.Join(text, "\n"))
		rows = append(rows, row)
	}
	return rows
}

// failureGroups gathers the failed attempts by their reasons: attempts
// that failed for identical reasons are one group, largest first.
func failureGroups(rows []attemptRow) []failureGroup {
	var out []failureGroup
	at := map[string]int{}
	for _, a := range rows {
		if a.Outcome != string(grade.Fail) {
			continue
		}
		k := a.Case + "\x00" + strings.Join(a.Reasons, "\x00")
		i, ok := at[k]
		if !ok {
			i = len(out)
			at[k] = i
			out = append(out, failureGroup{Case: a.Case, Reasons: a.Reasons})
		}
		out[i].Attempts = append(out[i].Attempts, a)
		if a.Review == "" {
			out[i].Unreviewed++
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].Attempts) > len(out[j].Attempts) })
	return out
}

// clip cuts s to n runes on one line.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
