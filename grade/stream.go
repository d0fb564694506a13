package grade

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/mcpeval/mcpeval/grade/actions"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/stats"
	"github.com/mcpeval/mcpeval/suite"
)

// Grader grades a run attempt by attempt, for a record read as a stream
// (record.Open): it keeps each attempt's verdict and reasons, never the
// attempt, so a run of any size is graded in memory proportional to its
// verdicts. Fed a record's attempts in order, its Result is Run's.
type Grader struct {
	s      *suite.Suite
	run    *record.Run
	n      int
	graded []AttemptGrade // the verdicts, in the order added
	// index is each case's place in the suite, the order of Result.
	index    map[string]int
	missing  map[string]int
	order    []string // the missing cases, in the order first seen
	actions  *actions.Aggregator
	reads    ResourceReads
	searches Searches // on a search surface (search.go)
	confuse  *confusionBuilder
	// fixtureless counts the attempts of action cases in imported traffic,
	// by case, in the order first seen: their columns need the fixtures
	// and the server's state a run records, which imported traffic has
	// not, so they are not graded.
	fixtureless map[string]int
	fixOrder    []string
	// counted, set by NewCounter, holds each case's counts in place of
	// its verdicts.
	counted map[string]*tally
}

// tally is one case's verdicts added up: their counts, and its errors by
// kind.
type tally struct {
	Counts
	kinds map[string]int
}

// NotGradedImported is the reason an imported run's action cases are not
// graded.
const NotGradedImported = "not graded: imported traffic has no fixtures"

// NewGrader starts grading run r against suite s as it is now. Only r's
// Dir, Header, End and Warnings are read; its attempts, if any, are not:
// hand them to Add.
func NewGrader(s *suite.Suite, r *record.Run) *Grader { return newGrader(s, r, false) }

// newGrader is NewGrader, or NewCounter when counting: a counting grader
// keeps no verdict, so it makes no room for them.
func newGrader(s *suite.Suite, r *record.Run, counting bool) *Grader {
	g := &Grader{s: s, run: r, index: map[string]int{}, missing: map[string]int{}}
	if counting {
		g.counted = map[string]*tally{}
	} else if r.Header.Preflight.Valid {
		// A verdict per planned attempt, room made once: a slice grown
		// by appending leaves its smaller copies behind, as large again.
		g.graded = make([]AttemptGrade, 0, len(r.Header.Planned))
	}
	for i, c := range s.Cases {
		if _, ok := g.index[c.ID]; !ok {
			g.index[c.ID] = i
		}
	}
	if r.Header.Preflight.Valid && hasActions(s) && !r.Header.Imported() {
		g.actions = actions.NewAggregator(s)
		g.actions.Run(&r.Header)
	}
	g.confuse = newConfusionBuilder(s, &r.Header)
	return g
}

// NewCounter is NewGrader for a caller that needs the counts only (the
// cases', groups' and totals', the action columns, the tool confusions):
// its Add keeps no verdict but adds each to its case's counts, so that a
// run of any size is graded in memory that does not grow with its
// attempts. Its Result is Run's without the attempts (Attempts is empty).
func NewCounter(s *suite.Suite, r *record.Run) *Grader { return newGrader(s, r, true) }

// Add grades attempt a. The attempt is not kept.
func (g *Grader) Add(a *record.Attempt) {
	g.n++
	h := &g.run.Header
	if !h.Preflight.Valid {
		return
	}
	c := g.s.Case(a.Case)
	if c == nil {
		if g.actions != nil {
			g.actions.Add(h, actions.Result{Case: a.Case, N: a.N})
		}
		if g.missing[a.Case] == 0 {
			g.order = append(g.order, a.Case)
		}
		g.missing[a.Case]++
		return
	}
	if c.Action != nil && h.Imported() {
		if g.fixtureless == nil {
			g.fixtureless = map[string]int{}
		}
		if g.fixtureless[c.ID] == 0 {
			g.fixOrder = append(g.fixOrder, c.ID)
		}
		g.fixtureless[c.ID]++
		return
	}
	g.countReads(a)
	if s := h.Surface; s != nil && s.Kind == suite.SurfaceSearch {
		g.searches.count(a)
	}
	g.confuse.add(a)
	ag, res := verdict(g.s, c, h, a)
	if res != nil && g.actions != nil {
		g.actions.Add(h, *res)
	}
	ag.Case = c.ID // one copy of the id for all of the case's attempts
	if c.JudgedOnly() {
		ag = judgedAttempt(ag)
	}
	if g.counted != nil {
		t := g.counted[c.ID]
		if t == nil {
			t = &tally{}
			g.counted[c.ID] = t
		}
		t.add(ag)
		if ag.Outcome == Error {
			if t.kinds == nil {
				t.kinds = map[string]int{}
			}
			t.kinds[ag.ErrorKind]++
		}
		return
	}
	g.graded = append(g.graded, ag)
}

// Result adds up the attempts added so far. A run whose preflight failed
// is not graded; attempts of cases the suite does not have are reported in
// Warnings, not graded.
//
// The verdicts are handed over to the Result, sorted where they are, not
// copied: Result is called once, after the last Add.
func (g *Grader) Result() *Result {
	r, s := g.run, g.s
	h := &r.Header
	res := &Result{RunID: h.RunID, Model: modelName(h), Valid: h.Preflight.Valid, Attempts: []AttemptGrade{}, Cases: []CaseStats{}, Groups: []GroupStats{}}
	res.Totals.WilsonLow, res.Totals.WilsonHigh = 0, 1
	res.Warnings = append(res.Warnings, r.Warnings...)
	res.Warnings = append(res.Warnings, sliceWarnings(h)...)
	res.Unverified = s.UnverifiedIDs()
	if !res.Valid {
		res.Invalid = invalidReason(h.Preflight)
		return res
	}
	if h.Suite.Hash != "" && s.Hash != "" && h.Suite.Hash != s.Hash {
		res.Warnings = append(res.Warnings, fmt.Sprintf("the suite has changed since the run (hash %s then, %s now): graded against the suite as it is now", short(h.Suite.Hash), short(s.Hash)))
	}
	if r.End == nil {
		res.Warnings = append(res.Warnings, fmt.Sprintf("the run did not finish: %d of %d planned attempts recorded", g.n, len(h.Planned)))
	} else if !r.End.Complete {
		why := r.End.Reason
		if why == "" {
			why = "incomplete"
		}
		res.Warnings = append(res.Warnings, fmt.Sprintf("the run stopped early (%s): %d of %d planned attempts recorded", why, g.n, len(h.Planned)))
	}
	for _, id := range g.fixOrder {
		res.Warnings = append(res.Warnings, fmt.Sprintf("case %s: %d attempt%s of an action case %s (its action columns need them)", id, g.fixtureless[id], plural(g.fixtureless[id]), NotGradedImported))
	}
	for _, id := range g.order {
		res.Warnings = append(res.Warnings, fmt.Sprintf("case %s: %d attempt%s recorded, but the suite has no such case: not graded", id, g.missing[id], plural(g.missing[id])))
	}

	g.sort()
	res.Attempts = g.graded[:len(g.graded):len(g.graded)]
	if res.Attempts == nil {
		res.Attempts = []AttemptGrade{}
	}
	g.graded = nil
	groups := map[string]*GroupStats{}
	var groupOrder []string
	rest := res.Attempts
	for i, c := range s.Cases {
		if g.index[c.ID] != i {
			continue // a second case of the same id: its attempts are the first's
		}
		k := 0
		for k < len(rest) && rest[k].Case == c.ID {
			k++
		}
		as, t := rest[:k], g.counted[c.ID]
		rest = rest[k:]
		if len(as) == 0 && t == nil {
			continue
		}
		cs := CaseStats{ID: c.ID, Group: c.Group, Prompt: c.Prompt, Judged: c.JudgedOnly()}
		gs := groups[c.Group]
		if gs == nil && !c.JudgedOnly() {
			gs = &GroupStats{Name: c.Group}
			groups[c.Group] = gs
			groupOrder = append(groupOrder, c.Group)
		}
		for _, ag := range as {
			cs.add(ag)
			if c.JudgedOnly() {
				if res.Judged == nil {
					res.Judged = &Counts{}
				}
				res.Judged.add(ag)
				continue
			}
			gs.add(ag)
			res.Totals.add(ag)
			if ag.Outcome == Error {
				if res.Totals.ErrorKinds == nil {
					res.Totals.ErrorKinds = map[string]int{}
				}
				res.Totals.ErrorKinds[ag.ErrorKind]++
			}
		}
		if t != nil {
			g.addTally(res, &cs, gs, c.JudgedOnly(), t)
		}
		cs.finish()
		cs.K = min(cs.Graded, s.AttemptsFor(c))
		cs.PassAtK = stats.PassAtK(cs.Graded, cs.Passed, cs.K)
		cs.PassHatK = stats.PassHatK(cs.Graded, cs.Passed, cs.K)
		cs.Inconsistent = cs.Passed > 0 && cs.Failed > 0
		res.Cases = append(res.Cases, cs)
	}
	for _, name := range groupOrder {
		gs := groups[name]
		gs.finish()
		res.Groups = append(res.Groups, *gs)
	}
	res.Totals.finish()
	if res.Judged != nil {
		res.Judged.finish()
	}
	if g.actions != nil {
		res.Actions = g.actions.Report()
	}
	if g.reads.Reads > 0 {
		rr := g.reads
		res.ResourceReads = &rr
	}
	if s := g.run.Header.Surface; s != nil && s.Kind == suite.SurfaceSearch {
		ss := g.searches
		res.Searches = &ss
	}
	res.Confusion = g.confuse.result()
	return res
}

// addTally adds case counts t to its case's stats cs and, unless the case
// is graded by its judge, to its group's gs and the totals, as Result adds
// each verdict.
func (g *Grader) addTally(res *Result, cs *CaseStats, gs *GroupStats, judged bool, t *tally) {
	cs.merge(t.Counts)
	if judged {
		if res.Judged == nil {
			res.Judged = &Counts{}
		}
		res.Judged.merge(t.Counts)
		return
	}
	gs.merge(t.Counts)
	res.Totals.merge(t.Counts)
	for k, n := range t.kinds {
		if res.Totals.ErrorKinds == nil {
			res.Totals.ErrorKinds = map[string]int{}
		}
		res.Totals.ErrorKinds[k] += n
	}
}

// merge adds the outcomes o counted to c's, as add adds one verdict's.
func (c *Counts) merge(o Counts) {
	c.ToolErrors += o.ToolErrors
	c.Passed += o.Passed
	c.Failed += o.Failed
	c.Errors += o.Errors
}

// sort puts the verdicts in the order of Result: the cases in suite
// order, each case's attempts by number, attempts of the same number in
// the order added. They are moved in place, each once, after a stable
// sort of their positions.
func (g *Grader) sort() {
	as := g.graded
	perm := make([]int32, len(as))
	for i := range perm {
		perm[i] = int32(i)
	}
	slices.SortStableFunc(perm, func(i, j int32) int {
		a, b := &as[i], &as[j]
		if c := cmp.Compare(g.index[a.Case], g.index[b.Case]); c != 0 {
			return c
		}
		return cmp.Compare(a.N, b.N)
	})
	// Position i takes the verdict at perm[i]: follow each cycle of the
	// permutation once, marking the positions done.
	for i := range perm {
		if perm[i] < 0 || int(perm[i]) == i {
			continue
		}
		held := as[i]
		j := i
		for {
			from := int(perm[j])
			perm[j] = -1
			if from == i {
				as[j] = held
				break
			}
			as[j] = as[from]
			j = from
		}
	}
}

// countReads counts attempt a's reads of the server's resources.
func (g *Grader) countReads(a *record.Attempt) {
	n := 0
	for _, c := range a.Calls() {
		if c.Kind == record.CallResource {
			n++
		}
	}
	if n > 0 {
		g.reads.Reads += n
		g.reads.Attempts++
	}
}
