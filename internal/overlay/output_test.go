package overlay

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestRewrite: each edit of the file does what the format says, in the
// fixed order (a path after a rename names the new key), and a result of a
// tool the overlay does not name is left alone.
func TestRewrite(t *testing.T) {
	o, err := Load("testdata/outputs.yaml")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		tool, text, structured string
		wantText, wantStruct   string
		changed                bool
	}{{
		tool:       "get_net_worth",
		text:       "Net worth as of 2026-09-30: SGD 2,394,755, across 5 accounts.",
		structured: `{"as_of":"2026-09-30","currency":"SGD","net_worth_sgd":2394755,"account_count":5}`,
		wantText:   `{"total":"2394755 SGD","as_of":"2026-09-30"}`,
		wantStruct: `{"total":"2394755 SGD","as_of":"2026-09-30"}`,
		changed:    true,
	}, {
		// No structured content: the text, being JSON, is what the edits read.
		tool:     "get_accounts",
		text:     `{"accounts":[{"id":"a","owners":["x"],"balance":1,"sgd_per_unit":1},{"id":"b","balance":2}],"total_sgd":3}`,
		wantText: `{"accounts":[{"id":"a","balance":1}],"total_sgd":3}`,
		changed:  true,
	}, {
		tool:       "get_holdings",
		text:       "2 holdings",
		structured: `{"holdings":[{"symbol":"BND"},{"symbol":"VT"}]}`,
		wantText:   `{holdings}: BND, VT (as the server said: 2 holdings)`,
		wantStruct: `{"holdings":[{"symbol":"BND"},{"symbol":"VT"}]}`,
		changed:    true,
	}, {
		tool:       "get_cashflow",
		text:       "untouched",
		structured: `{"net":1}`,
		wantText:   "untouched",
		wantStruct: `{"net":1}`,
	}}
	for _, tt := range tests {
		var in json.RawMessage
		if tt.structured != "" {
			in = json.RawMessage(tt.structured)
		}
		text, st, changed := o.Rewrite(tt.text, in, tt.tool, "")
		if text != tt.wantText || string(st) != tt.wantStruct || changed != tt.changed {
			t.Errorf("Rewrite %s = %q, %s, %t\nwant %q, %s, %t", tt.tool, text, st, changed, tt.wantText, tt.wantStruct, tt.changed)
		}
	}
	// A tool of one of several servers is found by SERVER/TOOL too.
	s, err := Parse([]byte("outputs:\n  home/get_net_worth: {drop: [net_worth_sgd]}\n"), "s.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if text, _, changed := s.Rewrite(`{"net_worth_sgd":1,"as_of":"x"}`, nil, "home__get_net_worth", "home/get_net_worth"); !changed || text != `{"as_of":"x"}` {
		t.Errorf("Rewrite by SERVER/TOOL = %q, %t", text, changed)
	}
}

// TestOutputUnknown: an output edit of a tool the target does not list is
// reported at its line, beside the description errors, and nothing is
// applied.
func TestOutputUnknown(t *testing.T) {
	o, err := Load("testdata/outputs-unknown.yaml")
	if err != nil {
		t.Fatal(err)
	}
	_, err = o.Apply(tools())
	want := "testdata/outputs-unknown.yaml:5: outputs: tool get_networth: the target lists no such tool (it lists get_net_worth, get_net_worth_history, get_holdings)"
	if err == nil || err.Error() != want {
		t.Errorf("Apply error:\n%v\nwant:\n%s", err, want)
	}
}

func TestOutputParseErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"outputs: []\n", "o.yaml:1: outputs: want a mapping"},
		{"outputs:\n  a: {}\n", "o.yaml:2: outputs: tool a changes nothing"},
		{"outputs:\n  a:\n    dorp: [x]\n", `o.yaml:3: outputs: tool a: unknown field "dorp"`},
		{"outputs:\n  a:\n    drop: [x..y]\n", `o.yaml:3: outputs: tool a: drop: "x..y" is not a path`},
		{"outputs:\n  a:\n    rename: {x: a.b}\n", "o.yaml:3: outputs: tool a: rename: x: want its new key name as text, without dots"},
		{"outputs:\n  a:\n    limit: {x: -1}\n", "o.yaml:3: outputs: tool a: limit: x: want how many items"},
		{"outputs:\n  a:\n    keep: [x.y]\n", "o.yaml:3: outputs: tool a: keep: x.y: keep names keys of the top-level object"},
		{"outputs:\n  a:\n    text: \"{x\"\n", "o.yaml:3: outputs: tool a: text: the { at byte 1 is never closed"},
		{"outputs:\n  a:\n    text: \"x}\"\n", "o.yaml:3: outputs: tool a: text: the } at byte 2 closes nothing"},
		{"outputs:\n  a: {drop: [x]}\n  a: {drop: [y]}\n", "o.yaml:3: outputs: tool a is already edited at line 2"},
		{"outputs:\n  a: x\n", "o.yaml:2: outputs: tool a: want a mapping with rename, drop, limit, units, keep or text"},
		{"outputs:\n  [a]: {drop: [x]}\n", "o.yaml:2: outputs: a tool name must be a string"},
		{"outputs:\n  a: {drop: [x]}\nextra: 1\n", `o.yaml:3: unknown field "extra"`},
	}
	for _, tt := range tests {
		_, err := Parse([]byte(tt.in), "o.yaml")
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("Parse(%q) = %v, want an error starting %q", tt.in, err, tt.want)
		}
	}
}

// TestOutputHash: a file without outputs: hashes as it always did (a run
// made before output overlays resumes with its file), outputs change the
// hash, and the record names each tool's edit with a hash of its own.
func TestOutputHash(t *testing.T) {
	d, err := Load("testdata/household.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := d.Hash(), "c38c91471f08"; !strings.HasPrefix(got, want) {
		t.Errorf("Hash of a description overlay = %s, want it to start %s as before outputs: existed", got, want)
	}
	a, _ := Parse([]byte("outputs:\n  t: {drop: [x]}\n"), "a.yaml")
	b, _ := Parse([]byte("outputs:\n  t: {drop: [y]}\n"), "b.yaml")
	if a.Hash() == b.Hash() {
		t.Error("different output edits hash the same")
	}
	info := a.Info()
	if len(info.Outputs) != 1 || info.Outputs[0].Tool != "t" || info.Outputs[0].Edits != "drop x" || len(info.Outputs[0].Hash) != 64 {
		t.Errorf("Info().Outputs = %+v", info.Outputs)
	}
	if d.Info().Outputs != nil {
		t.Error("a description overlay names output edits")
	}
}
