package review

import (
	"fmt"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/stats"
)

// Status says whether a review applies to the attempt as it is graded now.
type Status string

// The statuses of a review.
const (
	// Current: the attempt fails exactly as it did when reviewed, and no
	// later review of it replaced this one.
	Current Status = "current"
	// Replaced: a later review of the same failure replaced this one.
	Replaced Status = "replaced"
	// Stale: the review no longer applies: the attempt now passes, ends in
	// an error, fails for other reasons, or is not in the grades.
	Stale Status = "stale"
)

// Entry is a review with its status against the grades.
type Entry struct {
	Review
	Status Status `json:"status"`
	// Why says why a stale review no longer applies.
	Why string `json:"why,omitempty"`
}

// Rates are the counts of a set of attempts as graded and after review.
type Rates struct {
	// Name is the group's name, or the case's id.
	Name string `json:"name"`
	// Group is a case's group; empty for a group.
	Group       string       `json:"group,omitempty"`
	AsGraded    grade.Counts `json:"as_graded"`
	AfterReview grade.Counts `json:"after_review"`
}

// Attempt is a failed or reviewed attempt with its review.
type Attempt struct {
	Case    string        `json:"case"`
	N       int           `json:"attempt"`
	Group   string        `json:"group"`
	Outcome grade.Outcome `json:"outcome"`
	// Fingerprint is what a review of the attempt as graded now must carry.
	Fingerprint string `json:"fingerprint,omitempty"`
	// Review is the review that applies, nil when the failure is not
	// reviewed.
	Review *Review `json:"review,omitempty"`
	// Stale are reviews of the attempt that no longer apply.
	Stale []Entry `json:"stale,omitempty"`
}

// Reviewed is a graded run with its reviews applied.
type Reviewed struct {
	// AsGraded are the run's counts as graded.
	AsGraded grade.Counts `json:"as_graded"`
	// AfterReview are the counts after review: grader false fails count as
	// passes; everything else is as graded.
	AfterReview grade.Counts `json:"after_review"`
	// Groups and Cases are the same two rates per group and per case, in
	// the grades' order.
	Groups []Rates `json:"groups"`
	Cases  []Rates `json:"cases"`
	// Failures counts the failed attempts as graded.
	Failures int `json:"failures"`
	// ModelFailures, GraderFalseFails and ExpectationsInQuestion count the
	// failures with a current review of each verdict; Unreviewed the
	// failures with none (a failure whose reviews are all stale is not
	// reviewed).
	ModelFailures          int `json:"model_failures"`
	GraderFalseFails       int `json:"grader_false_fails"`
	ExpectationsInQuestion int `json:"expectations_in_question"`
	Unreviewed             int `json:"unreviewed"`
	// StaleReviews counts the attempts whose reviews have all gone stale.
	StaleReviews int `json:"stale_reviews"`
	// Attempts are every failed attempt and every attempt a review names,
	// in the grades' order (attempts the grades lack come last).
	Attempts []Attempt `json:"attempts"`
	// Entries are every review with its status, in the order written.
	Entries []Entry `json:"entries"`
}

// Count returns how many failures have a current review with verdict v.
func (r *Reviewed) Count(v Verdict) int {
	switch v {
	case ModelFailure:
		return r.ModelFailures
	case GraderFalseFail:
		return r.GraderFalseFails
	case ExpectationInQuestion:
		return r.ExpectationsInQuestion
	}
	return 0
}

// Reviews reports whether the run has any review at all.
func (r *Reviewed) Reviews() bool { return len(r.Entries) > 0 }

// Attempt returns the failed or reviewed attempt case #n, or nil.
func (r *Reviewed) Attempt(caseID string, n int) *Attempt {
	for i := range r.Attempts {
		if r.Attempts[i].Case == caseID && r.Attempts[i].N == n {
			return &r.Attempts[i]
		}
	}
	return nil
}

// Apply puts the reviews in log on the graded run res. Only a current
// review counts: one whose fingerprint matches the attempt as graded now.
// A nil log has no reviews.
func Apply(res *grade.Result, log *Log) *Reviewed {
	if log == nil {
		log = &Log{}
	}
	ap := &applying{res: res, log: log, groupOf: map[string]string{}, judged: map[string]bool{}, grades: map[record.AttemptKey]*grade.AttemptGrade{}, prints: map[record.AttemptKey]string{}, byKey: map[record.AttemptKey]int{},
		rv: &Reviewed{Groups: []Rates{}, Cases: []Rates{}, Attempts: []Attempt{}, Entries: []Entry{}}}
	for _, c := range res.Cases {
		ap.groupOf[c.ID] = c.Group
		if c.Judged {
			ap.judged[c.ID] = true
		}
	}
	// Only the grades of reviewed attempts are looked up: a run's every
	// attempt is not indexed.
	for _, r := range log.Reviews {
		ap.grades[r.Key()] = nil
	}
	for i := range res.Attempts {
		a := &res.Attempts[i]
		k := record.AttemptKey{Case: a.Case, N: a.N}
		if _, ok := ap.grades[k]; ok {
			ap.grades[k] = a
		}
		if a.Outcome == grade.Fail {
			ap.prints[k] = log.Fingerprint(a)
		}
	}
	ap.entries()
	ap.attempts()
	ap.verdicts()
	ap.rates()
	return ap.rv
}

// applying is the state of Apply as it goes: the graded run and the log,
// indexed, and the result being built.
type applying struct {
	res     *grade.Result
	log     *Log
	groupOf map[string]string                         // case id -> group
	judged  map[string]bool                           // case ids graded by their judge
	grades  map[record.AttemptKey]*grade.AttemptGrade // every reviewed attempt, nil when not graded
	prints  map[record.AttemptKey]string              // the fingerprint of every failed one
	byKey   map[record.AttemptKey]int                 // index in rv.Attempts
	rv      *Reviewed
}

// entries gives every review its status; the last one that applies is
// current.
func (ap *applying) entries() {
	rv := ap.rv
	current := map[record.AttemptKey]int{}
	for i, r := range ap.log.Reviews {
		e := Entry{Review: r}
		k := r.Key()
		e.Status, e.Why = ap.status(r)
		if e.Status == Current {
			if j, ok := current[k]; ok {
				rv.Entries[j].Status = Replaced
			}
			current[k] = i
		}
		rv.Entries = append(rv.Entries, e)
	}
}

// status says whether review r is current, or why it is stale.
func (ap *applying) status(r Review) (Status, string) {
	k := r.Key()
	g := ap.grades[k]
	switch {
	case r.RunID != "" && ap.log.RunID != "" && r.RunID != ap.log.RunID:
		return Stale, fmt.Sprintf("made on run %s, not this one", r.RunID)
	case g == nil:
		return Stale, "the attempt is not in the grades"
	case g.Outcome == grade.Pass:
		return Stale, "the attempt now passes"
	case g.Outcome == grade.Error:
		return Stale, "the attempt now ends in an error"
	case r.Fingerprint != ap.prints[k]:
		return Stale, "the attempt now fails for other reasons"
	}
	return Current, ""
}

// add returns the attempt k of the result, adding it first.
func (ap *applying) add(k record.AttemptKey, g *grade.AttemptGrade) *Attempt {
	rv := ap.rv
	if i, ok := ap.byKey[k]; ok {
		return &rv.Attempts[i]
	}
	a := Attempt{Case: k.Case, N: k.N, Group: ap.groupOf[k.Case], Fingerprint: ap.prints[k]}
	if g != nil {
		a.Outcome = g.Outcome
	}
	ap.byKey[k] = len(rv.Attempts)
	rv.Attempts = append(rv.Attempts, a)
	return &rv.Attempts[len(rv.Attempts)-1]
}

// attempts lists every failed or reviewed attempt, with its current review
// and its stale ones.
func (ap *applying) attempts() {
	rv := ap.rv
	reviewed := map[record.AttemptKey]bool{}
	for _, e := range rv.Entries {
		reviewed[e.Key()] = true
	}
	for i := range ap.res.Attempts {
		g := &ap.res.Attempts[i]
		k := record.AttemptKey{Case: g.Case, N: g.N}
		if g.Outcome == grade.Fail || reviewed[k] {
			ap.add(k, g)
		}
	}
	for _, e := range rv.Entries {
		if ap.grades[e.Key()] == nil {
			ap.add(e.Key(), nil)
		}
	}
	for i, e := range rv.Entries {
		a := &rv.Attempts[ap.byKey[e.Key()]]
		switch e.Status {
		case Current:
			r := ap.log.Reviews[i]
			a.Review = &r
		case Stale:
			a.Stale = append(a.Stale, e)
		}
	}
}

// verdicts counts the failures by their current review's verdict. The
// failures of cases graded by their judge are reviewed (to measure the
// judge) but counted apart, as their rate is: in no tally here.
func (ap *applying) verdicts() {
	rv := ap.rv
	for _, a := range rv.Attempts {
		if a.Review == nil && len(a.Stale) > 0 {
			rv.StaleReviews++
		}
		if a.Outcome != grade.Fail || ap.judged[a.Case] {
			continue
		}
		rv.Failures++
		if a.Review == nil {
			rv.Unreviewed++
			continue
		}
		switch a.Review.Verdict {
		case ModelFailure:
			rv.ModelFailures++
		case GraderFalseFail:
			rv.GraderFalseFails++
		case ExpectationInQuestion:
			rv.ExpectationsInQuestion++
		}
	}
}

// rateCounts are the outcomes of some attempts as graded and after
// review.
type rateCounts struct{ as, after grade.Counts }

// rates computes the two rates, overall, per group and per case: a
// failure reviewed as the grader's false fail passes after review.
func (ap *applying) rates() {
	rv := ap.rv
	total := &rateCounts{}
	groups := map[string]*rateCounts{}
	cases := map[string]*rateCounts{}
	for i := range ap.res.Attempts {
		g := &ap.res.Attempts[i]
		after := g.Outcome
		if ap.forgiven(g) {
			after = grade.Pass
		}
		ts := []*rateCounts{at(cases, g.Case)}
		if !ap.judged[g.Case] { // graded by their judge: rates apart, in no total
			ts = append(ts, total, at(groups, ap.groupOf[g.Case]))
		}
		for _, t := range ts {
			count(&t.as, g.Outcome, g.ToolErrors)
			count(&t.after, after, g.ToolErrors)
		}
	}
	rv.AsGraded, rv.AfterReview = finish(total.as), finish(total.after)
	for _, g := range ap.res.Groups {
		t := at(groups, g.Name)
		rv.Groups = append(rv.Groups, Rates{Name: g.Name, AsGraded: finish(t.as), AfterReview: finish(t.after)})
	}
	for _, c := range ap.res.Cases {
		t := at(cases, c.ID)
		rv.Cases = append(rv.Cases, Rates{Name: c.ID, Group: c.Group, AsGraded: finish(t.as), AfterReview: finish(t.after)})
	}
}

// forgiven reports whether a failed attempt was reviewed as the grader's
// false fail.
func (ap *applying) forgiven(g *grade.AttemptGrade) bool {
	if g.Outcome != grade.Fail {
		return false
	}
	a := ap.rv.Attempt(g.Case, g.N)
	return a != nil && a.Review != nil && a.Review.Verdict == GraderFalseFail
}

func at[T any](m map[string]*T, k string) *T {
	if m[k] == nil {
		m[k] = new(T)
	}
	return m[k]
}

// count counts an attempt's outcome o and its tool errors the case did
// not expect, which a review does not change.
func count(c *grade.Counts, o grade.Outcome, toolErrors int) {
	c.ToolErrors += toolErrors
	switch o {
	case grade.Pass:
		c.Passed++
	case grade.Fail:
		c.Failed++
	case grade.Error:
		c.Errors++
	}
}

// finish computes a rate and its Wilson interval, as grade does.
func finish(c grade.Counts) grade.Counts {
	c.Graded = c.Passed + c.Failed
	c.Rate = 0
	if c.Graded > 0 {
		c.Rate = float64(c.Passed) / float64(c.Graded)
	}
	c.WilsonLow, c.WilsonHigh = stats.Wilson(c.Passed, c.Graded)
	return c
}
