package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/grade/actions"
	"github.com/mcpeval/mcpeval/internal/testkit/reporttest"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
)

// surfaceRun is a graded run on surface name that passed passed of graded
// attempts, reaching reached of 10 steps.
func surfaceRun(name string, tools, passed, graded, reached int) SurfaceRun {
	h := record.Header{RunID: "run-" + name, Suite: record.SuiteInfo{Name: "ops"}, Model: model.Info{Spec: "fake:perfect"}, Surface: &record.Surface{Name: name}}
	for range tools {
		h.Tools = append(h.Tools, record.Tool{Name: "t"})
	}
	res := &grade.Result{Model: "fake:perfect"}
	res.Totals.Passed, res.Totals.Failed, res.Totals.Graded = passed, graded-passed, graded
	res.Totals.Rate = float64(passed) / float64(graded)
	res.Totals.WilsonLow, res.Totals.WilsonHigh = 0.5, 0.9
	res.Actions = &actions.Report{Models: []actions.Row{{Model: "fake:perfect", Scored: graded,
		Columns: actions.Columns{Pass: actions.Column{Num: passed, Den: graded}, Reached: actions.Column{Num: reached, Den: 10}}}}}
	return SurfaceRun{Record: &record.Run{Header: h}, Result: res}
}

// TestSurfacesSideBySide: one row per surface, each with its tools, pass
// rate, interval and action columns, in text, Markdown and JSON; a
// surface's name is escaped for where it lands.
func TestSurfacesSideBySide(t *testing.T) {
	s := BuildSurfaces([]SurfaceRun{surfaceRun("individual", 36, 9, 10, 10), surfaceRun("meta|\x1b[31m", 7, 6, 10, 8)})
	var text, md, js bytes.Buffer
	if err := SurfacesText(&text, s); err != nil {
		t.Fatal(err)
	}
	if err := SurfacesMarkdown(&md, s); err != nil {
		t.Fatal(err)
	}
	if err := SurfacesJSON(&js, s); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(text.String()), "\n")
	if len(lines) != 10 {
		t.Fatalf("text has %d lines, want a title, a head, two rows, the test's note, and the cost table's title, head and two rows:\n%s", len(lines), text.String())
	}
	reporttest.Contains(t, "text head", lines[1], "surface", "tools", "pass", "95% CI", "reached", "completion")
	for i, want := range [][]string{{"individual", "36", "90% 9/10", "[50%, 90%]", "10/10"}, {"meta|", "7", "60% 6/10", "8/10"}} {
		reporttest.Contains(t, fmt.Sprintf("text row %d", i+1), lines[2+i], want...)
	}
	if strings.Contains(text.String(), "\x1b") || strings.Contains(md.String(), "\x1b") {
		t.Errorf("an escape sequence from a surface name reached the output")
	}
	if !strings.Contains(md.String(), "| `individual` | `fake:perfect` | 36 | 90% 9/10 | 50%–90% | — | — | 10/10 |") {
		t.Errorf("Markdown lacks the individual row:\n%s", md.String())
	}
	if !strings.Contains(md.String(), `meta\|`) {
		t.Errorf("Markdown does not escape the pipe in a surface name:\n%s", md.String())
	}
	var back Surfaces
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Rows) != 2 || back.Rows[1].Tools != 7 || back.Rows[1].Columns.Reached.Num != 8 || back.Rows[0].Counts.Passed != 9 {
		t.Errorf("JSON rows: %+v", back.Rows)
	}
}

// TestTextNamesSurface: a run's report says which surface it measured.
func TestTextNamesSurface(t *testing.T) {
	r := surfaceRun("meta", 7, 6, 10, 8)
	var b bytes.Buffer
	if err := Text(&b, r.Result, &r.Record.Header, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "\nsurface meta\n") {
		t.Errorf("the report does not name the surface:\n%s", b.String())
	}
}
