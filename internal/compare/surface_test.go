package compare

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/record"
)

// TestCompareSurfaces: two runs of one suite on two surfaces are labelled
// with their surfaces, and the surface is the first change after the
// model.
func TestCompareSurfaces(t *testing.T) {
	s := testSuite(3)
	base, nw := testRun(s, "base", allPass), testRun(s, "new", allPass)
	base.Header.Surface = &record.Surface{Name: "individual"}
	nw.Header.Surface = &record.Surface{Name: "meta|`x"}
	c := Compare(base, nw, grade.Run(s, base), grade.Run(s, nw))
	if len(c.Changes) == 0 || c.Changes[0] != (Change{What: "surface", Base: "individual", New: "meta|`x"}) {
		t.Fatalf("changes %+v: want the surface first", c.Changes)
	}
	if c.Base.Surface != "individual" || c.New.Surface != "meta|`x" {
		t.Errorf("run infos name surfaces %q and %q", c.Base.Surface, c.New.Surface)
	}
	var text, md bytes.Buffer
	if err := Text(&text, c); err != nil {
		t.Fatal(err)
	}
	if err := Markdown(&md, c); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"on surface individual", "on surface meta|`x"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text does not say %q:\n%s", want, text.String())
		}
	}
	if !strings.Contains(md.String(), "on surface individual, new") || strings.Contains(md.String(), "meta|`x") {
		t.Errorf("Markdown does not label the surfaces, escaped:\n%s", md.String())
	}
	base.Header.Surface, nw.Header.Surface = nil, nil
	if c := Compare(base, nw, grade.Run(s, base), grade.Run(s, nw)); len(c.Changes) > 0 && c.Changes[0].What == "surface" {
		t.Errorf("runs of a suite without surfaces differ in surface")
	}
}
