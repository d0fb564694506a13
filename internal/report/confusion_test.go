package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/testkit/reporttest"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// A server names and describes its tools: both are untrusted text.
const (
	evilTool = "get_|`x`|<b>\x1b[31m"
	evilDesc = "Gets **all**\n| table | break |\n<script>alert(1)</script>\x1b]0;title\a"
)

// confusedResult is a graded run whose case's key calls get_accounts,
// answered twice by calling evilTool instead.
func confusedResult(t *testing.T) (*grade.Result, *record.Header) {
	res, r := confusedRun(t)
	return res, &r.Header
}

func confusedRun(t *testing.T) (*grade.Result, *record.Run) {
	t.Helper()
	s := &suite.Suite{Name: "t", Cases: []*suite.Case{{ID: "c/one", Group: "c", Key: suite.Key{Calls: []suite.KeyCall{{Tool: "get_accounts"}}}}}}
	h := record.Header{RunID: "r", Preflight: record.Preflight{Valid: true}, Tools: []record.Tool{
		{Name: "get_accounts", Description: "Lists the accounts."}, {Name: evilTool, Description: evilDesc}}}
	r := &record.Run{Header: h, End: &record.End{Complete: true}}
	for n := 1; n <= 2; n++ {
		r.Attempts = append(r.Attempts, record.Attempt{Case: "c/one", N: n, End: record.EndAnswered, Answer: "ok",
			Turns: []record.Turn{{Calls: []record.Call{{Name: evilTool, Shown: true}}}}})
	}
	return grade.Run(s, r), r
}

func TestConfusionInEveryFormat(t *testing.T) {
	res, h := confusedResult(t)
	out := render(t, res, h, "record.jsonl", nil)
	for name, body := range map[string]string{"text": out.text, "markdown": out.md} {
		if strings.Contains(body, "\x1b") || strings.Contains(body, "\a") {
			t.Errorf("%s report holds a terminal control character", name)
		}
	}
	// Markup outside a code span would be HTML to a Markdown reader; a
	// tool's name is in a code span, its description escaped.
	if strings.Contains(out.md, "<script>") {
		t.Errorf("the Markdown report holds raw markup:\n%s", out.md)
	}
	reporttest.Contains(t, "the text report", out.text,
		"Tool confusion (key calls the model made to another tool, the most frequent first):",
		"  2 of 2 key calls of get_accounts went to get_|`x`|<b>",
		"(c/one #1, #2)",
		"    wanted get_accounts: Lists the accounts.",
		"    called get_|`x`|")
	// The Markdown table keeps one row per confusion: the pipes of the
	// name and the description are escaped, the description on one line.
	var row string
	for _, l := range strings.Split(out.md, "\n") {
		if strings.HasPrefix(l, "| `get_accounts`") {
			row = l
		}
	}
	if row == "" {
		t.Fatalf("no confusion row in the Markdown report:\n%s", out.md)
	}
	if cells := strings.Count(strings.ReplaceAll(row, `\|`, ""), "|"); cells != 6 {
		t.Errorf("the confusion row has %d pipes, want 6 (5 cells): %s", cells, row)
	}
	reporttest.Contains(t, "the Markdown confusion row", row, "| 2 of 2 |", "Lists the accounts.", `Gets \*\*all\*\* \| table \| break \|`)
	var sum struct {
		Confusion *grade.Confusion `json:"confusion"`
	}
	if err := json.Unmarshal([]byte(out.js), &sum); err != nil {
		t.Fatal(err)
	}
	if top := sum.Confusion.Top(1); len(top) != 1 || top[0].Called != evilTool || sum.Confusion.Tools[evilTool] != evilDesc {
		t.Errorf("the JSON summary's confusion %+v", sum.Confusion)
	}
}

// A run where the model called every key tool shows no confusion
// section, in text or Markdown.
func TestNoConfusionNoSection(t *testing.T) {
	res, h := confusedResult(t)
	res.Confusion.Calls = []grade.ConfusionCell{{Wanted: "get_accounts", Called: "get_accounts", Count: 2}}
	var text, md bytes.Buffer
	Text(&text, res, h, nil)
	Markdown(&md, res, h, nil)
	if strings.Contains(text.String(), "Tool confusion") || strings.Contains(md.String(), "Tool confusion") {
		t.Errorf("a run without confusion shows a confusion section:\n%s\n%s", text.String(), md.String())
	}
}

func TestConfusionOnTheHTMLPage(t *testing.T) {
	res, r := confusedRun(t)
	var page bytes.Buffer
	if err := HTML(&page, &RunPage{Run: r, Result: res}); err != nil {
		t.Fatal(err)
	}
	body := page.String()
	if strings.Contains(body, "<script>alert") || strings.Contains(body, "<b>\x1b") {
		t.Error("the HTML page holds a tool's name or description unescaped")
	}
	top := reporttest.Section(t, body, "Tool confusion")
	reporttest.Contains(t, "the HTML page's confusion", top,
		`<td class="mono">get_accounts</td><td class="mono">get_|`+"`x`"+`|&lt;b&gt;`,
		`<a href="#confusion-0-0">2 of 2</a></td><td class="small">Lists the accounts.</td><td class="small">Gets **all**`,
		"&lt;script&gt;alert(1)&lt;/script&gt;",
		// Without a viewer to link to, a cell's attempts are named.
		`<div class="confusion-list" id="confusion-0-0"><b class="mono">get_accounts</b> → <b class="mono">get_|`)
	if !strings.Contains(top, `<span class="mono">c/one #1</span>, <span class="mono">c/one #2</span>`) {
		t.Errorf("the cell's list does not name its attempts:\n%s", top)
	}
}
