package ladder

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/testkit/reporttest"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

func testSuite() *suite.Suite {
	s := &suite.Suite{Name: "t", Attempts: 3, Hash: "h"}
	for _, id := range []string{"a/easy", "a/hard", "b/broken"} {
		g, _, _ := strings.Cut(id, "/")
		s.Cases = append(s.Cases, &suite.Case{ID: id, Group: g, Prompt: "?", Mode: suite.ModeToolCall, ExpectTools: []string{"get_x"}})
	}
	return s
}

// testRun runs s on spec; fails lists the cases that fail every attempt.
func testRun(s *suite.Suite, spec string, fails ...string) (*record.Run, *grade.Result) {
	r := &record.Run{Dir: "runs/" + spec, End: &record.End{Complete: true}}
	r.Header = record.Header{Format: record.Format, RunID: spec, Model: model.Info{Spec: spec}, Suite: record.SuiteInfo{Name: "t", Hash: s.Hash},
		ToolsHash: "th", Tools: []record.Tool{{Name: "get_x", ReadOnly: true}, {Name: "get_y", ReadOnly: true}}, Preflight: record.Preflight{Valid: true}}
	for _, c := range s.Cases {
		tool := "get_x"
		for _, f := range fails {
			if f == c.ID {
				tool = "get_y"
			}
		}
		for n := 1; n <= 3; n++ {
			r.Header.Planned = append(r.Header.Planned, record.Planned{Case: c.ID, N: n})
			r.Attempts = append(r.Attempts, record.Attempt{Case: c.ID, N: n, End: record.EndToolCall,
				Turns: []record.Turn{{Calls: []record.Call{{ID: "1", Name: tool, Args: json.RawMessage(`{}`), Shown: true, NotSent: true}}}}})
		}
	}
	return r, grade.Run(s, r)
}

func TestReadings(t *testing.T) {
	s := testSuite()
	r1, g1 := testRun(s, "strong", "b/broken")
	r2, g2 := testRun(s, "middle", "b/broken", "a/hard")
	r3, g3 := testRun(s, "weak", "a/hard", "a/easy")
	l := Build([]*record.Run{r1, r2, r3}, []*grade.Result{g1, g2, g3})
	got := map[string]string{}
	for _, c := range l.Cases {
		got[c.ID] = c.Reading
	}
	want := map[string]string{"a/easy": Descriptions, "a/hard": Descriptions, "b/broken": Defect}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("%s: reading %q, want %q", id, got[id], w)
		}
	}
	if l.Calibrated {
		t.Error("a ladder whose strongest model fails a case is calibrated")
	}
	var b bytes.Buffer
	if err := Text(&b, l); err != nil {
		t.Fatal(err)
	}
	reporttest.Contains(t, "text", b.String(),
		"not calibrated: 1 case fails on strong",
		"b/broken: fails on strong, the strongest model (0/3): a case defect or a product gap",
		"a/hard: passes on strong, fails on middle (0/3), weak (0/3): the descriptions",
		"strong*",
	)
	b.Reset()
	if err := Markdown(&b, l); err != nil || !strings.Contains(b.String(), "| a/easy | 100% n=3 | 100% n=3 | 0% n=3 | descriptions |") {
		t.Errorf("markdown (%v):\n%s", err, b.String())
	}
}

func TestCalibratedAndWarnings(t *testing.T) {
	s := testSuite()
	r1, g1 := testRun(s, "strong")
	r2, g2 := testRun(s, "weak", "a/hard")
	r2.Header.ToolsHash = "other"
	l := Build([]*record.Run{r1, r2}, []*grade.Result{g1, g2})
	if !l.Calibrated || l.Count(Descriptions) != 1 || l.Count(Defect) != 0 {
		t.Errorf("calibrated %v, %d description readings, %d defects", l.Calibrated, l.Count(Descriptions), l.Count(Defect))
	}
	if len(l.Warnings) != 1 || !strings.Contains(l.Warnings[0], "other tool definitions") {
		t.Errorf("warnings %v", l.Warnings)
	}
}

// TestCalibratedOnlyOnARealModel: a ladder is calibrated only when its
// strongest rung is a real model with graded attempts. A fake model that
// passes everything, or a real one whose every attempt failed to run,
// shows nothing about the cases.
func TestCalibratedOnlyOnARealModel(t *testing.T) {
	s := testSuite()
	weak, gw := testRun(s, "weak", "a/hard")

	real, gr := testRun(s, "anthropic:claude-x")
	if l := Build([]*record.Run{real, weak}, []*grade.Result{gr, gw}); !l.Calibrated || l.NotCalibrated != "" {
		t.Errorf("a real strongest model passing every case: calibrated %v (%s)", l.Calibrated, l.NotCalibrated)
	}

	fake, gf := testRun(s, "fake:perfect")
	fake.Header.Model.Fake = true
	l := Build([]*record.Run{fake, weak}, []*grade.Result{gf, gw})
	if l.Calibrated || !strings.Contains(l.NotCalibrated, "fake:perfect, the strongest model, is a fake model") {
		t.Errorf("a fake strongest model: calibrated %v (%q)", l.Calibrated, l.NotCalibrated)
	}
	// A record that names a script's provider but lacks the flag.
	scripted, gs := testRun(s, "script:top.yaml")
	scripted.Header.Model.Provider = "script"
	if l := Build([]*record.Run{scripted, weak}, []*grade.Result{gs, gw}); l.Calibrated || !l.Rungs[0].Fake {
		t.Errorf("a scripted strongest model without the fake flag: calibrated %v, rung %+v", l.Calibrated, l.Rungs[0])
	}
	var b bytes.Buffer
	Text(&b, l)
	if !strings.Contains(b.String(), "not calibrated: fake:perfect, the strongest model, is a fake model") || strings.Contains(b.String(), "\ncalibrated") {
		t.Errorf("text of a ladder topped by a fake model:\n%s", b.String())
	}
	if l.Count(Descriptions) != 1 {
		t.Errorf("the readings still stand below a fake model: %d description readings", l.Count(Descriptions))
	}

	down, _ := testRun(s, "openai:gpt-x")
	for i := range down.Attempts {
		down.Attempts[i] = record.Attempt{Case: down.Attempts[i].Case, N: down.Attempts[i].N, End: record.EndError, Error: &record.Error{Kind: "provider", Message: "connection refused"}}
	}
	gd := grade.Run(s, down)
	l = Build([]*record.Run{down, weak}, []*grade.Result{gd, gw})
	if l.Calibrated || !strings.Contains(l.NotCalibrated, "has no graded attempt (9 ended in an error)") {
		t.Errorf("a strongest model whose every attempt errored: calibrated %v (%q)", l.Calibrated, l.NotCalibrated)
	}
}

// priced gives every turn of r 1M input tokens on provider:name.
func priced(r *record.Run, provider, name string) *record.Run {
	r.Header.Model.Provider, r.Header.Model.Name = provider, name
	for i := range r.Attempts {
		for j := range r.Attempts[i].Turns {
			r.Attempts[i].Turns[j].Usage = model.Usage{Input: 1_000_000}
		}
	}
	return r
}

// TestCostAndBar: each rung shows its cost per success; with a bar, the
// rungs that clear it are marked and the cheapest priced one is named.
func TestCostAndBar(t *testing.T) {
	s := testSuite()
	// Nine attempts of one turn each, 1M input tokens a turn.
	// opus-5 at $5/M passes 9 of 9: $45 / 9 = $5.00 a success.
	r1, g1 := testRun(s, "anthropic:claude-opus-5")
	// sonnet-5-5 at $2/M passes 6 of 9 (67%): $18 / 6 = $3.00 a success.
	r2, g2 := testRun(s, "anthropic:claude-sonnet-5-5", "a/hard")
	// haiku-5-5 passes 3 of 9; a 1M-token prompt is past its long tier
	// (100k), at $0.5/M: $4.50 / 3 = $1.50 a success.
	r3, g3 := testRun(s, "anthropic:claude-haiku-5-5", "a/hard", "b/broken")
	// An unpriced model passing everything clears any bar, at no known cost.
	r4, g4 := testRun(s, "openai:llama3.2")
	l := Build([]*record.Run{priced(r1, "anthropic", "claude-opus-5"), priced(r2, "anthropic", "claude-sonnet-5-5"), priced(r3, "anthropic", "claude-haiku-5-5"), priced(r4, "openai", "llama3.2")},
		[]*grade.Result{g1, g2, g3, g4})
	// At 60% sonnet's 67% (6/9) would clear on its rate, but the lower
	// Wilson bound of 6 of 9 is 35%: only the 9-of-9 runs clear.
	l.SetBar(0.6)
	if !l.Rungs[0].Clears || l.Rungs[1].Clears || l.Cheapest == nil || *l.Cheapest != 0 {
		t.Errorf("bar 60%%: sonnet (6/9, Wilson low 35%%) clears %v, cheapest %v: want opus alone", l.Rungs[1].Clears, l.Cheapest)
	}
	l.SetBar(0.3)
	var clears []bool
	for _, r := range l.Rungs {
		clears = append(clears, r.Clears)
	}
	if fmt.Sprint(clears) != "[true true false true]" || l.Cheapest == nil || *l.Cheapest != 1 {
		t.Fatalf("clears %v cheapest %v", clears, l.Cheapest)
	}
	var b bytes.Buffer
	if err := Text(&b, l); err != nil {
		t.Fatal(err)
	}
	var squeezed []string
	for _, line := range strings.Split(b.String(), "\n") {
		squeezed = append(squeezed, strings.Join(strings.Fields(line), " "))
	}
	for _, want := range []string{
		"$/success $5.00 $3.00 $1.50 unpriced",
		"clears 30% yes yes no yes",
		"cheapest to clear 30% (its pass rate's lower 95% Wilson bound): anthropic:claude-sonnet-5-5 at $3.00 per success (67% n=9, Wilson low 35%)",
	} {
		if !slices.Contains(squeezed, want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
	b.Reset()
	if err := Markdown(&b, l); err != nil {
		t.Fatal(err)
	}
	reporttest.Contains(t, "markdown", b.String(), "| $/success | $5.00 | $3.00 | $1.50 | unpriced |", "| clears 30% | yes | yes | no | yes |", "**cheapest to clear 30% (its pass rate's lower 95% Wilson bound): anthropic:claude-sonnet-5-5")
	// A bar only the unpriced model clears names no cheapest.
	l.SetBar(1)
	if l.Cheapest != nil && *l.Cheapest != 0 {
		t.Errorf("bar 100%%: cheapest %v, want opus-5 (0)", *l.Cheapest)
	}
	l.SetBar(0.7) // 9 of 9: Wilson low 70.1%
	if l.Cheapest == nil || *l.Cheapest != 0 {
		t.Errorf("bar 70%%: cheapest %v, want opus-5", l.Cheapest)
	}
	// Without a bar there is no bar row.
	l2 := Build([]*record.Run{r1, r2}, []*grade.Result{g1, g2})
	b.Reset()
	Text(&b, l2)
	if strings.Contains(b.String(), "clears") || !strings.Contains(b.String(), "$/success") {
		t.Errorf("no bar:\n%s", b.String())
	}
}
