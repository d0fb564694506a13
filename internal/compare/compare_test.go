package compare

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/internal/testkit/reporttest"
	"github.com/mcpeval/mcpeval/internal/usage/price"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// testSuite has three groups of two tool-call cases each; every case
// expects a call of get_<group>.
func testSuite(attempts int) *suite.Suite {
	s := &suite.Suite{Name: "t", Attempts: attempts, Hash: "suitehash"}
	for _, g := range []string{"alpha", "beta", "gamma"} {
		for _, slug := range []string{"one", "two"} {
			s.Cases = append(s.Cases, &suite.Case{ID: g + "/" + slug, Group: g, Prompt: "?",
				Mode: suite.ModeToolCall, ExpectTools: []string{"get_" + g}})
		}
	}
	return s
}

func testTools() []record.Tool {
	var ts []record.Tool
	for _, g := range []string{"alpha", "beta", "gamma"} {
		ts = append(ts, record.Tool{Name: "get_" + g, Description: "Gets " + g + ".", ReadOnly: true,
			InputSchema: json.RawMessage(`{"properties":{"months":{"description":"how many months","type":"integer"}},"type":"object"}`)})
	}
	return ts
}

// testRun makes a complete run of s in which pass decides each attempt.
func testRun(s *suite.Suite, id string, pass func(c *suite.Case, n int) bool) *record.Run {
	h := record.Header{Format: record.Format, RunID: id, Model: model.Info{Spec: "fake:perfect", Provider: "fake", Name: "perfect", Fake: true},
		Suite: record.SuiteInfo{Name: s.Name, Hash: s.Hash, Cases: len(s.Cases)}, Tools: testTools(), ToolsHash: "toolshash",
		Attempts: s.Attempts, TurnCap: 8, Preflight: record.Preflight{Valid: true}, Target: record.TargetInfo{Spec: "builtin:t"}}
	r := &record.Run{Dir: "runs/" + id, End: &record.End{Complete: true}}
	for _, c := range s.Cases {
		for n := 1; n <= s.AttemptsFor(c); n++ {
			h.Planned = append(h.Planned, record.Planned{Case: c.ID, N: n})
			tool := c.ExpectTools[0]
			if !pass(c, n) {
				tool = "get_beta"
				if c.Group == "beta" {
					tool = "get_alpha"
				}
			}
			r.Attempts = append(r.Attempts, record.Attempt{Case: c.ID, N: n, End: record.EndToolCall,
				Turns: []record.Turn{{Calls: []record.Call{{ID: "1", Name: tool, Args: json.RawMessage(`{}`), Shown: true, NotSent: true}}}}})
		}
	}
	r.Header = h
	return r
}

func allPass(*suite.Case, int) bool { return true }

func TestCompareWithItself(t *testing.T) {
	s := testSuite(3)
	r := testRun(s, "run1", func(c *suite.Case, n int) bool { return c.ID != "beta/two" || n != 2 })
	g := grade.Run(s, r)
	c := Compare(r, r, g, g)
	if c.HasChanges() {
		t.Errorf("a run compared with itself has changes: %+v", c.Changes)
	}
	if regs := c.Regressions(); len(regs) > 0 {
		t.Errorf("a run compared with itself regressed: %+v", regs)
	}
	if imps := c.Improvements(); len(imps) > 0 {
		t.Errorf("a run compared with itself improved: %+v", imps)
	}
	if inc := c.NewlyInconsistent(); len(inc) > 0 {
		t.Errorf("a run compared with itself became inconsistent: %+v", inc)
	}
	for _, r := range c.Rows() {
		if r.Verdict != Noise || r.P < 1-1e-9 || r.Delta != 0 {
			t.Errorf("row %s: verdict %q, p %v, delta %v; want ~, 1, 0", r.Name, r.Verdict, r.P, r.Delta)
		}
	}
	if len(c.Groups) != 3 || len(c.Cases) != 6 {
		t.Errorf("%d groups and %d cases, want 3 and 6", len(c.Groups), len(c.Cases))
	}
	var out bytes.Buffer
	if err := Text(&out, c); err != nil {
		t.Fatal(err)
	}
	reporttest.Contains(t, "text report", out.String(), "nothing: same model", "no significant movement at 0.05", "Fisher's exact test")
}

// TestGroupBreaks compares a run where every attempt passes with one where
// group beta fails every attempt: the group, its cases and the total are
// flagged, and nothing else.
func TestGroupBreaks(t *testing.T) {
	s := testSuite(5)
	base := testRun(s, "base", allPass)
	nw := testRun(s, "new", func(c *suite.Case, _ int) bool { return c.Group != "beta" })
	c := Compare(base, nw, grade.Run(s, base), grade.Run(s, nw))
	var got []string
	for _, r := range c.Regressions() {
		got = append(got, r.Kind+" "+r.Name)
	}
	want := []string{"total total", "group beta", "case beta/one", "case beta/two"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("regressions (-want +got):\n%s", diff)
	}
	for _, r := range c.Rows() {
		if r.Group != "beta" && r.Name != "beta" && r.Kind != "total" && r.Verdict != Noise {
			t.Errorf("row %s: verdict %q, want ~", r.Name, r.Verdict)
		}
	}
	// 10 of 10 against 0 of 10: p = 2 / C(20, 10).
	if g := c.Groups[1]; g.Name != "beta" || g.P > 1.1e-5 || g.P < 1.0e-5 {
		t.Errorf("group beta: p = %v, want 1.08e-05", g.P)
	}
	if r := c.Regressions()[1].Describe(); r != "group beta: 100% (10/10) → 0% (0/10), p=1.1e-05" {
		t.Errorf("Describe = %q", r)
	}
	golden(t, "group_breaks", c)
}

// TestSmallCountsAreNoise: 3 of 3 against 0 of 3 is p = 0.1, not
// significant; the report says the case could not have moved.
func TestSmallCountsAreNoise(t *testing.T) {
	s := testSuite(3)
	base := testRun(s, "base", allPass)
	nw := testRun(s, "new", func(c *suite.Case, _ int) bool { return c.ID != "gamma/two" })
	c := Compare(base, nw, grade.Run(s, base), grade.Run(s, nw))
	if regs := c.Regressions(); len(regs) != 0 {
		t.Errorf("regressions %+v, want none: 3 attempts cannot show one", regs)
	}
	var row Row
	for _, r := range c.Cases {
		if r.Name == "gamma/two" {
			row = r
		}
	}
	if row.Verdict != Noise || row.P < 0.0999 || row.P > 0.1001 || row.MinP < 0.0999 {
		t.Errorf("gamma/two: %+v, want ~ with p = min p = 0.1", row)
	}
	if n, _ := c.Underpowered(); n != 6 {
		t.Errorf("underpowered cases = %d, want 6", n)
	}
}

func TestBecameInconsistent(t *testing.T) {
	s := testSuite(3)
	base := testRun(s, "base", allPass)
	nw := testRun(s, "new", func(c *suite.Case, n int) bool { return c.ID != "alpha/two" || n != 3 })
	c := Compare(base, nw, grade.Run(s, base), grade.Run(s, nw))
	inc := c.NewlyInconsistent()
	if len(inc) != 1 || inc[0].Name != "alpha/two" {
		t.Fatalf("newly inconsistent = %+v, want alpha/two", inc)
	}
	var out bytes.Buffer
	Text(&out, c)
	if !strings.Contains(out.String(), "alpha/two: 3/3 → 2/3 passed") {
		t.Errorf("text report does not call out alpha/two:\n%s", out.String())
	}
}

// TestWhatChanged: model, options, prompt, an overlay's tool edit, a case
// removed and attempts are all reported, before anything moved.
func TestWhatChanged(t *testing.T) {
	s := testSuite(3)
	base := testRun(s, "base", allPass)
	s2 := testSuite(3)
	s2.Cases = s2.Cases[:5]
	nw := testRun(s2, "new", allPass)
	nw.Header.Model = model.Info{Spec: "anthropic:claude-x;effort=high", Provider: "anthropic", Name: "claude-x", Options: map[string]string{"effort": "high"}}
	nw.Header.SystemPrompt = "Be brief."
	nw.Header.ServerTools = base.Header.Tools
	nw.Header.ServerToolsHash = base.Header.ToolsHash
	nw.Header.Overlay = &record.Overlay{Path: "overlay.yaml", Hash: "abcdef0123456789"}
	nw.Header.Tools = testTools()
	nw.Header.Tools[0].Description = "Gets alpha, by month."
	nw.Header.Tools[0].InputSchema = json.RawMessage(`{"properties":{"months":{"description":"months back from the latest","type":"integer"}},"type":"object"}`)
	nw.Header.ToolsHash = "toolshash2"
	c := Compare(base, nw, grade.Run(s, base), grade.Run(s2, nw))
	var whats []string
	for _, ch := range c.Changes {
		whats = append(whats, ch.What)
	}
	want := []string{"model", "option effort", "system prompt", "tools", "overlay", "suite", "cases", "attempts"}
	if diff := cmp.Diff(want, whats); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
	wantTools := []ToolDiff{{Tool: "get_alpha", Kind: "changed", Fields: []FieldDiff{
		{Field: "description", Base: "Gets alpha.", New: "Gets alpha, by month."},
		{Field: "input_schema.properties.months.description", Base: "how many months", New: "months back from the latest"},
	}}}
	if diff := cmp.Diff(wantTools, c.Tools); diff != "" {
		t.Errorf("tool diff (-want +got):\n%s", diff)
	}
	if !c.OverlayOnly || len(c.ServerTools) != 0 {
		t.Errorf("OverlayOnly %v, server tool diff %+v: the servers listed the same tools", c.OverlayOnly, c.ServerTools)
	}
	if diff := cmp.Diff([]string{"gamma/two"}, c.CasesRemoved); diff != "" {
		t.Errorf("cases removed (-want +got):\n%s", diff)
	}
	golden(t, "what_changed", c)
}

func TestInvalidRun(t *testing.T) {
	s := testSuite(3)
	base := testRun(s, "base", allPass)
	nw := testRun(s, "new", allPass)
	nw.Header.Preflight = record.Preflight{Valid: false, Checks: []record.PreflightCheck{{Tool: "get_alpha", Problems: []string{"drifted"}}}}
	c := Compare(base, nw, grade.Run(s, base), grade.Run(s, nw))
	if c.Comparable || len(c.Regressions()) != 0 || len(c.Groups) != 0 {
		t.Errorf("an invalid run compared: comparable %v, %d regressions, %d groups", c.Comparable, len(c.Regressions()), len(c.Groups))
	}
}

func TestSetAlpha(t *testing.T) {
	s := testSuite(3)
	base := testRun(s, "base", allPass)
	nw := testRun(s, "new", func(c *suite.Case, _ int) bool { return c.ID != "gamma/two" })
	c := Compare(base, nw, grade.Run(s, base), grade.Run(s, nw))
	c.SetAlpha(0.2)
	got := map[string]bool{}
	for _, r := range c.Regressions() {
		got[r.Name] = true
	}
	if !got["gamma/two"] {
		t.Errorf("at alpha 0.2, 3/3 → 0/3 (p = 0.1) should regress; regressions %v", got)
	}
}

// golden checks the three renderings of c against testdata/NAME.*.
func golden(t *testing.T, name string, c *Comparison) {
	t.Helper()
	// Fixed prices, so that the goldens do not change with the built-in
	// table.
	ts, err := price.Parse("", []byte(`{"provider":"anthropic","read":"2026-01-01","source":"https://example.com/prices","models":[{"model":"claude-x","input":3,"output":15}]}`))
	if err != nil {
		t.Fatal(err)
	}
	c.Price(price.NewSet(ts...))
	for ext, render := range map[string]func(*bytes.Buffer, *Comparison) error{
		"txt":  func(b *bytes.Buffer, c *Comparison) error { return Text(b, c) },
		"md":   func(b *bytes.Buffer, c *Comparison) error { return Markdown(b, c) },
		"json": func(b *bytes.Buffer, c *Comparison) error { return JSON(b, c) },
	} {
		var b bytes.Buffer
		if err := render(&b, c); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join("testdata", name+"."+ext)
		if *update {
			os.MkdirAll("testdata", 0o755)
			if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(p)
		if err != nil {
			t.Fatalf("%v (run go test -update to create it)", err)
		}
		if diff := cmp.Diff(string(want), b.String()); diff != "" {
			t.Errorf("%s (-want +got):\n%s", p, diff)
		}
	}
}

// TestCostPerSuccess: a cheaper model that passes less can still cost
// more per success; compare says both runs' cost per success and per run.
func TestCostPerSuccess(t *testing.T) {
	s := testSuite(2)
	spend := func(r *record.Run, name string) *record.Run {
		r.Header.Model = model.Info{Spec: "anthropic:" + name, Provider: "anthropic", Name: name}
		for i := range r.Attempts {
			r.Attempts[i].Turns[0].Usage = model.Usage{Input: 10_000}
		}
		return r
	}
	// 12 attempts of 10k input tokens each: opus-5 at $5/M costs $0.60,
	// all pass: $0.0500 a success. sonnet-5 at $2/M costs $0.24, and
	// passes only the alpha cases (4 of 12): $0.0600 a success.
	base := spend(testRun(s, "base", allPass), "claude-opus-5")
	nw := spend(testRun(s, "new", func(c *suite.Case, n int) bool { return c.Group == "alpha" }), "claude-sonnet-5")
	c := Compare(base, nw, grade.Run(s, base), grade.Run(s, nw))
	if got, want := c.costLine(), "$0.0500 → $0.0600 per success ($0.6000 → $0.2400 per run)"; got != want {
		t.Errorf("cost line %q, want %q", got, want)
	}
	var b bytes.Buffer
	if err := Text(&b, c); err != nil || !strings.Contains(b.String(), "cost  $0.0500 → $0.0600 per success") {
		t.Errorf("text (%v):\n%s", err, b.String())
	}
	nw.Header.Model.Name = "claude-unknown"
	c = Compare(base, nw, grade.Run(s, base), grade.Run(s, nw))
	if got, want := c.costLine(), "$0.0500 → unpriced per success ($0.6000 → unpriced per run)"; got != want {
		t.Errorf("unpriced: cost line %q, want %q", got, want)
	}
}

// TestOutputOverlayChanged: a change of an output overlay is attributed to
// the tool whose results it rewrites, and a tool whose edit stayed the
// same is not named.
func TestOutputOverlayChanged(t *testing.T) {
	s := testSuite(3)
	base := testRun(s, "base", allPass)
	nw := testRun(s, "new", allPass)
	base.Header.Overlay = &record.Overlay{Path: "drop.yaml", Hash: "aaaa", Outputs: []record.OutputOverlay{
		{Tool: "get_alpha", Hash: "11111111111111", Edits: "drop alpha"},
		{Tool: "get_beta", Hash: "22222222222222", Edits: "limit rows to 3"},
	}}
	nw.Header.Overlay = &record.Overlay{Path: "rename.yaml", Hash: "bbbb", Outputs: []record.OutputOverlay{
		{Tool: "get_alpha", Hash: "33333333333333", Edits: "rename alpha→a"},
		{Tool: "get_beta", Hash: "22222222222222", Edits: "limit rows to 3"},
		{Tool: "get_gamma", Hash: "44444444444444", Edits: "text"},
	}}
	c := Compare(base, nw, grade.Run(s, base), grade.Run(s, nw))
	got := map[string][2]string{}
	for _, ch := range c.Changes {
		if strings.HasPrefix(ch.What, "output overlay") {
			got[ch.What] = [2]string{ch.Base, ch.New}
		}
	}
	want := map[string][2]string{
		"output overlay on get_alpha": {"drop alpha (hash 111111111111)", "rename alpha→a (hash 333333333333)"},
		"output overlay on get_gamma": {"none", "text (hash 444444444444)"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("output overlay changes (-want +got):\n%s", diff)
	}
	var out strings.Builder
	if err := Text(&out, c); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "output overlay on get_alpha  drop alpha (hash 111111111111) → rename alpha→a (hash 333333333333)") {
		t.Errorf("text does not attribute the change to the output overlay on get_alpha:\n%s", out.String())
	}
}
