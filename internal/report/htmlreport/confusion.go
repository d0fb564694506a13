package htmlreport

import (
	"fmt"
	"slices"

	"github.com/mcpeval/mcpeval/grade"
)

// ConfusionView is a run's tool confusion as the page draws it: the top
// confusions with the two tools' descriptions side by side, and two heat
// maps (rows the tool wanted, columns the tool called), each cell's count
// linking to the list of its attempts: Calls of every key call, First of
// every attempt's first call.
type ConfusionView struct {
	// Surface and Overlay name what the model was shown, when set.
	Surface, Overlay string
	// KeyCalls counts the key calls Calls holds, Attempts the attempts
	// read.
	KeyCalls, Attempts int
	Top                []ConfusionTop
	Calls, First       ConfusionMap
}

// ConfusionMap is one heat map.
type ConfusionMap struct {
	// ID is the map's id on the page, its prefix and "-map".
	ID string
	// Called are the columns; "" is the column of no call.
	Called []string
	Rows   []ConfusionRow
	// Lists are the attempts of every cell off the diagonal with a count
	// (a confusion), in map order.
	Lists []ConfusionList
}

// ConfusionTop is one of the most frequent confusions.
type ConfusionTop struct {
	Wanted, Called         string
	WantedDesc, CalledDesc string
	Count, Of              int
	// List is the id of the cell's list of attempts.
	List string
}

// ConfusionRow is one row of the heat map: a tool the key wanted.
type ConfusionRow struct {
	Wanted string
	Cells  []ConfusionMapCell
}

// ConfusionMapCell is one cell of the heat map.
type ConfusionMapCell struct {
	Count int
	// Level is the cell's colour intensity, 0 for no count, else 1 to 5
	// by its share of its row's key calls (a class, not a style: the
	// viewer's content security policy allows no inline style).
	Level int
	// Diagonal is set where the tool called is the one wanted.
	Diagonal bool
	// List is the id of the cell's list of attempts; empty for a cell
	// with no count.
	List  string
	Title string
}

// ConfusionList is the attempts of one cell, each with a link where the
// page has one.
type ConfusionList struct {
	ID, Wanted, Called string
	Attempts           []ConfusionLink
	// More counts the attempts beyond grade.MaxCellAttempts, not named.
	More int
}

// ConfusionLink is one attempt of a cell.
type ConfusionLink struct {
	Text, URL string
}

// NewConfusionView lays out confusion c (of grade.Result) for a page;
// link returns an attempt's address, or "" to name it without a link (a
// nil link names them all so). It returns nil for a nil c.
func NewConfusionView(c *grade.Confusion, link func(grade.AttemptRef) string) *ConfusionView {
	if c == nil {
		return nil
	}
	v := &ConfusionView{Surface: c.Surface, Overlay: c.Overlay, Attempts: c.Attempts}
	for _, cell := range c.Calls {
		v.KeyCalls += cell.Count
	}
	var ids map[[2]string]string
	v.Calls, ids = heatMap(c.Calls, "confusion", "key calls of", link)
	v.First, _ = heatMap(c.First, "confusion-first", "attempts whose key calls first", link)
	for _, cell := range c.Top(5) {
		v.Top = append(v.Top, ConfusionTop{Wanted: cell.Wanted, Called: cell.Called, Count: cell.Count, Of: grade.Total(c.Calls, cell.Wanted),
			WantedDesc: describe(c, cell.Wanted), CalledDesc: describe(c, cell.Called), List: ids[[2]string{cell.Wanted, cell.Called}]})
	}
	return v
}

// heatMap lays out cells as a map whose lists' ids start with prefix; of
// says what a row counts, for a cell's title. It returns the map and each
// cell's list id.
func heatMap(cells []grade.ConfusionCell, prefix, of string, link func(grade.AttemptRef) string) (ConfusionMap, map[[2]string]string) {
	m := ConfusionMap{ID: prefix + "-map"}
	var wanted []string
	byPair := map[[2]string]grade.ConfusionCell{}
	for _, cell := range cells {
		byPair[[2]string{cell.Wanted, cell.Called}] = cell
		if !slices.Contains(wanted, cell.Wanted) {
			wanted = append(wanted, cell.Wanted)
		}
		if !slices.Contains(m.Called, cell.Called) {
			m.Called = append(m.Called, cell.Called)
		}
	}
	slices.Sort(wanted)
	slices.SortFunc(m.Called, func(a, b string) int { // no call last
		switch {
		case a == b:
			return 0
		case a == "":
			return 1
		case b == "":
			return -1
		case a < b:
			return -1
		}
		return 1
	})
	ids := map[[2]string]string{}
	for i, w := range wanted {
		row := ConfusionRow{Wanted: w}
		total := grade.Total(cells, w)
		for j, called := range m.Called {
			cell, ok := byPair[[2]string{w, called}]
			mc := ConfusionMapCell{Diagonal: called == w}
			if ok {
				mc.Count = cell.Count
				mc.Level = min(5, 1+cell.Count*5/max(total, 1))
				mc.Title = fmt.Sprintf("%d of %d %s %s: %s", cell.Count, total, of, w, calledName(called))
			}
			// Only a confusion lists its attempts: the calls made as the
			// key wanted are most of a run, and listing them made a page
			// grow with the run (a run page of 19,000 attempts was 318 KB).
			if ok && !mc.Diagonal {
				mc.List = fmt.Sprintf("%s-%d-%d", prefix, i, j)
				ids[[2]string{w, called}] = mc.List
				l := ConfusionList{ID: mc.List, Wanted: w, Called: calledName(called), More: cell.More}
				for _, a := range cell.Attempts {
					url := ""
					if link != nil {
						url = link(a)
					}
					l.Attempts = append(l.Attempts, ConfusionLink{Text: fmt.Sprintf("%s #%d", a.Case, a.N), URL: url})
				}
				m.Lists = append(m.Lists, l)
			}
			row.Cells = append(row.Cells, mc)
		}
		m.Rows = append(m.Rows, row)
	}
	return m, ids
}

// calledName names a column: the tool, or that nothing was called.
func calledName(tool string) string {
	if tool == "" {
		return "(no call)"
	}
	return tool
}

// describe returns a tool's recorded description, or says it has none.
func describe(c *grade.Confusion, tool string) string {
	if d, ok := c.Tools[tool]; ok && d != "" {
		return d
	}
	return "(no description)"
}
