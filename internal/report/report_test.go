package report

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/usage"
	"github.com/mcpeval/mcpeval/internal/usage/price"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// testRun reads testdata/suite.yaml and the run testdata/<name>.jsonl
// recorded with it.
func testRun(t testing.TB, name string) (*suite.Suite, *record.Run) {
	t.Helper()
	s, err := suite.Load(filepath.Join("testdata", "suite.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := record.Read(filepath.Join("testdata", name+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	r.Header.Suite.Hash = s.Hash // keep the "suite changed" warning out of the goldens
	return s, r
}

// graded grades testdata/<name>.jsonl against testdata/suite.yaml.
func graded(t *testing.T, name string) (*grade.Result, *record.Header) {
	t.Helper()
	s, r := testRun(t, name)
	return grade.Run(s, r), &r.Header
}

// reports is a run's report in each format report writes alone.
type reports struct{ text, md, js string }

// render writes res's text, Markdown and JSON reports; recordPath is the
// record the JSON names.
func render(t *testing.T, res *grade.Result, h *record.Header, recordPath string, cost *usage.Cost) reports {
	t.Helper()
	var text, md, js bytes.Buffer
	if err := Text(&text, res, h, cost); err != nil {
		t.Fatal(err)
	}
	if err := Markdown(&md, res, h, cost); err != nil {
		t.Fatal(err)
	}
	if err := JSON(&js, res, h, recordPath, cost); err != nil {
		t.Fatal(err)
	}
	return reports{text.String(), md.String(), js.String()}
}

func golden(t *testing.T, file string, got string) {
	t.Helper()
	path := filepath.Join("testdata", file)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (run go test -update to accept):\n--- got\n%s\n--- want\n%s", file, got, want)
	}
}

// testPrices are fixed prices, so that the goldens do not change with the
// built-in table.
func testPrices(t *testing.T) *price.Set {
	t.Helper()
	ts, err := price.Parse("", []byte(`{"provider":"anthropic","read":"2026-01-01","source":"https://example.com/prices","models":[{"model":"claude-sonnet-5-5","input":2,"output":10}]}`))
	if err != nil {
		t.Fatal(err)
	}
	return price.NewSet(ts...)
}

func TestGolden(t *testing.T) {
	for _, name := range []string{"record", "invalid"} {
		s, r := testRun(t, name)
		res := grade.Run(s, r)
		out := render(t, res, &r.Header, "runs/"+res.RunID+"/record.jsonl", usage.NewCost(r, res.Totals.Passed, testPrices(t)))
		golden(t, name+".txt", out.text)
		golden(t, name+".md", out.md)
		golden(t, name+".json", out.js)
	}
}

// TestJSONShape checks the summary has the fields its readers rely on.
func TestJSONShape(t *testing.T) {
	res, h := graded(t, "record")
	var b bytes.Buffer
	if err := JSON(&b, res, h, "r/record.jsonl", nil); err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"run_id", "model", "valid", "record", "cases", "totals"} {
		if _, ok := m[k]; !ok {
			t.Errorf("summary lacks %q", k)
		}
	}
	cases := m["cases"].([]any)
	c0 := cases[0].(map[string]any)
	for _, k := range []string{"id", "group", "prompt", "attempts"} {
		if _, ok := c0[k]; !ok {
			t.Errorf("case lacks %q", k)
		}
	}
	a0 := c0["attempts"].([]any)[0].(map[string]any)
	if v := a0["verdict"]; v != "pass" && v != "fail" && v != "error" {
		t.Errorf("verdict %v", v)
	}
	if _, ok := a0["reasons"].([]any); !ok {
		t.Errorf("reasons is %T, want a list", a0["reasons"])
	}
	tot := m["totals"].(map[string]any)
	for _, k := range []string{"passed", "failed", "errors", "graded", "rate", "wilson_low", "wilson_high"} {
		if _, ok := tot[k]; !ok {
			t.Errorf("totals lack %q", k)
		}
	}
}

// TestNilHeader: without the record's header, each report still names the
// model, from the grades.
func TestNilHeader(t *testing.T) {
	res, _ := graded(t, "record")
	out := render(t, res, nil, "", nil)
	for format, out := range map[string]string{"text": out.text, "markdown": out.md, "json": out.js} {
		if !strings.Contains(out, "anthropic:claude-sonnet-5-5") {
			t.Errorf("the %s report lacks the model without a header:\n%s", format, out)
		}
	}
}

// TestCost: every format says what the run cost: dollars for a priced
// model, "unpriced" (never $0) for a model no table lists, free for a
// fake.
func TestCost(t *testing.T) {
	res, h := graded(t, "record")
	turn := record.Turn{Usage: model.Usage{Input: 1_000_000, Output: 100_000}}
	priced := &record.Run{Header: *h, Attempts: []record.Attempt{{Case: "a", Turns: []record.Turn{turn}}, {Case: "b"}}}
	unpriced := &record.Run{Header: *h, Attempts: priced.Attempts}
	unpriced.Header.Model = model.Info{Spec: "openai:llama3.2", Provider: "openai", Name: "llama3.2"}
	fake := &record.Run{Header: *h}
	fake.Header.Model = model.Info{Spec: "fake:perfect", Provider: "fake", Name: "perfect", Fake: true}
	for _, c := range []struct {
		name         string
		run          *record.Run
		want, absent string
	}{
		// claude-sonnet-5-5: 1M input at $2 + 100k output at $10 = $3 a run
		// of two attempts, one of which passed.
		{"priced", priced, "$3.00 per run, $1.50 per attempt, $3.00 per success", "unpriced"},
		{"unpriced", unpriced, "unpriced", "$"},
		{"fake", fake, "$0 (fake)", "unpriced"},
	} {
		cost := usage.NewCost(c.run, 1, nil)
		got := checkCost(t, c.name, render(t, res, h, "", cost), c.want, c.absent)
		if got.State != cost.State || (got.PerSuccessUSD == nil) != (cost.PerSuccessUSD == nil) {
			t.Errorf("%s json cost %+v, want %+v", c.name, got, cost)
		}
	}
}

// checkCost checks that the cost line of the text and Markdown reports in
// out says want and not absent, and returns the cost the JSON report
// gives; name names the run in the errors.
func checkCost(t *testing.T, name string, out reports, want, absent string) usage.Cost {
	t.Helper()
	for format, out := range map[string]string{"text": out.text, "markdown": out.md} {
		line := out[strings.Index(out, "ost"):]
		line = line[:strings.Index(line, "\n")]
		if !strings.Contains(line, want) || strings.Contains(line, absent) {
			t.Errorf("%s %s: cost line %q, want %q and no %q", name, format, line, want, absent)
		}
	}
	var sum struct{ Cost usage.Cost }
	if err := json.Unmarshal([]byte(out.js), &sum); err != nil {
		t.Fatal(err)
	}
	return sum.Cost
}
