package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/grade/actions"
	"github.com/mcpeval/mcpeval/internal/report/format"
	"github.com/mcpeval/mcpeval/internal/termsafe"
	"github.com/mcpeval/mcpeval/record"
)

// SurfaceRun is one graded run on a surface of its suite.
type SurfaceRun struct {
	Record *record.Run
	Result *grade.Result
}

// Surfaces sets runs of one corpus on several surfaces side by side: one
// row per surface (and model), the pass rate with its interval, and the
// action columns. Every run is graded by the same key, read back to the
// canonical actions, so the rows compare the presentations alone.
type Surfaces struct {
	Suite string       `json:"suite"`
	Rows  []SurfaceRow `json:"rows"`
}

// SurfaceRow is one run's line of the side-by-side table.
type SurfaceRow struct {
	// Surface names the surface; "(none)" for a run of a suite without
	// surfaces.
	Surface string `json:"surface"`
	Model   string `json:"model"`
	RunID   string `json:"run_id"`
	Dir     string `json:"dir,omitempty"`
	// Tools is how many tools the model was shown on the surface.
	Tools int `json:"tools"`
	// Counts are the run's totals: the pass rate and its 95% interval.
	Counts grade.Counts `json:"counts"`
	// Columns are the action columns, when the suite has action cases.
	Columns *actions.Columns `json:"columns,omitempty"`
}

// noSurface names the surface of a run of a suite without surfaces.
const noSurface = "(none)"

// BuildSurfaces lays runs out side by side, in the order given.
func BuildSurfaces(runs []SurfaceRun) *Surfaces {
	out := &Surfaces{Rows: []SurfaceRow{}}
	for _, r := range runs {
		h := r.Record.Header
		if out.Suite == "" {
			out.Suite = h.Suite.Name
		}
		row := SurfaceRow{Surface: noSurface, Model: r.Result.Model, RunID: h.RunID, Dir: r.Record.Dir, Tools: len(h.Tools), Counts: r.Result.Totals.Counts}
		if h.Surface != nil {
			row.Surface = h.Surface.Name
		}
		if a := r.Result.Actions; a != nil {
			for _, m := range a.Models {
				if m.Model == h.Model.Spec {
					cols := m.Columns
					row.Columns = &cols
				}
			}
		}
		out.Rows = append(out.Rows, row)
	}
	return out
}

// surfaceHead heads the table's columns.
func (s *Surfaces) head() []string {
	h := []string{"Surface", "Model", "Tools", "Pass", "95% CI"}
	if s.hasColumns() {
		h = append(h, actions.ColumnNames[1:]...)
	}
	return h
}

func (s *Surfaces) hasColumns() bool {
	for _, r := range s.Rows {
		if r.Columns != nil {
			return true
		}
	}
	return false
}

// cells are row r's figures, after its surface and model.
func (s *Surfaces) cells(r SurfaceRow, ci func(format.Rate) string) []string {
	rate := format.Counts(r.Counts)
	cells := []string{strconv.Itoa(r.Tools), rate.Cell(), ci(rate)}
	if !s.hasColumns() {
		return cells
	}
	if r.Columns == nil {
		for range actions.ColumnNames[1:] {
			cells = append(cells, format.None)
		}
		return cells
	}
	for _, c := range r.Columns.List()[1:] {
		cells = append(cells, columnCount(c))
	}
	return cells
}

const surfaceNote = "the same cases and key on each surface; pass is of graded attempts, each action column scored of counted"

// SurfacesText writes the side-by-side table for a terminal.
func SurfacesText(w io.Writer, s *Surfaces) error {
	fmt.Fprintf(w, "surfaces of %s (%s)\n", termsafe.Line(s.Suite), surfaceNote)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := strings.ToLower(strings.Join(s.head(), "\t"))
	fmt.Fprintln(tw, strings.ReplaceAll(head, "ci", "CI"))
	for _, r := range s.Rows {
		cells := append([]string{termsafe.Line(r.Surface), termsafe.Line(r.Model)}, s.cells(r, format.Rate.CI)...)
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	return tw.Flush()
}

// SurfacesMarkdown writes the side-by-side table as Markdown.
func SurfacesMarkdown(w io.Writer, s *Surfaces) error {
	fmt.Fprintf(w, "## Surfaces of %s\n\n%s.\n\n", format.Markdown(s.Suite), format.Markdown(strings.ToUpper(surfaceNote[:1])+surfaceNote[1:]))
	head := s.head()
	fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat("---|", len(head)))
	for _, r := range s.Rows {
		cells := append([]string{format.CodeSpanCell(r.Surface), format.CodeSpanCell(r.Model)}, s.cells(r, format.Rate.Range)...)
		if _, err := fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | ")); err != nil {
			return err
		}
	}
	return nil
}

// SurfacesJSON writes the side-by-side table as JSON.
func SurfacesJSON(w io.Writer, s *Surfaces) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(s)
}
