package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/grade/actions"
	"github.com/mcpeval/mcpeval/internal/testkit/reporttest"
)

// TestGoldenActions renders a run with action cases: the text, Markdown
// and JSON reports each carry the action columns, per model and kind.
func TestGoldenActions(t *testing.T) {
	res, h := graded(t, "record")
	res.Actions = reporttest.ActionReport(res.Model)
	out := render(t, res, h, "runs/"+res.RunID+"/record.jsonl", nil)
	golden(t, "actions.txt", out.text)
	golden(t, "actions.md", out.md)
	golden(t, "actions.json", out.js)

	reporttest.Contains(t, "text report", out.text, "action scores", "first time", "  write", "  decline", "60% 3/5", "5/6", "provider 1")
	if !strings.Contains(out.md, "| &nbsp;&nbsp;write | 3 | 67% 2/3 | 21%–94% | 3/3 | 2/3 | 5/6 | — | 3/3 | — | 3/3 | provider 1 |") {
		t.Errorf("Markdown report lacks the write row:\n%s", out.md)
	}
	var sum struct {
		Actions *actions.Report `json:"actions"`
	}
	if err := json.Unmarshal([]byte(out.js), &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Actions == nil || len(sum.Actions.Kinds) != 2 || sum.Actions.Models[0].Columns.Arguments != (actions.Column{Num: 5, Den: 6}) {
		t.Errorf("JSON summary actions = %+v", sum.Actions)
	}

	// A run without action cases shows no action table.
	res.Actions = nil
	out = render(t, res, h, "", nil)
	for name, out := range map[string]string{"text": out.text, "markdown": out.md, "json": out.js} {
		if strings.Contains(strings.ToLower(out), "action") {
			t.Errorf("%s report of a run without action cases mentions actions:\n%s", name, out)
		}
	}
}

// TestActionsMarkdownEscaped: a model name cannot break the action table,
// link, or show an image.
func TestActionsMarkdownEscaped(t *testing.T) {
	res, h := graded(t, "record")
	res.Actions = reporttest.ActionReport("evil|`x`![i](http://e/i.png)[l](http://e)<b>")
	var md bytes.Buffer
	if err := Markdown(&md, res, h, nil); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"|`x`", "![i](", "[l](", "<b>"} {
		if strings.Contains(md.String(), bad) {
			t.Errorf("Markdown report holds %q unescaped:\n%s", bad, md.String())
		}
	}
	if !strings.Contains(md.String(), `| **evil\|'x'!\[i\](http:\/\/e/i.png)\[l\](http:\/\/e)&lt;b&gt;** |`) {
		t.Errorf("Markdown report does not show the model name escaped:\n%s", md.String())
	}
}

// TestNoActionTableWithoutActionAttempts: a run of a suite that has action
// cases, but that ran none of them, gets no action table (the model's row
// would be all zeros).
func TestNoActionTableWithoutActionAttempts(t *testing.T) {
	res, h := graded(t, "record")
	res.Actions = &actions.Report{Suite: "report-test", Models: []actions.Row{{Model: res.Model, PassHigh: 1}}}
	out := render(t, res, h, "", nil)
	for name, out := range map[string]string{"text": out.text, "markdown": out.md} {
		if strings.Contains(strings.ToLower(out), "action scores") {
			t.Errorf("%s report of a run without action attempts shows the action table:\n%s", name, out)
		}
	}
}
