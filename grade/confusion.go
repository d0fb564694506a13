package grade

import (
	"cmp"
	"slices"

	"github.com/mcpeval/mcpeval/grade/actions"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// Confusion says which tool the model called where a case's key wanted
// another: two tables of cells, each a pair of tools (wanted, called)
// with the attempts that made it.
//
// Only attempts that did not end in an error, of cases whose key names
// tools, are read: a case's key calls (key.calls), or for an action case
// its steps' tools. A run on a mapped surface is read as on the canonical
// surface (actions.OnCanonical), so wanted and called tools are the
// key's names whatever the surface.
//
// A call, here, is any tool call recorded in the attempt, over all its
// turns and in order, whatever came of it: a call the tool refused
// (isError), one the server rejected, one of a tool the model was not
// shown and a read of the server's resources all count. Arguments are
// not looked at.
type Confusion struct {
	// Surface and Overlay name the run's surface and description overlay
	// (its path), when it had them: a confusion is a property of what the
	// model was shown.
	Surface string `json:"surface,omitempty"`
	Overlay string `json:"overlay,omitempty"`
	// Attempts counts the attempts read.
	Attempts int `json:"attempts"`
	// First pairs, for every attempt read, the tool the key calls first
	// with the tool the model called first ("" when it called none).
	First []ConfusionCell `json:"first"`
	// Calls pairs every key call with what the model did about it. The
	// k-th key call of a tool is made when the attempt has at least k
	// calls of that tool: its cell is (tool, tool). Otherwise it is
	// missed: the missed key calls, in key order, are paired with the
	// attempt's unexpected calls (calls of tools the key never names), in
	// call order, the i-th missed with the i-th unexpected; a missed call
	// left without one is paired with "" (the model called nothing
	// instead).
	Calls []ConfusionCell `json:"calls"`
	// Tools are the descriptions of the tools the cells name, as the
	// model was shown them (the record's tool listing); a tool the
	// listing lacks is absent.
	Tools map[string]string `json:"tools,omitempty"`
}

// ConfusionCell is one pair of tools: the tool the key wanted and the one
// the model called ("" for none), how often, and in which attempts.
type ConfusionCell struct {
	Wanted string `json:"wanted"`
	Called string `json:"called"`
	Count  int    `json:"count"`
	// Attempts are the attempts that made the pair, each once, in suite
	// order then by number: the first MaxCellAttempts of them, so that a
	// run of any size keeps a bounded list; More counts the attempts
	// beyond.
	Attempts []AttemptRef `json:"attempts"`
	More     int          `json:"more,omitempty"`
}

// MaxCellAttempts is how many attempts a confusion cell names at most.
const MaxCellAttempts = 100

// AttemptRef names one attempt: its case and its number within the case.
type AttemptRef struct {
	Case string `json:"case"`
	N    int    `json:"n"`
}

// Confused reports whether the model called another tool than the one
// wanted (not nothing, not the tool itself).
func (c ConfusionCell) Confused() bool { return c.Called != "" && c.Called != c.Wanted }

// Top returns up to n of the cells of Calls whose model called another
// tool, the most frequent first; n <= 0 returns them all.
func (c *Confusion) Top(n int) []ConfusionCell {
	if c == nil {
		return nil
	}
	var out []ConfusionCell
	for _, cell := range c.Calls {
		if cell.Confused() {
			out = append(out, cell)
		}
	}
	if n > 0 && len(out) > n {
		out = out[:n]
	}
	return out
}

// Total returns the key calls of the tool wanted that the table cells
// count, whatever the model called.
func Total(cells []ConfusionCell, wanted string) int {
	n := 0
	for _, c := range cells {
		if c.Wanted == wanted {
			n += c.Count
		}
	}
	return n
}

// ConfusionOf returns the tool confusion of run r against suite s: a pure
// function of the two, as grading is.
func ConfusionOf(s *suite.Suite, r *record.Run) *Confusion {
	b := newConfusionBuilder(s, &r.Header)
	for i := range r.Attempts {
		b.add(&r.Attempts[i])
	}
	return b.result()
}

// confusionBuilder adds up a run's confusion attempt by attempt.
type confusionBuilder struct {
	s     *suite.Suite
	h     *record.Header
	n     int
	first map[[2]string]*cellTally
	calls map[[2]string]*cellTally
	order map[string]int // case ids by suite position
}

func newConfusionBuilder(s *suite.Suite, h *record.Header) *confusionBuilder {
	b := &confusionBuilder{s: s, h: h, first: map[[2]string]*cellTally{}, calls: map[[2]string]*cellTally{}, order: map[string]int{}}
	for i, c := range s.Cases {
		b.order[c.ID] = i
	}
	return b
}

// keyTools returns the tools case c's key calls, in order.
func keyTools(c *suite.Case) []string {
	var ts []string
	if c.Action != nil {
		for _, st := range c.Action.Steps {
			ts = append(ts, st.Tool)
		}
		return ts
	}
	for _, k := range c.Key.Calls {
		ts = append(ts, k.Tool)
	}
	return ts
}

// add reads attempt a.
func (b *confusionBuilder) add(a *record.Attempt) {
	c := b.s.Case(a.Case)
	if c == nil || a.End == record.EndError {
		return
	}
	h, ca := actions.OnCanonical(b.h, a)
	c = actions.ServedCase(c, h)
	want := keyTools(c)
	if len(want) == 0 {
		return
	}
	b.n++
	var called []string
	for _, call := range ca.Calls() {
		called = append(called, call.Name)
	}
	key := AttemptRef{c.ID, a.N} // the suite's copy of the id, shared by every cell
	first := ""
	if len(called) > 0 {
		first = called[0]
	}
	b.put(b.first, want[0], first, key)
	for _, p := range pairCalls(want, called) {
		b.put(b.calls, p[0], p[1], key)
	}
}

// pairCalls pairs each wanted call with the tool called for it, as
// Confusion.Calls says.
func pairCalls(want, called []string) [][2]string {
	inKey := map[string]bool{}
	for _, w := range want {
		inKey[w] = true
	}
	left := map[string]int{} // calls of each key tool not yet matched
	var unexpected []string
	for _, c := range called {
		if inKey[c] {
			left[c]++
		} else {
			unexpected = append(unexpected, c)
		}
	}
	out := make([][2]string, 0, len(want))
	for _, w := range want {
		if left[w] > 0 {
			left[w]--
			out = append(out, [2]string{w, w})
			continue
		}
		instead := ""
		if len(unexpected) > 0 {
			instead, unexpected = unexpected[0], unexpected[1:]
		}
		out = append(out, [2]string{w, instead})
	}
	return out
}

// cellTally is a cell being counted, with the attempt it last counted.
type cellTally struct {
	ConfusionCell
	last AttemptRef
}

// put counts the pair (wanted, called) for attempt key in cells.
func (b *confusionBuilder) put(cells map[[2]string]*cellTally, wanted, called string, key AttemptRef) {
	k := [2]string{wanted, called}
	c := cells[k]
	if c == nil {
		c = &cellTally{ConfusionCell: ConfusionCell{Wanted: wanted, Called: called}}
		cells[k] = c
	}
	c.Count++
	if c.last == key {
		return // the attempt is named already
	}
	c.last = key
	c.Attempts = append(c.Attempts, key)
	if len(c.Attempts) > 2*MaxCellAttempts {
		b.trim(c)
	}
}

// trim keeps the first MaxCellAttempts of c's attempts in suite order and
// counts the rest in More: the same ones whatever order the attempts were
// read in (a merged run's record, say).
func (b *confusionBuilder) trim(c *cellTally) {
	slices.SortFunc(c.Attempts, func(x, y AttemptRef) int {
		return cmp.Or(cmp.Compare(b.order[x.Case], b.order[y.Case]), cmp.Compare(x.N, y.N))
	})
	if n := len(c.Attempts); n > MaxCellAttempts {
		c.More += n - MaxCellAttempts
		c.Attempts = slices.Clip(c.Attempts[:MaxCellAttempts])
	}
}

// result returns the confusion of the attempts read; nil when none was.
func (b *confusionBuilder) result() *Confusion {
	if b.n == 0 {
		return nil
	}
	c := &Confusion{Attempts: b.n, First: b.sorted(b.first), Calls: b.sorted(b.calls)}
	if b.h.Surface != nil {
		c.Surface = b.h.Surface.Name
	}
	if b.h.Overlay != nil {
		c.Overlay = b.h.Overlay.Path
	}
	h, _ := actions.OnCanonical(b.h, &record.Attempt{})
	named := map[string]bool{}
	for _, cell := range append(c.First, c.Calls...) {
		named[cell.Wanted], named[cell.Called] = true, true
	}
	for _, t := range h.Tools {
		if named[t.Name] {
			if c.Tools == nil {
				c.Tools = map[string]string{}
			}
			c.Tools[t.Name] = t.Description
		}
	}
	return c
}

// sorted returns cells the most frequent first, then by tool names, each
// with its attempts in suite order.
func (b *confusionBuilder) sorted(cells map[[2]string]*cellTally) []ConfusionCell {
	out := make([]ConfusionCell, 0, len(cells))
	for _, ct := range cells {
		b.trim(ct)
		out = append(out, ct.ConfusionCell)
	}
	slices.SortFunc(out, func(x, y ConfusionCell) int {
		return cmp.Or(cmp.Compare(y.Count, x.Count), cmp.Compare(x.Wanted, y.Wanted), cmp.Compare(x.Called, y.Called))
	})
	return out
}
