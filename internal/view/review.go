package view

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/review"
)

// reviewPost records a verdict on a failed attempt, and on the identical
// failures of its case when asked, in the run's reviews.jsonl.
func (s *Server) reviewPost(w http.ResponseWriter, r *http.Request) {
	f, ok := s.acceptPost(w, r, "reading the review", "review refused")
	if !ok {
		return
	}
	verdict, err := review.ParseVerdict(f.Get("verdict"))
	if err != nil {
		s.fail(w, http.StatusBadRequest, "review refused: "+err.Error())
		return
	}
	note, reviewer := strings.TrimSpace(f.Get("note")), strings.TrimSpace(f.Get("reviewer"))
	if note == "" {
		s.fail(w, http.StatusBadRequest, "review refused: write a note saying why, for the next reader")
		return
	}
	if reviewer == "" {
		s.fail(w, http.StatusBadRequest, "review refused: name the reviewer")
		return
	}
	n, _ := strconv.Atoi(f.Get("n"))
	caseID := f.Get("case")

	s.reviewing.Lock()
	defer s.reviewing.Unlock()
	run := s.store.get(f.Get("run"))
	if run == nil || run.Res == nil {
		s.fail(w, http.StatusNotFound, "no run "+f.Get("run"))
		return
	}
	if !run.Res.Valid {
		s.fail(w, http.StatusConflict, "the run is invalid: nothing was graded, so there is nothing to review")
		return
	}
	g := find(run, caseID, n)
	switch {
	case g == nil:
		s.fail(w, http.StatusNotFound, fmt.Sprintf("run %s has no graded attempt %s #%d", run.Key, caseID, n))
		return
	case g.Outcome != grade.Fail:
		s.fail(w, http.StatusConflict, fmt.Sprintf("%s #%d is %s: only failures are reviewed", caseID, n, g.Outcome))
		return
	}
	todo := []*grade.AttemptGrade{g}
	if f.Get("siblings") != "" {
		for _, x := range siblings(run, g) {
			if x == g {
				continue
			}
			// A sibling that already has its own current review keeps it.
			if ra := run.RV.Attempt(x.Case, x.N); ra != nil && ra.Review != nil {
				continue
			}
			todo = append(todo, x)
		}
	}
	now := time.Now().UTC().Truncate(time.Second)
	for _, x := range todo {
		if err := run.Log.Add(newReview(run.Log, x, verdict, note, reviewer, now)); err != nil {
			s.store.forget(run.Dir)
			s.fail(w, http.StatusInternalServerError, "writing the review: "+err.Error())
			return
		}
	}
	s.store.forget(run.Dir)
	u := attemptURL(run.Key, caseID, n) + "&" + url.Values{"recorded": {strconv.Itoa(len(todo))}}.Encode()
	http.Redirect(w, r, u, http.StatusSeeOther)
}

// newReview is a review of g as "mcpeval review" writes one: the
// fingerprint of the attempt as graded now, and its reasons.
func newReview(log *review.Log, g *grade.AttemptGrade, v review.Verdict, note, reviewer string, now time.Time) review.Review {
	rs := make([]string, len(g.Reasons))
	for i, r := range g.Reasons {
		rs[i] = r.String()
	}
	return review.Review{
		RunID: log.RunID, Case: g.Case, N: g.N, Fingerprint: log.Fingerprint(g),
		Verdict: v, Note: note, Reviewer: reviewer, Time: now, Reasons: rs,
	}
}
