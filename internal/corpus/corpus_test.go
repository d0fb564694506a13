package corpus

import (
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// TestPromoteLoads: whatever the recorded prompt and arguments hold, the
// drafted file loads beside a suite.yaml, with the prompt and key as
// recorded and the case marked unverified.
func TestPromoteLoads(t *testing.T) {
	prompt := "Net worth: \"now\" # not a comment\n- and | more: {x} ünïcode \\ end"
	a := &record.Attempt{Case: "g/one", N: 2, Prompt: prompt, Turns: []record.Turn{{Calls: []record.Call{
		{Name: "get_net_worth", Args: json.RawMessage(`{"as_of": "2026-03-31", "note": "a: b # c"}`), Result: `{"net_worth_sgd": 2394755, "accounts": 5}`},
		{Name: "refused_tool", Args: json.RawMessage(`{}`), IsError: true},
	}}}}
	text := Promote(a, PromoteOptions{ID: "g/two", RunID: "run\nx", Model: "fake:perfect"})
	s, err := suite.LoadFS(fstest.MapFS{
		"suite.yaml":    {Data: []byte("name: s\n")},
		"promoted.yaml": {Data: text},
	}, ".", "s")
	if err != nil {
		t.Fatalf("the drafted case does not load: %v\n%s", err, text)
	}
	c := s.Cases[0]
	if c.ID != "g/two" || c.Prompt != prompt || !c.Unverified() {
		t.Errorf("case %q prompt %q unverified %v: want g/two, the recorded prompt, true\n%s", c.ID, c.Prompt, c.Unverified(), text)
	}
	if len(c.Key.Calls) != 1 || c.Key.Calls[0].Tool != "get_net_worth" || c.Key.Calls[0].Args["note"] != "a: b # c" {
		t.Errorf("key %+v: want the one call that reached its tool, its arguments as recorded", c.Key.Calls)
	}
	if strings.Join(c.Tools.Required, ",") != "get_net_worth" {
		t.Errorf("tools.required %v: want [get_net_worth]", c.Tools.Required)
	}
	if !strings.Contains(string(text), "#   - {value: 2394755}") || len(c.Figures) != 0 {
		t.Errorf("want the result's figure as a commented candidate, and no figure expected:\n%s", text)
	}
}

// TestMarkdownEscaped: a prompt cannot end its table cell or become HTML
// or a link in corpus --markdown.
func TestMarkdownEscaped(t *testing.T) {
	no := false
	s := &suite.Suite{Name: "s", Cases: []*suite.Case{
		{ID: "g/a", Group: "g", Prompt: "a | b <script>x</script> [l](http://e)", Key: suite.Key{Calls: []suite.KeyCall{{Tool: "t"}}}},
		{ID: "g/b", Group: "g", Prompt: "q", Verified: &no, Decline: true},
	}}
	c := Describe(s)
	if c.Verified != 1 || c.Total != 2 || c.Share() != "1/2 checked (50%)" {
		t.Errorf("verified %d of %d (%s): want 1 of 2", c.Verified, c.Total, c.Share())
	}
	var b strings.Builder
	if err := c.Markdown(&b); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, bad := range []string{"<script>", "[l]", "a | b"} {
		if strings.Contains(md, bad) {
			t.Errorf("the Markdown holds %q unescaped:\n%s", bad, md)
		}
	}
	if !strings.Contains(md, "| `g/b` | decline |  | no | q |") {
		t.Errorf("want the unchecked decline case's row:\n%s", md)
	}
}
