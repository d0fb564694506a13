package view

import (
	"html"
	"strings"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// hostileTool is a tool name a server could list: markup, quotes, a
// fake attribute.
const hostileTool = `x"><script>window.__pwned=1</script>`

// confusedSuite is the test suite with keys: the net-worth case wants
// get_accounts (its attempts call get_net_worth), the deposit case wants
// hostileTool (its attempts call get_accounts).
func confusedSuite(h *record.Header) (*suite.Suite, error) {
	s, err := testSuite(h)
	if err != nil {
		return nil, err
	}
	s.Case("money/net-worth").Key.Calls = []suite.KeyCall{{Tool: "get_accounts"}}
	s.Case("money/deposit").Key.Calls = []suite.KeyCall{{Tool: hostileTool}}
	return s, nil
}

func TestRunPageShowsTheConfusionHeatMap(t *testing.T) {
	root := t.TempDir()
	var as []answer
	for range 2 {
		as = append(as, answer{"money/net-worth", rightWorth}, answer{"money/deposit", rightDeposit})
	}
	writeRun(t, root+"/r", "confused", "fake:perfect", time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC), as, false)
	_, ts := serve(t, Options{Dirs: []string{root}, Suite: confusedSuite, Reviewer: "alice", Version: "test"})
	code, body, _ := get(t, ts.URL, "/run/confused")
	if code != 200 {
		t.Fatalf("GET /run/confused: %d\n%s", code, body)
	}
	checkEscaped(t, "the run page", body)
	if strings.Contains(body, hostileTool) {
		t.Error("the run page holds the hostile tool name unescaped")
	}
	for _, want := range []string{
		`data-check="confusion-map"`,
		// Rows are the tools wanted, sorted; columns the tools called.
		`<th class="mono">get_accounts</th><th class="mono">get_net_worth</th></tr>`,
		// The net-worth case's 2 key calls all went to get_net_worth: a
		// full-intensity cell linking to its list.
		`<td class="cf cf5"><a href="#confusion-0-1" title="2 of 2 key calls of get_accounts: get_net_worth">2</a></td>`,
		// The list links to each attempt.
		`<div class="confusion-list" id="confusion-0-1">`,
		`href="` + html.EscapeString(attemptPath("confused", "money/net-worth", 1)) + `"`,
		`href="` + html.EscapeString(attemptPath("confused", "money/net-worth", 2)) + `"`,
		// The top confusion names both tools' descriptions.
		`<td class="mono">get_accounts</td><td class="mono">get_net_worth</td><td class="num"><a href="#confusion-0-1">2 of 2</a></td><td class="small">Accounts.</td><td class="small">Net worth. &lt;script&gt;`,
		html.EscapeString(hostileTool),
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the run page lacks %s", want)
		}
	}
}
