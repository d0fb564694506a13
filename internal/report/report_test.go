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

func TestGolden(t *testing.T) {
	for _, name := range []string{"record", "invalid"} {
		res, h := graded(t, name)
		var text, md, js bytes.Buffer
		if err := Text(&text, res, h); err != nil {
			t.Fatal(err)
		}
		if err := Markdown(&md, res, h); err != nil {
			t.Fatal(err)
		}
		if err := JSON(&js, res, h, "runs/"+res.RunID+"/record.jsonl"); err != nil {
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
	if err := JSON(&b, res, h, "r/record.jsonl"); err != nil {
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
	if err := Text(&b, res, nil); err != nil {
		t.Fatal(err)
	}
	if err := Markdown(&b, res, nil); err != nil {
		t.Fatal(err)
	}
	if err := JSON(&b, res, nil, ""); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "anthropic:claude-sonnet-5-5") {
		t.Error("the model is missing without a header")
	}
}
