package report

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/grade/actions"
	"github.com/mcpeval/mcpeval/internal/compare"
	"github.com/mcpeval/mcpeval/internal/report/format"
	"github.com/mcpeval/mcpeval/internal/termsafe"
	"github.com/mcpeval/mcpeval/internal/usage"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/stats"
)

// SurfaceRun is one graded run on a surface of its suite.
type SurfaceRun struct {
	Record *record.Run
	Result *grade.Result
	// Cost is what the run cost; nil means BuildSurfaces prices the
	// attempts Record holds (none for a run read as a stream).
	Cost *usage.Cost
	// Tokens are what the model's requests were billed, the judge's
	// left out; a fake model reports none.
	Tokens model.Usage
}

// Surfaces sets runs of one corpus on several surfaces, by one model or
// several, side by side: one row per model and surface (a long table,
// the matrix of models by surfaces read row by row), each with the pass
// rate and its interval, pass^k, the action columns, what the tool list
// costs every request and what the run cost; and, for each model, Fisher's
// exact test of each surface against the canonical one. Every run is
// graded by the same key, read back to the canonical actions, so the rows
// of one model compare the presentations alone.
type Surfaces struct {
	Suite string `json:"suite"`
	// Canonical names the canonical surface; empty when no run measured
	// it.
	Canonical string `json:"canonical,omitempty"`
	// Models and SurfaceNames are the matrix's rows and columns, in the
	// order their runs first appear.
	Models       []string     `json:"models"`
	SurfaceNames []string     `json:"surfaces"`
	Rows         []SurfaceRow `json:"rows"`
}

// SurfaceRow is one run's line of the side-by-side table: one cell of the
// matrix.
type SurfaceRow struct {
	// Surface names the surface; "(none)" for a run of a suite without
	// surfaces.
	Surface string `json:"surface"`
	Model   string `json:"model"`
	RunID   string `json:"run_id"`
	Dir     string `json:"dir,omitempty"`
	// Tools is how many tools the model was shown on the surface.
	Tools int `json:"tools"`
	// ToolTokens estimates the tokens the definitions of those tools take
	// in every request (usage.ToolTokens): the same for every model.
	ToolTokens int `json:"tool_tokens"`
	// Counts are the run's totals: the pass rate and its 95% interval.
	Counts grade.Counts `json:"counts"`
	// PassHatK is the mean over the graded cases of each case's pass^k,
	// the chance that all k of its attempts pass (k its graded attempts);
	// nil when no case was graded. K is the largest k.
	PassHatK *float64 `json:"pass_hat_k,omitempty"`
	K        int      `json:"k,omitempty"`
	// Tokens are what the model's requests were billed (a fake reports
	// none); Cost what the run cost, in all and per success.
	Tokens int64       `json:"tokens"`
	Cost   *usage.Cost `json:"cost,omitempty"`
	// VsCanonical tests the row against the same model's run on the
	// canonical surface; nil on the canonical surface, or when the model
	// has no run there.
	VsCanonical *SurfaceTest `json:"vs_canonical,omitempty"`
	// Columns are the action columns, when the suite has action cases.
	Columns *actions.Columns `json:"columns,omitempty"`
}

// SurfaceTest is Fisher's exact test (two-sided) of one surface's passed
// and failed attempts against the canonical surface's, for one model.
type SurfaceTest struct {
	Against string  `json:"against"`
	P       float64 `json:"p"`
	// Significant is true when P is under compare.DefaultAlpha.
	Significant bool `json:"significant"`
}

// noSurface names the surface of a run of a suite without surfaces.
const noSurface = "(none)"

// BuildSurfaces lays runs out side by side, in the order given.
func BuildSurfaces(runs []SurfaceRun) *Surfaces {
	out := &Surfaces{Models: []string{}, SurfaceNames: []string{}, Rows: []SurfaceRow{}}
	for _, r := range runs {
		h := r.Record.Header
		if out.Suite == "" {
			out.Suite = h.Suite.Name
		}
		shown := h.Tools
		if h.Surface != nil && len(h.Surface.Shown) > 0 {
			shown = h.Surface.Shown // a search surface's own tools
		}
		row := SurfaceRow{Surface: noSurface, Model: r.Result.Model, RunID: h.RunID, Dir: r.Record.Dir, Tools: len(shown), ToolTokens: usage.ToolTokens(shown),
			Counts: r.Result.Totals.Counts, Tokens: r.Tokens.Billed(), Cost: r.Cost}
		if row.Cost == nil {
			row.Cost = usage.NewCost(r.Record, r.Result.Totals.Passed, nil)
		}
		if h.Surface != nil {
			row.Surface = h.Surface.Name
			if len(h.Surface.Map) == 0 && out.Canonical == "" {
				out.Canonical = h.Surface.Name
			}
		}
		row.PassHatK, row.K = passHatK(r.Result)
		if a := r.Result.Actions; a != nil {
			for _, m := range a.Models {
				if m.Model == h.Model.Spec {
					cols := m.Columns
					row.Columns = &cols
				}
			}
		}
		if !slices.Contains(out.Models, row.Model) {
			out.Models = append(out.Models, row.Model)
		}
		if !slices.Contains(out.SurfaceNames, row.Surface) {
			out.SurfaceNames = append(out.SurfaceNames, row.Surface)
		}
		out.Rows = append(out.Rows, row)
	}
	out.test()
	return out
}

// test sets each row's test against its model's run on the canonical
// surface.
func (s *Surfaces) test() {
	if s.Canonical == "" {
		return
	}
	for i := range s.Rows {
		r := &s.Rows[i]
		if r.Surface == s.Canonical {
			continue
		}
		j := slices.IndexFunc(s.Rows, func(c SurfaceRow) bool { return c.Model == r.Model && c.Surface == s.Canonical })
		if j < 0 {
			continue
		}
		c := s.Rows[j].Counts
		p := stats.Fisher(r.Counts.Passed, r.Counts.Failed, c.Passed, c.Failed)
		r.VsCanonical = &SurfaceTest{Against: s.Canonical, P: p, Significant: p < compare.DefaultAlpha}
	}
}

// passHatK returns the mean of the graded cases' pass^k and the largest
// k; nil when no case was graded.
func passHatK(res *grade.Result) (*float64, int) {
	sum, n, k := 0.0, 0, 0
	for _, c := range res.Cases {
		if c.Judged || c.Graded == 0 {
			continue
		}
		sum += c.PassHatK
		n++
		k = max(k, c.K)
	}
	if n == 0 {
		return nil, 0
	}
	mean := sum / float64(n)
	return &mean, k
}

// head heads the pass table's columns.
func (s *Surfaces) head() []string {
	h := []string{"Surface", "Model", "Tools", "Pass", "95% CI", "Pass^k"}
	if s.Canonical != "" {
		h = append(h, "vs "+s.Canonical)
	}
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
	phk := format.None
	if r.PassHatK != nil {
		phk = format.Pct(*r.PassHatK)
	}
	cells := []string{strconv.Itoa(r.Tools), rate.Cell(), ci(rate), phk}
	if s.Canonical != "" {
		cells = append(cells, r.VsCanonical.cell())
	}
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

// cell says the test in a table: "p=0.480", "p=0.001 *" when significant,
// the dash on the canonical surface.
func (t *SurfaceTest) cell() string {
	if t == nil {
		return format.None
	}
	c := "p=" + compare.FormatP(t.P)
	if t.Significant {
		c += " *"
	}
	return c
}

// costHead heads the cost table's columns.
var costHead = []string{"Surface", "Model", "Tool tokens/request", "Tokens", "Cost", "$/success"}

// costCells are row r's cost figures, after its surface and model.
func costCells(r SurfaceRow) []string {
	return []string{format.Grouped(strconv.Itoa(r.ToolTokens)), format.Grouped(strconv.FormatInt(r.Tokens, 10)), r.Cost.Run(), r.Cost.PerSuccess()}
}

const surfaceNote = "the same cases and key on each surface; pass is of graded attempts, each action column scored of counted"

// SurfaceCostNote says where the cost table's figures come from.
const SurfaceCostNote = "tool tokens/request: the definitions of the tools shown, at four characters a token, sent with every request; tokens: what the model's requests were billed (a fake reports none)"

// TestNote says what the vs column tests; "" when no run measured the
// canonical surface.
func (s *Surfaces) TestNote() string {
	if s.Canonical == "" {
		return ""
	}
	return fmt.Sprintf("vs %s: %s against the same model on %s, * when p < %.2f", s.Canonical, compare.Test, s.Canonical, compare.DefaultAlpha)
}

// SurfacesText writes the side-by-side tables for a terminal: the pass
// rates, then the costs.
func SurfacesText(w io.Writer, s *Surfaces) error {
	fmt.Fprintf(w, "surfaces of %s (%s)\n", termsafe.Line(s.Suite), surfaceNote)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := s.head()
	for i, h := range head {
		head[i] = strings.ReplaceAll(strings.ToLower(h), "ci", "CI")
	}
	if s.Canonical != "" {
		head[6] = "vs " + termsafe.Line(s.Canonical)
	}
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for _, r := range s.Rows {
		cells := append([]string{termsafe.Line(r.Surface), termsafe.Line(r.Model)}, s.cells(r, format.Rate.CI)...)
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if s.Canonical != "" {
		fmt.Fprintln(w, termsafe.Line(s.TestNote()))
	}
	fmt.Fprintf(w, "\ncost (%s)\n", SurfaceCostNote)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.ToLower(strings.Join(costHead, "\t")))
	for _, r := range s.Rows {
		cells := append([]string{termsafe.Line(r.Surface), termsafe.Line(r.Model)}, costCells(r)...)
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	return tw.Flush()
}

// SurfacesMarkdown writes the side-by-side tables as Markdown.
func SurfacesMarkdown(w io.Writer, s *Surfaces) error {
	fmt.Fprintf(w, "## Surfaces of %s\n\n%s.\n\n", format.Markdown(s.Suite), format.Markdown(strings.ToUpper(surfaceNote[:1])+surfaceNote[1:]))
	head := s.head()
	if s.Canonical != "" {
		head[6] = "vs " + format.Markdown(s.Canonical)
	}
	table := func(head []string, rows [][]string) error {
		fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat("---|", len(head)))
		for _, cells := range rows {
			if _, err := fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | ")); err != nil {
				return err
			}
		}
		return nil
	}
	var rows, costs [][]string
	for _, r := range s.Rows {
		names := []string{format.CodeSpanCell(r.Surface), format.CodeSpanCell(r.Model)}
		rows = append(rows, append(slices.Clone(names), s.cells(r, format.Rate.Range)...))
		costs = append(costs, append(slices.Clone(names), costCells(r)...))
	}
	if err := table(head, rows); err != nil {
		return err
	}
	if s.Canonical != "" {
		fmt.Fprintf(w, "\n%s.\n", format.Markdown(s.TestNote()))
	}
	fmt.Fprintf(w, "\n### Cost\n\n%s.\n\n", format.Markdown(strings.ToUpper(SurfaceCostNote[:1])+SurfaceCostNote[1:]))
	return table(costHead, costs)
}

// SurfacesJSON writes the side-by-side table as JSON.
func SurfacesJSON(w io.Writer, s *Surfaces) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(s)
}
