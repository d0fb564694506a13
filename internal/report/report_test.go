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

// graded grades testdata/<name>.jsonl against testdata/suite.yaml.
func graded(t *testing.T, name string) (*grade.Result, *record.Header) {
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
	return grade.Run(s, r), &r.Header
}

func golden(t *testing.T, file string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", file)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
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
		res, h := graded(t, name)
		r, err := record.Read(filepath.Join("testdata", name+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		cost := usage.NewCost(r, res.Totals.Passed, testPrices(t))
		var text, md, js bytes.Buffer
		if err := Text(&text, res, h, cost); err != nil {
			t.Fatal(err)
		}
		if err := Markdown(&md, res, h, cost); err != nil {
			t.Fatal(err)
		}
		if err := JSON(&js, res, h, "runs/"+res.RunID+"/record.jsonl", cost); err != nil {
			t.Fatal(err)
		}
		golden(t, name+".txt", text.Bytes())
		golden(t, name+".md", md.Bytes())
		golden(t, name+".json", js.Bytes())
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

func TestNilHeader(t *testing.T) {
	res, _ := graded(t, "record")
	var b bytes.Buffer
	if err := Text(&b, res, nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := Markdown(&b, res, nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := JSON(&b, res, nil, "", nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "anthropic:claude-sonnet-5-5") {
		t.Error("the model is missing without a header")
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
		var text, md, js bytes.Buffer
		if err := Text(&text, res, h, cost); err != nil {
			t.Fatal(err)
		}
		if err := Markdown(&md, res, h, cost); err != nil {
			t.Fatal(err)
		}
		if err := JSON(&js, res, h, "", cost); err != nil {
			t.Fatal(err)
		}
		for format, out := range map[string]string{"text": text.String(), "markdown": md.String()} {
			line := out[strings.Index(out, "ost"):]
			line = line[:strings.Index(line, "\n")]
			if !strings.Contains(line, c.want) || strings.Contains(line, c.absent) {
				t.Errorf("%s %s: cost line %q, want %q and no %q", c.name, format, line, c.want, c.absent)
			}
		}
		var sum struct{ Cost usage.Cost }
		if err := json.Unmarshal(js.Bytes(), &sum); err != nil {
			t.Fatal(err)
		}
		if sum.Cost.State != cost.State || (sum.Cost.PerSuccessUSD == nil) != (cost.PerSuccessUSD == nil) {
			t.Errorf("%s json cost %+v, want %+v", c.name, sum.Cost, cost)
		}
	}
}
