package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/grade/actions"
)

func col(num, den int) actions.Column { return actions.Column{Num: num, Den: den} }

// actionReport is a run's action columns: a model with a write kind that
// lost an argument and a decline kind that changed something.
func actionReport(model string) *actions.Report {
	write := actions.Row{Model: model, Kind: "write", Scored: 3, Excluded: map[string]int{"provider": 1},
		Columns: actions.Columns{Pass: col(2, 3), Reached: col(3, 3), FirstTime: col(2, 3), Arguments: col(5, 6),
			Confirmation: col(0, 0), Clean: col(3, 3), Declined: col(0, 0), Completion: col(3, 3)}}
	decline := actions.Row{Model: model, Kind: "decline", Scored: 2,
		Columns: actions.Columns{Pass: col(1, 2), Reached: col(0, 0), FirstTime: col(0, 0), Arguments: col(0, 0),
			Confirmation: col(0, 0), Clean: col(1, 2), Declined: col(1, 2), Completion: col(2, 2)}}
	all := actions.Row{Model: model, Scored: 5, Excluded: map[string]int{"provider": 1}}
	all.Columns.Add(write.Columns)
	all.Columns.Add(decline.Columns)
	return &actions.Report{Suite: "report-test", Models: []actions.Row{all}, Kinds: []actions.Row{write, decline},
		Attempts: []actions.Scored{{Model: model, Result: actions.Result{Case: "write/make", N: 2, Kind: "write", Reasons: []string{"step 1 (make_thing): argument name: want \"a\", got \"b\""}}}}}
}

// TestGoldenActions renders a run with action cases: the text, Markdown
// and JSON reports each carry the action columns, per model and kind.
func TestGoldenActions(t *testing.T) {
	res, h := graded(t, "record")
	res.Actions = actionReport(res.Model)
	var text, md, js bytes.Buffer
	if err := Text(&text, res, h, nil); err != nil {
		t.Fatal(err)
	}
	if err := Markdown(&md, res, h, nil); err != nil {
		t.Fatal(err)
	}
	if err := JSON(&js, res, h, "runs/"+res.RunID+"/record.jsonl", nil); err != nil {
		t.Fatal(err)
	}
	golden(t, "actions.txt", text.Bytes())
	golden(t, "actions.md", md.Bytes())
	golden(t, "actions.json", js.Bytes())

	for _, want := range []string{"action scores", "first time", "  write", "  decline", "60% 3/5", "5/6", "provider 1"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, text.String())
		}
	}
	if !strings.Contains(md.String(), "| &nbsp;&nbsp;write | 3 | 67% 2/3 | 21%–94% | 3/3 | 2/3 | 5/6 | — | 3/3 | — | 3/3 | provider 1 |") {
		t.Errorf("Markdown report lacks the write row:\n%s", md.String())
	}
	var sum struct {
		Actions *actions.Report `json:"actions"`
	}
	if err := json.Unmarshal(js.Bytes(), &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Actions == nil || len(sum.Actions.Kinds) != 2 || sum.Actions.Models[0].Columns.Arguments != col(5, 6) {
		t.Errorf("JSON summary actions = %+v", sum.Actions)
	}

	// A run without action cases shows no action table.
	res.Actions = nil
	text.Reset()
	md.Reset()
	js.Reset()
	Text(&text, res, h, nil)
	Markdown(&md, res, h, nil)
	JSON(&js, res, h, "", nil)
	for name, out := range map[string]string{"text": text.String(), "markdown": md.String(), "json": js.String()} {
		if strings.Contains(strings.ToLower(out), "action") {
			t.Errorf("%s report of a run without action cases mentions actions:\n%s", name, out)
		}
	}
}

// TestActionsMarkdownEscaped: a model name cannot break the action table,
// link, or show an image.
func TestActionsMarkdownEscaped(t *testing.T) {
	res, h := graded(t, "record")
	res.Actions = actionReport("evil|`x`![i](http://e/i.png)[l](http://e)<b>")
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
