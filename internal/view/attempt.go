package view

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/corpus"
	"github.com/mcpeval/mcpeval/internal/report/format"
	"github.com/mcpeval/mcpeval/internal/report/htmlreport"
	"github.com/mcpeval/mcpeval/internal/review"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// checkView is one check a case makes, passed or failed, with what it
// expected.
type checkView struct {
	Name     string
	Failed   bool
	Expected []string
	Messages []string
}

// toolView is a tool the model was shown.
type toolView struct {
	Name, Description, Schema string
	ReadOnly, Destructive     bool
	// ServerDescription is the description as the server listed it, when
	// an overlay changed it.
	ServerDescription string
	Overlaid          bool
}

type verdictView struct{ Value, Label, Key string }

// draftView is a case a tool drafted that no person has checked yet.
type draftView struct {
	Where, Prompt string
	Key           []string
}

type attemptData struct {
	Key, RunTitle string
	Case, Group   string
	N             int
	Outcome       string
	Transcript    htmlreport.AttemptView
	SystemPrompt  string
	Tools         []toolView
	Overlay       string
	Checks        []checkView
	OtherReasons  []string
	Working       string
	KeyCalls      []string
	KeyAnswer     string
	SuiteErr      string
	Prev, Next    string
	RunURL        string
	// Review is the current review; Stale the reviews that no longer
	// apply.
	Review      *review.Review
	Stale       []review.Entry
	CanReview   bool
	Siblings    int
	Reviewer    string
	Verdicts    []verdictView
	Recorded    string
	DurationMS  int64
	TotalTokens string
	// ReadOnly says the server writes nothing: no form is offered.
	ReadOnly bool
	// Draft is the attempt's case when it is marked verified: false,
	// with where it is; CanVerify offers to mark it checked. Verified
	// says where a case was just marked checked.
	Draft     *draftView
	CanVerify bool
	Verified  string
}

func (s *Server) attemptPage(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	run := s.store.get(q.Get("run"))
	if run == nil || run.Res == nil {
		s.fail(w, http.StatusNotFound, "no run "+q.Get("run"))
		return
	}
	n, _ := strconv.Atoi(q.Get("n"))
	caseID := q.Get("case")
	g := find(run, caseID, n)
	var a *record.Attempt
	if g != nil {
		var err error
		if a, err = run.loadAttempt(caseID, n); err != nil {
			s.fail(w, http.StatusInternalServerError, fmt.Sprintf("reading attempt %s #%d of run %s: %v", caseID, n, run.Key, err))
			return
		}
	}
	if g == nil || a == nil {
		s.fail(w, http.StatusNotFound, fmt.Sprintf("run %s has no attempt %s #%d", run.Key, caseID, n))
		return
	}
	d := attemptData{Key: run.Key, RunTitle: "Run " + run.Key, Case: caseID, N: n, Outcome: string(g.Outcome),
		RunURL: "/run/" + pathEscape(run.Key), SuiteErr: run.SuiteErr, Reviewer: s.opts.Reviewer,
		Recorded: q.Get("recorded"), DurationMS: a.DurationMS, ReadOnly: s.opts.ReadOnly, Verified: q.Get("verified")}
	h := &run.Rec.Header
	d.SystemPrompt = h.SystemPrompt
	server := map[string]record.Tool{}
	for _, t := range h.ServerTools {
		server[t.Name] = t
	}
	for _, t := range h.Tools {
		tv := toolView{Name: t.Name, Description: t.Description, Schema: format.IndentJSON(string(t.InputSchema)), ReadOnly: t.ReadOnly, Destructive: t.Destructive}
		if st, ok := server[t.Name]; ok && len(h.ServerTools) > 0 && st.Description != t.Description {
			tv.Overlaid, tv.ServerDescription = true, st.Description
		}
		d.Tools = append(d.Tools, tv)
	}
	if h.Overlay != nil {
		d.Overlay = h.Overlay.Path
	}
	for _, c := range run.Res.Cases {
		if c.ID == caseID {
			d.Group = c.Group
		}
	}
	d.Transcript = htmlreport.Transcript(a)
	if u := a.Usage(); u.Input+u.Output > 0 {
		d.TotalTokens = fmt.Sprintf("%s in, %s out", compact(u.Input), compact(u.Output))
	}
	var c *suite.Case
	if run.Suite != nil {
		c = run.Suite.Case(caseID)
	}
	d.Checks, d.OtherReasons = checks(run.Suite, c, g)
	if c != nil {
		d.Working = c.Working
		d.KeyAnswer = c.Key.Answer
		for _, k := range c.Key.Calls {
			args := "{}"
			if len(k.Args) > 0 {
				b, _ := json.Marshal(k.Args)
				args = string(b)
			}
			d.KeyCalls = append(d.KeyCalls, k.Tool+" "+args)
		}
		if c.Unverified() {
			d.Draft = &draftView{Where: fmt.Sprintf("%s:%d", c.File, c.Line), Prompt: c.Prompt, Key: corpus.KeyLines(c)}
			d.CanVerify = !s.opts.ReadOnly
		}
		flagCalls(&d.Transcript, c, g)
		d.Transcript.AnswerParts = markAnswer(run.Suite, c, a.Answer, g.Reasons)
	}
	// Neighbours, for j/k between attempts.
	for i, x := range run.Res.Attempts {
		if x.Case == caseID && x.N == n {
			if i > 0 {
				p := run.Res.Attempts[i-1]
				d.Prev = attemptURL(run.Key, p.Case, p.N)
			}
			if i+1 < len(run.Res.Attempts) {
				p := run.Res.Attempts[i+1]
				d.Next = attemptURL(run.Key, p.Case, p.N)
			}
		}
	}
	if ra := run.RV.Attempt(caseID, n); ra != nil {
		d.Review, d.Stale = ra.Review, ra.Stale
	}
	d.CanReview = g.Outcome == grade.Fail && !s.opts.ReadOnly
	d.Siblings = len(siblings(run, g)) - 1
	for _, v := range review.Verdicts {
		d.Verdicts = append(d.Verdicts, verdictView{Value: string(v), Label: v.Label(), Key: string(v[0])})
	}
	p := s.page(fmt.Sprintf("%s #%d", caseID, n), d)
	p.Live = run.Key
	s.render(w, http.StatusOK, "attempt.html.tmpl", p)
}

func pathEscape(s string) string { return url.PathEscape(s) }

// find returns the grade of attempt caseID #n of run; the attempt itself
// is read back from the record when it is shown.
func find(run *run, caseID string, n int) *grade.AttemptGrade {
	for i := range run.Res.Attempts {
		if x := &run.Res.Attempts[i]; x.Case == caseID && x.N == n {
			return x
		}
	}
	return nil
}

// siblings are the failed attempts of g's case that failed for exactly
// g's reasons, g included.
func siblings(run *run, g *grade.AttemptGrade) []*grade.AttemptGrade {
	if g.Outcome != grade.Fail {
		return nil
	}
	var out []*grade.AttemptGrade
	for i := range run.Res.Attempts {
		x := &run.Res.Attempts[i]
		if x.Case == g.Case && x.Outcome == grade.Fail && slices.Equal(x.Reasons, g.Reasons) {
			out = append(out, x)
		}
	}
	return out
}

// checks lays out what case c expected, check by check, each marked
// failed when g has a reason of it; reasons of checks the case does not
// spell out come back alone.
func checks(s *suite.Suite, c *suite.Case, g *grade.AttemptGrade) ([]checkView, []string) {
	failed := map[string][]string{}
	for _, r := range g.Reasons {
		failed[r.Check] = append(failed[r.Check], r.Message)
	}
	var out []checkView
	add := func(name string, expected []string) {
		out = append(out, checkView{Name: name, Expected: expected, Failed: len(failed[name]) > 0, Messages: failed[name]})
		delete(failed, name)
	}
	if c != nil {
		if c.IsToolCall() {
			var e []string
			if len(c.ExpectTools) > 0 {
				e = append(e, "first call to one of: "+strings.Join(c.ExpectTools, ", "))
			}
			for _, k := range slices.Sorted(maps.Keys(c.ExpectArgs)) {
				b, _ := json.Marshal(c.ExpectArgs[k])
				e = append(e, k+" = "+string(b))
			}
			add(grade.CheckTools, e)
		} else if t := c.Tools; len(t.Required)+len(t.Accepted)+len(t.Forbidden) > 0 {
			var e []string
			if len(t.Required) > 0 {
				e = append(e, "must call: "+strings.Join(t.Required, ", "))
			}
			if len(t.Accepted) > 0 {
				e = append(e, "must call one of: "+strings.Join(t.Accepted, ", "))
			}
			if len(t.Forbidden) > 0 {
				e = append(e, "must not call: "+strings.Join(t.Forbidden, ", "))
			}
			add(grade.CheckTools, e)
		}
		if len(c.Args) > 0 {
			var e []string
			for _, a := range c.Args {
				e = append(e, argRule(a))
			}
			add(grade.CheckArgs, e)
		}
		if len(c.Figures) > 0 {
			var e []string
			for _, f := range c.Figures {
				e = append(e, figure(s, f))
			}
			add(grade.CheckFigures, e)
		}
		if ac := c.Answer; ac != nil {
			var e []string
			for _, x := range ac.Contains {
				e = append(e, "says "+strconv.Quote(x))
			}
			if len(ac.AnyOf) > 0 {
				e = append(e, "says one of "+strings.Join(quoteAll(ac.AnyOf), ", "))
			}
			for _, x := range ac.NotContains {
				e = append(e, "does not say "+strconv.Quote(x))
			}
			if ac.Matches != "" {
				e = append(e, "matches /"+ac.Matches+"/")
			}
			add(grade.CheckAnswer, e)
		}
		if c.NoInventedFigures {
			add(grade.CheckInvented, []string{"every money figure and percentage comes from a tool result"})
		}
		if c.Decline {
			add(grade.CheckDecline, []string{"declines: the data cannot answer this"})
		}
	}
	var rest []string
	for _, r := range g.Reasons {
		if _, ok := failed[r.Check]; ok {
			rest = append(rest, r.String())
		}
	}
	return out, rest
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strconv.Quote(s)
	}
	return out
}

func argRule(a suite.ArgRule) string {
	s := a.Tool + "." + a.Arg
	if a.Equals != nil {
		b, _ := json.Marshal(a.Equals)
		s += " = " + string(b)
	}
	if a.Min != nil {
		s += " ≥ " + strconv.FormatFloat(*a.Min, 'f', -1, 64)
	}
	if a.Max != nil {
		s += " ≤ " + strconv.FormatFloat(*a.Max, 'f', -1, 64)
	}
	if a.Why != "" {
		s += " (" + a.Why + ")"
	}
	return s
}

// figure writes an expected figure with the tolerance it is held to.
func figure(s *suite.Suite, f suite.Figure) string {
	v := format.Grouped(strconv.FormatFloat(f.Value, 'f', -1, 64))
	switch f.Kind {
	case "percent":
		v += "%"
	case "count":
		if f.Unit != "" {
			v += " " + f.Unit
		}
	default:
		if f.Currency != "" {
			v = f.Currency + " " + v
		}
	}
	tol := "exact"
	if t := tolerance(s, f); t.Relative != 0 || t.Absolute != 0 {
		tol = "± " + t.String()
		if f.Kind == "percent" && t.Relative == 0 {
			tol += " points"
		}
	}
	out := v + " (" + tol + ")"
	if f.Label != "" {
		out = f.Label + ": " + out
	}
	return out
}

// flagCalls marks the calls of t that broke one of case c's rules: a
// forbidden tool, a tool the model was not shown, and, when g failed the
// argument check, every call of a tool an argument rule is about (a rule
// fails only when no call of its tool met it).
func flagCalls(t *htmlreport.AttemptView, c *suite.Case, g *grade.AttemptGrade) {
	argsFailed := false
	for _, r := range g.Reasons {
		argsFailed = argsFailed || r.Check == grade.CheckArgs
	}
	for i := range t.Turns {
		for j := range t.Turns[i].Calls {
			cv := &t.Turns[i].Calls[j]
			switch {
			case slices.Contains(c.Tools.Forbidden, cv.Name):
				cv.Flag = "forbidden by the case"
			case !cv.Shows && strings.Contains(cv.Note, "not shown"):
				cv.Flag = "not shown to the model"
			case argsFailed && slices.ContainsFunc(c.Args, func(a suite.ArgRule) bool { return a.Tool == cv.Name }):
				cv.Flag = "arguments fail the case's rules"
			}
		}
	}
}
