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
		// The first-tool map: both attempts of the case called
		// get_net_worth first where the key calls get_accounts first.
		`<div class="confusion-scroll" id="confusion-first-map">`,
		`<a href="#confusion-first-0-1" title="2 of 2 attempts whose key calls first get_accounts: get_net_worth">2</a>`,
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

// TestHistory shows a suite's runs per model, oldest first, each with its
// pass rate, cost and top confusion.
func TestHistory(t *testing.T) {
	root := t.TempDir()
	t0 := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	right := []answer{{"money/net-worth", rightWorth}, {"money/deposit", rightDeposit}}
	wrong := []answer{{"money/net-worth", wrongWorth}, {"money/deposit", rightDeposit}}
	// Written newest first: the page orders by the runs' start.
	writeRun(t, root+"/c", "perfect-later", "fake:perfect", t0.Add(48*time.Hour), wrong, false)
	writeRun(t, root+"/b", "other-model", "fake:"+hostile, t0.Add(24*time.Hour), right, false)
	writeRun(t, root+"/a", "perfect-first", "fake:perfect", t0, right, false)
	_, ts := serve(t, Options{Dirs: []string{root}, Suite: confusedSuite, Reviewer: "alice", Version: "test"})

	_, runs, _ := get(t, ts.URL, "/")
	if !strings.Contains(runs, `<a href="/history?suite=view-test" title="the suite's runs over time">view-test</a>`) {
		t.Errorf("the runs list does not link a run's suite to its history:\n%s", runs)
	}
	code, body, _ := get(t, ts.URL, "/history?suite=view-test")
	if code != 200 {
		t.Fatalf("GET /history: %d\n%s", code, body)
	}
	checkEscaped(t, "the history page", body)
	perfect := strings.Index(body, `<h2 class="mono">fake:perfect</h2>`)
	other := strings.Index(body, `<h2 class="mono">fake:&lt;script&gt;`)
	if perfect < 0 || other < 0 {
		t.Fatalf("the history page lacks a model's section:\n%s", body)
	}
	first, later := strings.Index(body, ">perfect-first<"), strings.Index(body, ">perfect-later<")
	if first < 0 || later < 0 || first > later {
		t.Errorf("fake:perfect's runs are not oldest first (at %d and %d)", first, later)
	}
	for _, want := range []string{
		`<td class="num">100% 2/2</td>`, `<td class="num">50% 1/2</td>`,
		`<a href="/run/perfect-first#confusion-map">get_accounts → get_net_worth (1 of 1 key calls)</a>`,
		`2026-11-01 09:00`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the history page lacks %s", want)
		}
	}
	_, body, _ = get(t, ts.URL, "/history?suite=nope")
	if !strings.Contains(body, "No run of this suite here.") {
		t.Error("the history of a suite without runs does not say so")
	}
}

// The compare page lists the confusions either run made, as compare
// does: here the same in both runs, so within noise.
func TestComparePageShowsConfusions(t *testing.T) {
	root := t.TempDir()
	t0 := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	right := []answer{{"money/net-worth", rightWorth}, {"money/deposit", rightDeposit}}
	writeRun(t, root+"/a", "one", "fake:perfect", t0, right, false)
	writeRun(t, root+"/b", "two", "fake:perfect", t0.Add(time.Hour), right, false)
	_, ts := serve(t, Options{Dirs: []string{root}, Suite: confusedSuite, Reviewer: "alice", Version: "test"})
	_, body, _ := get(t, ts.URL, "/compare?run=one&run=two")
	checkEscaped(t, "the compare page", body)
	for _, want := range []string{
		`<tr class=""><td class="mono">get_accounts</td><td class="mono">get_net_worth</td><td class="num">1/1</td><td class="num">1/1</td><td class="num">1</td><td>~</td></tr>`,
		`<td class="mono">` + html.EscapeString(hostileTool) + `</td><td class="mono">get_accounts</td>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the compare page lacks %s", want)
		}
	}
}
