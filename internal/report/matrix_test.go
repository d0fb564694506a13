package report

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/compare"
	"github.com/mcpeval/mcpeval/internal/testkit/reporttest"
	"github.com/mcpeval/mcpeval/internal/usage"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/stats"
)

// matrixRun is model m's graded run on surface sf (canonical when it has
// no map), with one case per entry of cases: {passed, graded}.
func matrixRun(m, sf string, canonical bool, tools []record.Tool, cases ...[2]int) SurfaceRun {
	h := record.Header{RunID: m + "@" + sf, Suite: record.SuiteInfo{Name: "ops"}, Model: model.Info{Spec: m, Provider: "anthropic", Name: m}, Surface: &record.Surface{Name: sf}, Tools: tools}
	if !canonical {
		h.Surface.Map = map[string]record.SurfaceCall{"create_volume": {Tool: "volumes", Args: map[string]any{"action": "create"}}}
	}
	res := &grade.Result{Model: m}
	for _, c := range cases {
		res.Cases = append(res.Cases, grade.CaseStats{ID: "c", Counts: grade.Counts{Passed: c[0], Failed: c[1] - c[0], Graded: c[1]}, K: c[1], PassHatK: stats.PassHatK(c[1], c[0], c[1])})
		res.Totals.Passed += c[0]
		res.Totals.Failed += c[1] - c[0]
		res.Totals.Graded += c[1]
	}
	res.Totals.Rate = float64(res.Totals.Passed) / float64(res.Totals.Graded)
	res.Totals.WilsonLow, res.Totals.WilsonHigh = stats.Wilson(res.Totals.Passed, res.Totals.Graded)
	run := 1.5
	per := run / float64(res.Totals.Passed)
	cost := &usage.Cost{State: usage.Priced, Passed: res.Totals.Passed, RunUSD: &run, PerSuccessUSD: &per}
	return SurfaceRun{Record: &record.Run{Header: h}, Result: res, Cost: cost, Tokens: model.Usage{Input: 1000, Output: 234}}
}

// TestSurfacesMatrix: two models on two surfaces, a row each; every
// figure is the one stats and usage give (Wilson's interval, the mean
// pass^k, Fisher's test against the same model's canonical run, the
// tools' estimated tokens, the cost per success), and a hostile model or
// surface name is escaped in text, Markdown and JSON alike.
func TestSurfacesMatrix(t *testing.T) {
	tools := []record.Tool{{Name: "create_volume", Description: strings.Repeat("d", 38), InputSchema: json.RawMessage(`{"type":"object"}`)}}
	meta := []record.Tool{{Name: "volumes"}}
	hostileModel := "evil|`model`\x1b[31m\nx"
	hostileSurface := "me|ta\x1b]0;t\x07<b>"
	runs := []SurfaceRun{
		matrixRun("strong", "individual", true, tools, [2]int{3, 3}, [2]int{3, 3}),
		matrixRun("strong", hostileSurface, false, meta, [2]int{3, 3}, [2]int{1, 3}),
		matrixRun(hostileModel, "individual", true, tools, [2]int{9, 10}),
		matrixRun(hostileModel, hostileSurface, false, meta, [2]int{1, 10}),
	}
	s := BuildSurfaces(runs)
	if s.Canonical != "individual" || len(s.Models) != 2 || len(s.SurfaceNames) != 2 || len(s.Rows) != 4 {
		t.Fatalf("matrix: canonical %q, models %q, surfaces %q, %d rows", s.Canonical, s.Models, s.SurfaceNames, len(s.Rows))
	}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-12 }
	for i, r := range s.Rows {
		lo, hi := stats.Wilson(r.Counts.Passed, r.Counts.Graded)
		if !near(r.Counts.WilsonLow, lo) || !near(r.Counts.WilsonHigh, hi) {
			t.Errorf("row %d: interval [%v, %v], stats.Wilson gives [%v, %v]", i, r.Counts.WilsonLow, r.Counts.WilsonHigh, lo, hi)
		}
		if r.Tokens != 1234 || r.Cost == nil || *r.Cost.PerSuccessUSD != 1.5/float64(r.Counts.Passed) {
			t.Errorf("row %d: tokens %d, cost %+v", i, r.Tokens, r.Cost)
		}
	}
	if want := (1 + stats.PassHatK(3, 1, 3)) / 2; s.Rows[1].PassHatK == nil || !near(*s.Rows[1].PassHatK, want) || s.Rows[1].K != 3 {
		t.Errorf("strong on meta: pass^k %v (k %d), want the mean of its cases' %v", s.Rows[1].PassHatK, s.Rows[1].K, want)
	}
	if s.Rows[0].ToolTokens != (len("create_volume")+38+len(`{"type":"object"}`))/4 || s.Rows[1].ToolTokens != usage.ToolTokens(meta) {
		t.Errorf("tool tokens %d and %d", s.Rows[0].ToolTokens, s.Rows[1].ToolTokens)
	}
	if s.Rows[0].VsCanonical != nil || s.Rows[2].VsCanonical != nil {
		t.Errorf("a canonical row is tested against itself")
	}
	for _, c := range []struct {
		row  int
		want float64
	}{{1, stats.Fisher(4, 2, 6, 0)}, {3, stats.Fisher(1, 9, 9, 1)}} {
		got := s.Rows[c.row].VsCanonical
		if got == nil || got.Against != "individual" || !near(got.P, c.want) || got.Significant != (c.want < compare.DefaultAlpha) {
			t.Errorf("row %d: test %+v, want p=%v against individual", c.row, got, c.want)
		}
	}
	if !s.Rows[3].VsCanonical.Significant || s.Rows[1].VsCanonical.Significant {
		t.Errorf("1/10 against 9/10 is significant and 4/6 against 6/6 is not: %+v, %+v", s.Rows[3].VsCanonical, s.Rows[1].VsCanonical)
	}

	var text, md, js bytes.Buffer
	for _, f := range []struct {
		w     *bytes.Buffer
		write func(*bytes.Buffer) error
	}{{&text, func(b *bytes.Buffer) error { return SurfacesText(b, s) }}, {&md, func(b *bytes.Buffer) error { return SurfacesMarkdown(b, s) }}, {&js, func(b *bytes.Buffer) error { return SurfacesJSON(b, s) }}} {
		if err := f.write(f.w); err != nil {
			t.Fatal(err)
		}
	}
	for name, out := range map[string]string{"text": text.String(), "Markdown": md.String(), "JSON": js.String()} {
		if strings.ContainsAny(out, "\x1b\x07") {
			t.Errorf("%s: a control character from a name reached the output:\n%q", name, out)
		}
	}
	lines := strings.Split(text.String(), "\n")
	reporttest.Contains(t, "text: strong on meta", lines[3], "strong", "67% 4/6", "p="+compare.FormatP(stats.Fisher(4, 2, 6, 0)))
	reporttest.Contains(t, "text: the hostile model on meta", lines[5], "10% 1/10", "p="+compare.FormatP(stats.Fisher(1, 9, 9, 1))+" *")
	reporttest.Contains(t, "text", text.String(), "$1.50", "$0.1667", "1,234")
	for _, l := range lines {
		if strings.HasPrefix(l, "x ") {
			t.Errorf("text: a newline in a model name broke a row:\n%s", text.String())
		}
	}
	for _, l := range strings.Split(md.String(), "\n") {
		// 7 cells in the pass table, 6 in the cost table: 8 or 7 pipes.
		if n := strings.Count(l, "|") - strings.Count(l, `\|`); strings.HasPrefix(l, "|") && n != 8 && n != 7 {
			t.Errorf("Markdown: a row has %d cells (a pipe escaped badly):\n%s", n-1, l)
		}
	}
	// A name is a code span: its HTML and pipes are text there.
	reporttest.Contains(t, "Markdown", md.String(), "| `me\\|ta", "### Cost")
	var back Surfaces
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if back.Rows[3].Model != hostileModel || back.Rows[3].Surface != hostileSurface || back.Rows[3].VsCanonical == nil || back.SurfaceNames[1] != hostileSurface {
		t.Errorf("JSON does not keep the names as they are: %+v", back.Rows[3])
	}
}
