package view

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
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
	// Count is how many failures the group holds; Attempts are the first
	// shownPerGroup of them, and More says how many more are on the list
	// of their case (CaseURL).
	Count   int
	More    int
	CaseURL string
	// Unreviewed counts the group's failures with no current review.
	Unreviewed int
}

// shownPerGroup is how many of a failure group's attempts the run page
// links to; the rest are on the list of their case.
const shownPerGroup = htmlreport.ShownPerCase

// largeSearchLimit is how many attempts a search of a large run lists.
const largeSearchLimit = htmlreport.SmallRun

// caseRow is one case of a large run, its attempts counted.
type caseRow struct {
	Case, Group             string
	Passed, Failed, Errored int
	URL                     string
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
	// Large is set for a run of htmlreport.SmallRun attempts or more: its
	// page lists its cases, counted, and lists attempts only of one case or
	// of a search, read back from the record when asked for.
	Large bool
	// Cases are a large run's cases, when neither a case nor a search is
	// asked for.
	Cases []caseRow
	// Matched is how many attempts a search of a large run matched; the
	// first largeSearchLimit are listed.
	Matched  int
	Recorded int
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
	d := runData{Key: run.Key, Dir: run.Dir, Q: q.Get("q"), Case: q.Get("case"), SuiteErr: run.SuiteErr, InProgress: run.InProgress(),
		Large: run.N >= htmlreport.SmallRun, Recorded: run.N}
	d.Run = htmlreport.NewRunSummary(&htmlreport.RunPage{Run: run.Rec, Result: run.Res, Reviewed: run.RV, Agreement: run.Agreement}, run.N, run.cost())
	d.Run.Filters = false
	d.Run.Confusion = htmlreport.NewConfusionView(run.Res.Confusion, func(a grade.AttemptRef) string { return attemptURL(run.Key, a.Case, a.N) })
	if run.AgreementErr != "" {
		// Clipped: the warnings are the stored run's, shared with other requests.
		d.Run.Warnings = append(slices.Clip(d.Run.Warnings), "the judge's measured agreement could not be read, so it is shown as not measured: "+run.AgreementErr)
	}
	d.Run.Provenance = append(d.Run.Provenance, htmlreport.KV{K: "directory", V: run.Dir})
	if d.InProgress {
		d.Progress = fmt.Sprintf("%d of %d attempts", run.N, len(run.Rec.Header.Planned))
	}
	d.Reviewed = reviewedText(run)
	d.Charts = run.charts
	d.Rate = counts(run.RV.AsGraded)
	d.Failures = failureGroups(run)
	query := strings.ToLower(strings.TrimSpace(d.Q))
	var err error
	switch {
	case d.Large && d.Case == "" && query == "":
		d.Cases = caseRows(run)
	case d.Large && query == "":
		d.Attempts, err = caseAttempts(run, d.Case)
	default:
		d.Attempts, d.Matched, err = searchAttempts(run, d.Case, query, d.Large)
	}
	if err != nil {
		s.fail(w, http.StatusInternalServerError, "reading the attempts of run "+run.Key+": "+err.Error())
		return
	}
	d.Shown = len(d.Attempts)
	p := s.page("Run "+run.Key, d)
	p.Live = run.Key
	s.render(w, http.StatusOK, "run.html.tmpl", p)
}

// newRow lays out graded attempt g as a row; a is the attempt as
// recorded, nil when it is not read.
func newRow(run *run, groupOf map[string]string, g *grade.AttemptGrade, a *record.Attempt) attemptRow {
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
	if a != nil {
		text = append(text, a.Prompt, a.Answer)
		if row.Reason == "" {
			row.Reason = clip(a.Answer, 140)
		}
	}
	row.Text = strings.ToLower(strings.Join(text, "\n"))
	return row
}

// groupsOf maps each case of a run to its group.
func groupsOf(run *run) map[string]string {
	groupOf := map[string]string{}
	for _, c := range run.Res.Cases {
		groupOf[c.ID] = c.Group
	}
	return groupOf
}

// caseAttempts lists the attempts of case caseID, each read back from the
// record by its key.
func caseAttempts(run *run, caseID string) ([]attemptRow, error) {
	var keys []record.AttemptKey
	var grades []*grade.AttemptGrade
	for i := range run.Res.Attempts {
		if g := &run.Res.Attempts[i]; g.Case == caseID {
			keys = append(keys, record.AttemptKey{Case: g.Case, N: g.N})
			grades = append(grades, g)
		}
	}
	if len(keys) == 0 {
		return nil, nil
	}
	groupOf := groupsOf(run)
	rows := make([]attemptRow, 0, len(keys))
	err := run.eachOf(keys, func(_ record.AttemptKey, a *record.Attempt) error {
		rows = append(rows, newRow(run, groupOf, grades[len(rows)], a))
		return nil
	})
	return rows, err
}

// searchAttempts lists the attempts (of case caseID, when it is not
// empty) whose case, prompt, answer or reasons hold query, in the grades'
// order, reading the record as a stream. For a large run it lists the
// first largeSearchLimit; matched is how many matched.
func searchAttempts(run *run, caseID, query string, large bool) (rows []attemptRow, matched int, err error) {
	byKey := make(map[record.AttemptKey]int, len(run.Res.Attempts))
	for i, g := range run.Res.Attempts {
		byKey[record.AttemptKey{Case: g.Case, N: g.N}] = i
	}
	groupOf := groupsOf(run)
	type hit struct {
		i   int
		row attemptRow
	}
	var hits []hit
	err = run.eachAttempt(func(a *record.Attempt) error {
		i, ok := byKey[a.Key()]
		if !ok || (caseID != "" && a.Case != caseID) {
			return nil
		}
		row := newRow(run, groupOf, &run.Res.Attempts[i], a)
		if query != "" && !strings.Contains(row.Text, query) {
			return nil
		}
		matched++
		if large && len(hits) >= largeSearchLimit {
			return nil
		}
		hits = append(hits, hit{i, row})
		return nil
	})
	sort.SliceStable(hits, func(a, b int) bool { return hits[a].i < hits[b].i })
	for _, h := range hits {
		rows = append(rows, h.row)
	}
	return rows, matched, err
}

// caseRows counts a large run's attempts by case, in the grades' order.
func caseRows(run *run) []caseRow {
	groupOf := groupsOf(run)
	var out []caseRow
	at := map[string]int{}
	for _, g := range run.Res.Attempts {
		i, ok := at[g.Case]
		if !ok {
			i = len(out)
			at[g.Case] = i
			out = append(out, caseRow{Case: g.Case, Group: groupOf[g.Case], URL: caseURL(run.Key, g.Case)})
		}
		switch g.Outcome {
		case grade.Pass:
			out[i].Passed++
		case grade.Fail:
			out[i].Failed++
		default:
			out[i].Errored++
		}
	}
	return out
}

// caseURL is the address of the list of case caseID's attempts in run key.
func caseURL(key, caseID string) string {
	return "/run/" + url.PathEscape(key) + "?" + url.Values{"case": {caseID}}.Encode()
}

// failureGroups gathers the failed attempts by their reasons: attempts
// that failed for identical reasons are one group, largest first, each
// listing its first shownPerGroup attempts. The grades hold all it shows:
// no attempt is read.
func failureGroups(run *run) []failureGroup {
	groupOf := groupsOf(run)
	var out []failureGroup
	at := map[string]int{}
	for i := range run.Res.Attempts {
		g := &run.Res.Attempts[i]
		if g.Outcome != grade.Fail {
			continue
		}
		a := newRow(run, groupOf, g, nil)
		k := a.Case + "\x00" + strings.Join(a.Reasons, "\x00")
		j, ok := at[k]
		if !ok {
			j = len(out)
			at[k] = j
			out = append(out, failureGroup{Case: a.Case, Reasons: a.Reasons, CaseURL: caseURL(run.Key, a.Case)})
		}
		fg := &out[j]
		fg.Count++
		if len(fg.Attempts) < shownPerGroup {
			fg.Attempts = append(fg.Attempts, a)
		} else {
			fg.More++
		}
		if a.Review == "" {
			fg.Unreviewed++
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Count > out[j].Count })
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
