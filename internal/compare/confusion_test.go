package compare

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/testkit/reporttest"
	"github.com/mcpeval/mcpeval/suite"
)

// keyedSuite is testSuite with each case's key calling get_<group>.
func keyedSuite(attempts int) *suite.Suite {
	s := testSuite(attempts)
	for _, c := range s.Cases {
		c.Key.Calls = []suite.KeyCall{{Tool: c.ExpectTools[0]}}
	}
	return s
}

// TestConfusionGrew compares a run where every attempt calls the key's
// tool with one where group beta calls get_alpha in all 10 attempts, and
// group gamma calls get_beta in one of 10: beta's confusion grew
// significantly, gamma's did not.
func TestConfusionGrew(t *testing.T) {
	s := keyedSuite(5)
	base := testRun(s, "base", allPass)
	nw := testRun(s, "new", func(c *suite.Case, n int) bool {
		return c.Group != "beta" && (c.ID != "gamma/one" || n != 1)
	})
	c := Compare(base, nw, grade.Run(s, base), grade.Run(s, nw))
	if len(c.Confusions) != 2 {
		t.Fatalf("confusions %+v, want 2", c.Confusions)
	}
	grew := c.ConfusionsWith(Grew)
	if len(grew) != 1 || grew[0].Wanted != "get_beta" || grew[0].Called != "get_alpha" {
		t.Fatalf("grew %+v, want get_beta → get_alpha", grew)
	}
	if g := grew[0]; g.Base != (ConfusionSide{0, 10}) || g.New != (ConfusionSide{10, 10}) || g.P > 1e-4 || g.Delta != 1 {
		t.Errorf("get_beta → get_alpha: %+v", g)
	}
	if r := c.Confusions[1]; r.Wanted != "get_gamma" || r.Called != "get_beta" || r.Verdict != Noise || r.New != (ConfusionSide{1, 10}) {
		t.Errorf("get_gamma → get_beta: %+v, want 1/10 within noise", r)
	}
	var text, md bytes.Buffer
	if err := Text(&text, c); err != nil {
		t.Fatal(err)
	}
	reporttest.Contains(t, "the text comparison", text.String(),
		"tool confusions that grew (significant at 0.05)\n  get_beta → get_alpha: 0/10 → 10/10 key calls, p=1.1e-05\n",
		"tool confusion p: "+ConfusionTest)
	if strings.Contains(text.String(), "no significant movement") {
		t.Error("the text comparison says nothing moved, though a confusion grew")
	}
	if strings.Contains(text.String(), "get_gamma → get_beta") {
		t.Error("the text comparison lists a confusion that did not move significantly")
	}
	if err := Markdown(&md, c); err != nil {
		t.Fatal(err)
	}
	reporttest.Contains(t, "the Markdown comparison", md.String(),
		"| `get_beta` | `get_alpha` | 0/10 | 10/10 | +100pts | 1.1e-05 | grew |",
		"| `get_gamma` | `get_beta` | 0/10 | 1/10 | +10pts | 1.000 | ~ |")

	// Compared the other way, the same confusion shrank.
	back := Compare(nw, base, grade.Run(s, nw), grade.Run(s, base))
	if sh := back.ConfusionsWith(Shrank); len(sh) != 1 || sh[0].Wanted != "get_beta" {
		t.Errorf("compared back, shrank %+v", sh)
	}
}

// A hostile tool name stays one line in the text comparison and in a
// code span in Markdown.
func TestConfusionNamesEscaped(t *testing.T) {
	s := keyedSuite(5)
	evil := "get_beta\x1b[2J\n| x |`"
	for _, c := range s.Cases {
		if c.Group == "beta" {
			c.Key.Calls[0].Tool = evil
		}
	}
	base := testRun(s, "base", func(c *suite.Case, _ int) bool { return c.Group != "beta" })
	nw := testRun(s, "new", func(c *suite.Case, _ int) bool { return c.Group != "beta" })
	c := Compare(base, nw, grade.Run(s, base), grade.Run(s, nw))
	var text, md bytes.Buffer
	Text(&text, c)
	Markdown(&md, c)
	for name, out := range map[string]string{"text": text.String(), "markdown": md.String()} {
		if strings.Contains(out, "\x1b") {
			t.Errorf("the %s comparison holds an escape character", name)
		}
	}
	reporttest.Contains(t, "the text comparison", text.String(), "tool confusion: 1 confusion made, none grew or shrank significantly at 0.05")
	var row string
	for _, l := range strings.Split(md.String(), "\n") {
		if strings.Contains(l, "get_alpha") && strings.HasPrefix(l, "| `` get_beta") {
			row = l
		}
	}
	if row == "" || strings.Count(strings.ReplaceAll(row, `\|`, ""), "|") != 8 {
		t.Errorf("the Markdown confusion row is broken: %q\n%s", row, md.String())
	}
}
