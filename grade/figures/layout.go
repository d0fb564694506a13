package figures

import (
	"encoding/json"
	"sort"
	"strings"
	"unicode"

	"github.com/mcpeval/mcpeval/internal/lazyregexp"
)

// The shape of a text says what its commas mean before any number is read:
// in JSON and in a CSV row a comma separates values ("[845,250]" is two
// numbers), where in prose "845,250" is one. Tables (Markdown, and CSV or
// TSV under a header line) also give their columns a kind: a header
// "revenue_eur" makes its column money in euros.

// grid is a table laid out in text: a Markdown table, or CSV or TSV rows
// under a header line.
type grid struct {
	header []cell
	rows   []row
}

// row is one line of a grid and its cells.
type row struct {
	line  span
	cells []cell
}

// cell is one cell of a row, by byte offsets.
type cell struct{ start, end int }

type span struct{ start, end int }

// layout reads the tables and the JSON of x.s: it sets x.grids, and
// x.seps to the commas that separate values.
func (x *extractor) layout() {
	lines := lineSpans(x.s)
	x.grids = tableGrids(x.s, lines)
	for _, g := range x.grids {
		x.markRowSeps(g)
	}
	x.markJSONSeps()
}

// markSep records that the comma at i separates two values.
func (x *extractor) markSep(i int) {
	if x.seps == nil {
		x.seps = make([]bool, len(x.s))
	}
	x.seps[i] = true
}

// isRaw reports whether the byte at i is JSON outside a string: a number
// there is written as JSON writes numbers.
func (x *extractor) isRaw(i int) bool { return x.raw != nil && i < len(x.raw) && x.raw[i] }

// isSep reports whether the character at i separates values.
func (x *extractor) isSep(i int) bool { return x.seps != nil && i < len(x.seps) && x.seps[i] }

// markRowSeps records the commas between the cells of a CSV grid's rows.
func (x *extractor) markRowSeps(g grid) {
	for _, r := range g.rows {
		for _, c := range r.cells[:max(0, len(r.cells)-1)] {
			if c.end < len(x.s) && x.s[c.end] == ',' {
				x.markSep(c.end)
			}
		}
	}
}

var reTableRule = lazyregexp.New(`^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$`)

// tableGrids finds the tables of s: Markdown tables (a header line and a
// rule line of dashes), then CSV and TSV rows under a header line.
func tableGrids(s string, lines []span) []grid {
	var out []grid
	for li := 0; li+1 < len(lines); li++ {
		if g, n := markdownGrid(s, lines[li:]); n > 0 {
			out = append(out, g)
			li += n - 1
			continue
		}
		for _, d := range []byte{',', '\t'} {
			if g, n := delimitedGrid(s, lines[li:], d); n > 0 {
				if len(g.rows) > 0 {
					out = append(out, g)
				}
				li += n - 1 // the lines under a header are not headers
				break
			}
		}
	}
	return out
}

// markdownGrid reads a Markdown table at the first of lines and returns it
// and how many lines it takes, or 0 when there is none.
func markdownGrid(s string, lines []span) (grid, int) {
	head := s[lines[0].start:lines[0].end]
	if !strings.Contains(head, "|") || !reTableRule.MatchString(s[lines[1].start:lines[1].end]) {
		return grid{}, 0
	}
	g := grid{header: splitRow(s, lines[0])}
	n := 2
	for ; n < len(lines) && strings.Contains(s[lines[n].start:lines[n].end], "|"); n++ {
		g.rows = append(g.rows, row{lines[n], splitRow(s, lines[n])})
	}
	return g, n
}

// delimitedGrid reads CSV (d is ',') or TSV (d is '\t') rows under a header
// at the first of lines and returns the grid and how many lines it takes,
// or 0 when there is no header. The grid holds the rows with as many cells
// as the header, each cell that has a digit is a value ("845", "EUR25350",
// "2026-09", a quoted "1,234"), not prose; other rows are left out. The
// grid ends at a line without d.
func delimitedGrid(s string, lines []span, d byte) (grid, int) {
	if !strings.Contains(s[lines[0].start:lines[0].end], string(d)) {
		return grid{}, 0
	}
	head := splitDelimited(s, lines[0], d)
	if !isHeader(s, lines[0], head) {
		return grid{}, 0
	}
	g := grid{header: head}
	n := 1
	for ; n < len(lines); n++ {
		cells := splitDelimited(s, lines[n], d)
		if len(cells) < 2 {
			break
		}
		if len(cells) == len(head) && (d == '\t' || valueCells(s, cells)) {
			g.rows = append(g.rows, row{lines[n], cells})
		}
	}
	return g, n
}

// splitDelimited splits a line at d, except inside double quotes.
func splitDelimited(s string, l span, d byte) []cell {
	cells := make([]cell, 0, strings.Count(s[l.start:l.end], string(d))+1)
	start, quoted := l.start, false
	for i := l.start; i < l.end; i++ {
		switch s[i] {
		case '"':
			quoted = !quoted
		case d:
			if !quoted {
				cells = append(cells, cell{start, i})
				start = i + 1
			}
		}
	}
	return append(cells, cell{start, l.end})
}

// isHeader reports whether cells are a header line: at least two labels,
// each naming its column with a letter (or a year: "2025,2026"), and not
// a sentence.
func isHeader(s string, l span, cells []cell) bool {
	line := strings.TrimSpace(s[l.start:l.end])
	if len(cells) < 2 || line == "" || strings.Contains(line, ". ") || strings.ContainsAny(line[len(line)-1:], ".:?!") {
		return false
	}
	for _, c := range cells {
		h := strings.Trim(strings.TrimSpace(s[c.start:c.end]), `"`)
		if h == "" || len(h) > 40 || !hasLetter(h) && !(len(h) == 4 && countDigits(h) == 4) {
			return false
		}
	}
	return true
}

// valueCells reports whether every cell that holds a digit holds a value:
// quoted, or with no blank inside it. "You have 1" is prose, not a cell.
func valueCells(s string, cells []cell) bool {
	for _, c := range cells {
		v := strings.TrimSpace(s[c.start:c.end])
		if strings.HasPrefix(v, `"`) || countDigits(v) == 0 {
			continue
		}
		if strings.ContainsAny(v, " \t\u00a0") {
			return false
		}
	}
	return true
}

func hasLetter(s string) bool { return strings.IndexFunc(s, unicode.IsLetter) >= 0 }

// markJSONSeps finds the JSON arrays and objects in s ("[845,250]",
// `{"units": 845}`, a whole tool result) and records their commas,
// outside strings, as separators.
func (x *extractor) markJSONSeps() {
	s := x.s
	if !strings.ContainsAny(s, "[{") {
		return
	}
	budget := 8*len(s) + 1024 // bounds the validation of nested candidates
	done := 0
	for _, r := range bracketPairs(s) {
		if r.start < done || budget < 0 {
			continue
		}
		budget -= r.end - r.start
		if json.Valid([]byte(s[r.start:r.end])) {
			x.markJSONCommas(r)
			done = r.end
		}
	}
}

// bracketPairs returns the spans from each '[' or '{' to the bracket that
// closes it, outermost first. Inside brackets, brackets in strings are
// skipped.
func bracketPairs(s string) []span {
	var pairs []span
	var open []int
	inString := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inString && c == '\\':
			i++
		case c == '"' && len(open) > 0:
			inString = !inString
		case inString:
		case c == '[' || c == '{':
			open = append(open, i)
		case (c == ']' || c == '}') && len(open) > 0:
			o := open[len(open)-1]
			open = open[:len(open)-1]
			if s[o] == c-2 { // '[' is ']'-2 and '{' is '}'-2
				pairs = append(pairs, span{o, i + 1})
			} else {
				open = open[:0]
			}
		}
	}
	sort.Slice(pairs, func(a, b int) bool { return pairs[a].start < pairs[b].start })
	return pairs
}

// markJSONCommas records the commas of a valid JSON text r that are not in
// a string, and marks its bytes outside strings as raw.
func (x *extractor) markJSONCommas(r span) {
	s := x.s
	if x.raw == nil {
		x.raw = make([]bool, len(s))
	}
	inString := false
	for i := r.start; i < r.end; i++ {
		if !inString && s[i] != '"' {
			x.raw[i] = true
		}
		switch c := s[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case c == ',' && !inString:
			x.markSep(i)
		}
	}
}

func lineSpans(s string) []span {
	var out []span
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == '\n' {
			out = append(out, span{start, i})
			start = i + 1
		}
	}
	return out
}

func splitRow(s string, l span) []cell {
	line := s[l.start:l.end]
	var cells []cell
	start := 0
	for i := 0; i <= len(line); i++ {
		if i == len(line) || line[i] == '|' {
			cells = append(cells, cell{l.start + start, l.start + i})
			start = i + 1
		}
	}
	// A leading and a trailing pipe frame the row; they are not cells.
	if strings.HasPrefix(strings.TrimSpace(line), "|") && len(cells) > 0 {
		cells = cells[1:]
	}
	if strings.HasSuffix(strings.TrimSpace(line), "|") && len(cells) > 0 {
		cells = cells[:len(cells)-1]
	}
	return cells
}
