package overlay

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpeval/mcpeval/record"
)

func tools() []record.Tool {
	return []record.Tool{
		{Name: "get_net_worth", Description: "Net worth now.", InputSchema: json.RawMessage(`{"type":"object"}`), ReadOnly: true},
		{Name: "get_net_worth_history", Description: "Net worth by month.", ReadOnly: true,
			InputSchema: json.RawMessage(`{"additionalProperties":false,"properties":{"months":{"default":12,"description":"months to return","minimum":1,"type":"integer"}},"type":"object"}`)},
		{Name: "get_holdings", Description: "Holdings.", InputSchema: json.RawMessage(`{"type":"object"}`), ReadOnly: true},
	}
}

func TestApply(t *testing.T) {
	o, err := Load("testdata/household.yaml")
	if err != nil {
		t.Fatal(err)
	}
	in := tools()
	before, _ := json.Marshal(in)
	out, err := o.Apply(in)
	if err != nil {
		t.Fatal(err)
	}
	if after, _ := json.Marshal(in); string(after) != string(before) {
		t.Errorf("Apply changed its input")
	}
	want := tools()
	want[0].Description = "Today's net worth in SGD, every account converted at the latest rate."
	want[1].Description = "Net worth at the end of each month, oldest first, up to 2026-09."
	want[1].InputSchema = json.RawMessage(`{"additionalProperties":false,"properties":{"months":{"default":12,"description":"How many month-ends to return, counting back from 2026-09 (7 reaches March 2026).","minimum":1,"type":"integer"}},"type":"object"}`)
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("Apply (-want +got):\n%s", diff)
	}
}

// TestUnknown: every unknown tool and parameter is reported at its line,
// against the tools the target lists, and nothing is applied.
func TestUnknown(t *testing.T) {
	o, err := Load("testdata/unknown.yaml")
	if err != nil {
		t.Fatal(err)
	}
	out, err := o.Apply(tools())
	if out != nil {
		t.Errorf("Apply returned tools despite errors")
	}
	want := "testdata/unknown.yaml:2: tool get_net_worth_histroy: the target lists no such tool (it lists get_net_worth, get_net_worth_history, get_holdings)\n" +
		"testdata/unknown.yaml:6: tool get_net_worth_history: parameter month: the tool's input schema has no such property (it has months)\n" +
		"testdata/unknown.yaml:9: tool get_net_worth: parameter months: the tool's input schema has no such property (it takes no parameters)"
	if err == nil || err.Error() != want {
		t.Errorf("Apply error:\n%v\nwant:\n%s", err, want)
	}
	var es Errors
	if !errors.As(err, &es) || len(es) != 3 {
		t.Errorf("want 3 located Errors, got %#v", err)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "o.yaml: the file is empty"},
		{"tool:\n  x: {description: y}\n", "o.yaml:1: unknown field \"tool\""},
		{"tools: []\n", "o.yaml:1: tools: want a mapping"},
		{"tools:\n  a:\n    description: \"\"\n", "o.yaml:3: tool a: description is empty"},
		{"tools:\n  a:\n    description:\n", "o.yaml:3: tool a: description: want text"},
		{"tools:\n  a:\n    descripton: x\n", "o.yaml:3: tool a: unknown field \"descripton\""},
		{"tools:\n  a: {}\n", "o.yaml:2: tool a changes nothing"},
		{"tools:\n  a: {description: x}\n  a: {description: y}\n", "o.yaml:3: tool a is already edited at line 2"},
		{"tools:\n  a: x\n", "o.yaml:2: tool a: want a mapping with description and/or params"},
		{"tools:\n  [a]: {description: x}\n", "o.yaml:2: a tool name must be a string"},
		{"tools:\n  a:\n    params:\n      p: [1]\n", "o.yaml:4: tool a: parameter p: want its new description"},
		{"tools: {a: {description: x}\n", "o.yaml:"},
		{"tools:\n  a: {description: \xff}\n", "o.yaml:2: not valid UTF-8"},
		{"tools:\n  a: {description: x\x01y}\n", "o.yaml:2: control characters are not allowed"},
	}
	for _, tt := range tests {
		_, err := Parse([]byte(tt.in), "o.yaml")
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("Parse(%q) = %v, want an error starting %q", tt.in, err, tt.want)
		}
	}
}

func TestHash(t *testing.T) {
	a, err := Parse([]byte("tools:\n  b: {params: {y: Y, x: X}}\n  a: {description: A}\n"), "a.yaml")
	if err != nil {
		t.Fatal(err)
	}
	b, err := Parse([]byte("# the same edits, laid out differently\ntools:\n  a:\n    description: A\n  b:\n    params:\n      x: X\n      y: Y\n"), "b.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if a.Hash() != b.Hash() {
		t.Errorf("the same edits hash differently: %s, %s", a.Hash(), b.Hash())
	}
	c, _ := Parse([]byte("tools:\n  a: {description: A.}\n  b: {params: {x: X, y: Y}}\n"), "c.yaml")
	if c.Hash() == a.Hash() {
		t.Errorf("different edits hash the same")
	}
	if info := a.Info(); info.Path != "a.yaml" || info.Hash != a.Hash() {
		t.Errorf("Info = %+v", info)
	}
}

// FuzzLoad: no input makes Parse or Apply panic; every error is located
// in the file; what parses applies deterministically.
func FuzzLoad(f *testing.F) {
	for _, p := range []string{"testdata/household.yaml", "testdata/unknown.yaml", "testdata/outputs.yaml"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		o, err := Parse(data, "fuzz.yaml")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.yaml") {
				t.Fatalf("error not located: %v", err)
			}
			return
		}
		a, errA := o.Apply(tools())
		b, errB := o.Apply(tools())
		if (errA == nil) != (errB == nil) || !cmp.Equal(a, b) {
			t.Fatalf("Apply is not deterministic")
		}
		if errA != nil && !strings.HasPrefix(errA.Error(), "fuzz.yaml:") {
			t.Fatalf("Apply error not located: %v", errA)
		}
		for _, tl := range a {
			if !json.Valid(tl.InputSchema) {
				t.Fatalf("tool %s: input schema no longer JSON: %s", tl.Name, tl.InputSchema)
			}
		}
		for _, e := range o.Outputs {
			_, st, _ := o.Rewrite(`{"a":[{"b":1}],"c":"d"}`, json.RawMessage(`{"a":[{"b":1},{"b":2}],"c":"d"}`), e.Name)
			if !json.Valid(st) {
				t.Fatalf("tool %s: rewritten structured content no longer JSON: %s", e.Name, st)
			}
		}
		again, err := Parse(data, "fuzz.yaml")
		if err != nil || again.Hash() != o.Hash() {
			t.Fatalf("Hash is not stable: the same file parsed twice hashes differently")
		}
	})
}

func TestLoadMissing(t *testing.T) {
	if _, err := Load(filepath.Join(t.TempDir(), "none.yaml")); err == nil {
		t.Error("loading a missing file succeeded")
	}
}
