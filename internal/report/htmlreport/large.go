package htmlreport

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"strings"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/usage"
	"github.com/mcpeval/mcpeval/record"
)

// SmallRun is the most attempts a run page shows whole, every transcript
// inline. The page of a larger run shows its failing and errored attempts
// by case with their transcripts, ShownPerCase of each case at most, and
// summarises its passes as counts per case: a run of 57,000 attempts
// still gives a page a browser opens.
const SmallRun = 500

// ShownPerCase is how many failing or errored attempts of each case the
// page of a large run shows with their transcripts; the others are listed
// by number.
const ShownPerCase = 20

// source is where a run page finds what the grades do not hold: how many
// attempts were recorded, their cost, and the attempts it shows.
type source struct {
	recorded int
	cost     *usage.Cost
	attempts map[record.AttemptKey]*record.Attempt
}

// sourceOf is where the page of p finds its attempts: p.Run when it holds
// them, else the record in p.Run.Dir, read as a stream. A run with no
// attempts and no record on disk (a page made in memory) has none.
func sourceOf(p *RunPage) (*source, error) {
	if len(p.Run.Attempts) > 0 || p.Run.Dir == "" {
		return wholeSource(p), nil
	}
	src, err := streamSource(p, p.Run.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return wholeSource(p), nil
	}
	return src, err
}

// wholeSource is the source of a run held whole (p.Run.Attempts).
func wholeSource(p *RunPage) *source {
	src := &source{recorded: len(p.Run.Attempts), attempts: make(map[record.AttemptKey]*record.Attempt, len(p.Run.Attempts))}
	for i := range p.Run.Attempts {
		a := &p.Run.Attempts[i]
		src.attempts[a.Key()] = a
	}
	src.cost = usage.NewCost(p.Run, p.Result.Totals.Passed, p.Prices)
	return src
}

// streamSource is the source of a run read as a stream, whose record is
// in dir: one pass over it prices the run and keeps the attempts shown
// (for a large run, only those paging keeps).
func streamSource(p *RunPage, dir string) (*source, error) { return streamSourceWith(p, dir, nil) }

// streamSourceWith is streamSource handing each attempt kept to redact,
// when it is not nil, before it is kept.
func streamSourceWith(p *RunPage, dir string, redact func(*record.Attempt) error) (*source, error) {
	rd, err := record.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("reading transcripts for the run page: %w", err)
	}
	defer rd.Close()
	show := func(record.AttemptKey) bool { return true }
	if rd.Len() >= SmallRun {
		pg := page(p.Result)
		show = func(k record.AttemptKey) bool { return pg.shown[k] }
	}
	src := &source{recorded: rd.Len(), attempts: map[record.AttemptKey]*record.Attempt{}}
	t := usage.NewTally(&p.Run.Header, p.Prices)
	err = rd.Each(func(a *record.Attempt) error {
		t.Add(a)
		if show(a.Key()) {
			if redact != nil {
				if err := redact(a); err != nil {
					return err
				}
			}
			src.attempts[a.Key()] = a
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading transcripts for the run page: %w", err)
	}
	src.cost = t.Cost(p.Result.Totals.Passed)
	return src, nil
}

// RunRedacted writes the run page as Run does for a run held without its
// attempts, whose record is in p.Run.Dir: each attempt the page shows is
// read from the record and handed to redact, which may change it, before
// it is drawn. Publishing redacts a large run's transcripts so, holding
// only those shown.
func RunRedacted(w io.Writer, p *RunPage, redact func(*record.Attempt) error) error {
	src, err := streamSourceWith(p, p.Run.Dir, redact)
	if err != nil {
		return err
	}
	return writeRun(w, runViewFrom(p, src))
}

// NewRunSummary lays out the run page p for a run held without its
// attempts (read as a stream: record.Open), which recorded attempts and
// cost cost; its Attempts hold no transcripts, and for a large run only
// those its page would show. For a page drawing the summary and reading
// attempts on demand, such as mcpeval view's.
func NewRunSummary(p *RunPage, recorded int, cost *usage.Cost) *RunView {
	return runViewFrom(p, &source{recorded: recorded, cost: cost})
}

// paging is how the page of a large run is cut: the attempts it shows,
// and per case what it summarises.
type paging struct {
	shown map[record.AttemptKey]bool
	cases []PagedCase
}

// PagedCase is one case of a large run's page: its passes counted, its
// failing and errored attempts beyond ShownPerCase listed by number.
type PagedCase struct {
	Case, Group string
	Passed      int
	// Unshown are the failing and errored attempts not shown, by number
	// ("#31, #32, ..."); empty when every one is shown.
	Unshown string
}

// page cuts a large run's page: for each case, in the grades' order (suite
// order, then by number), the first ShownPerCase failing or errored
// attempts are shown, and the passes counted.
func page(res *grade.Result) *paging {
	pg := &paging{shown: map[record.AttemptKey]bool{}}
	groupOf := map[string]string{}
	for _, c := range res.Cases {
		groupOf[c.ID] = c.Group
	}
	var cur *PagedCase
	var unshown []string
	flush := func() {
		if cur != nil {
			cur.Unshown = strings.Join(unshown, ", ")
			pg.cases = append(pg.cases, *cur)
		}
		unshown = nil
	}
	shownHere := 0
	for _, g := range res.Attempts {
		if cur == nil || cur.Case != g.Case {
			flush()
			cur = &PagedCase{Case: g.Case, Group: groupOf[g.Case]}
			shownHere = 0
		}
		switch {
		case g.Outcome == grade.Pass:
			cur.Passed++
		case shownHere < ShownPerCase:
			pg.shown[record.AttemptKey{Case: g.Case, N: g.N}] = true
			shownHere++
		default:
			unshown = append(unshown, "#"+strconv.Itoa(g.N))
		}
	}
	flush()
	return pg
}
