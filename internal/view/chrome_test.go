package view

import (
	"context"
	"flag"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mcpeval/mcpeval/internal/testkit/chrome"
)

var (
	shots    = flag.String("screenshots", "", "save screenshots of each page into `DIR` (the docs use ../../docs), over the runs in -runs")
	shotRuns = flag.String("runs", "", "the run `DIR` the screenshots show")
)

// tab drives one browser tab in a test.
type tab struct {
	t   *testing.T
	ctx context.Context
	url string
}

func (p *tab) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, actions...); err != nil {
		p.t.Fatalf("%s: %v", what, err)
	}
}

func (p *tab) open(path, ready string) {
	p.t.Helper()
	p.do("opening "+path, chromedp.Navigate(p.url+path), chromedp.WaitReady(chromedp.CSS(ready)))
}

func (p *tab) text(sel string) string {
	p.t.Helper()
	s, err := chromedp.Run(p.ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		p.t.Fatalf("reading %s: %v", sel, err)
	}
	return strings.TrimSpace(s)
}

func (p *tab) eval(js string) int {
	p.t.Helper()
	n, err := chromedp.Run(p.ctx, chromedp.Evaluate[int](js))
	if err != nil {
		p.t.Fatalf("%s: %v", js, err)
	}
	return n
}

func (p *tab) location() string {
	p.t.Helper()
	s, err := chromedp.Run(p.ctx, chromedp.Location())
	if err != nil {
		p.t.Fatal(err)
	}
	return s
}

// waitText waits until sel's text holds want.
func (p *tab) waitText(sel, want string) {
	p.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	got := ""
	for time.Now().Before(deadline) {
		s, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](`(function(){var e=document.querySelector(`+jsString(sel)+`);return e?e.textContent:""})()`))
		if err == nil && strings.Contains(s, want) {
			return
		}
		got = s
		time.Sleep(100 * time.Millisecond)
	}
	p.t.Fatalf("%s reads %q, never %q", sel, got, want)
}

func jsString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// safe checks that no hostile script ran and the page has its own script
// only.
func (p *tab) safe(where string) {
	p.t.Helper()
	if p.eval(`window.__pwned === undefined ? 0 : 1`) != 0 {
		p.t.Errorf("%s: a hostile script ran", where)
	}
	if n := p.eval(`document.scripts.length`); n != 1 {
		p.t.Errorf("%s: %d script elements, want the page's own one", where, n)
	}
	if n := p.eval(`document.querySelectorAll("img").length`); n != 0 {
		p.t.Errorf("%s: %d img elements, from hostile text", where, n)
	}
}

// TestInChromium uses the app as a person does, in a real headless
// Chromium: the runs list and its filter, a run with its grouped failures
// and live search, keyboard navigation into an attempt, a review applied
// to the identical failures of its case (checked in reviews.jsonl and in
// the reviewed rate on the page), the comparison of two runs and its link
// into the attempts, and a run in progress gaining attempts as they are
// written. Hostile strings fill every field; none runs.
func TestInChromium(t *testing.T) {
	root := standardRuns(t)
	live := writeRun(t, filepath.Join(root, "live"), "live-run", "fake:perfect", time.Date(2026, 11, 30, 11, 0, 0, 0, time.UTC),
		[]answer{{"money/deposit", rightDeposit}, {"money/deposit", rightDeposit}, {"money/deposit", rightDeposit}, {"money/deposit", rightDeposit}}, true)
	defer live.Close()
	_, ts := newTest(t, root)
	var heard chrome.Traffic
	p := &tab{t: t, ctx: chrome.Start(t, 120*time.Second, &heard), url: ts.URL}

	// The runs list, newest first.
	p.open("/", "table.runs")
	p.safe("runs list")
	if n := p.eval(`document.querySelectorAll("table.runs tr.item").length`); n != 3 {
		t.Fatalf("runs list shows %d runs, want 3", n)
	}
	if got := p.text(`table.runs tr.item:nth-child(1) a.open`); got != "live-run" {
		t.Errorf("the first run listed is %q, want the newest, live-run", got)
	}
	if got := p.text(`tr[data-key="live-run"] .live-status`); got != "in progress" {
		t.Errorf("live-run's status reads %q", got)
	}

	// Filter by model.
	p.do("filtering", chromedp.SetValue(chromedp.CSS(`select[name=model]`), "fake:perfect"), chromedp.Click(chromedp.CSS(`#filter button[type=submit]`)))
	p.do("waiting for the filter", chromedp.WaitReady(chromedp.CSS(`select[name=model] option[selected]`)))
	if n := p.eval(`document.querySelectorAll("table.runs tr.item").length`); n != 2 {
		t.Errorf("filtered by model fake:perfect, %d runs shown, want 2", n)
	}

	// A run: its failures grouped, then live search and the keyboard.
	p.open("/", "table.runs")
	p.do("opening the run", chromedp.Click(chromedp.CSS(`a[href="/run/new-run"]`)), chromedp.WaitReady(chromedp.CSS("#shown")))
	p.safe("run page")
	if got := p.text("li.fgroup b"); got != "3 attempts" {
		t.Errorf("the failure group reads %q, want 3 attempts", got)
	}
	if got := p.text("#shown"); got != "8" {
		t.Errorf("%s attempts shown, want 8", got)
	}
	p.do("searching", chromedp.SendKeys(chromedp.CSS("#q"), "2,261,924"))
	p.waitText("#shown", "3")
	if n := p.eval(`Array.from(document.querySelectorAll("tr.att")).filter(e => !e.hidden).length`); n != 3 {
		t.Errorf("search shows %d rows, want 3", n)
	}
	p.do("leaving the search box", chromedp.KeyEvent("\x1b"))
	p.do("j", chromedp.KeyEvent("j"))
	p.do("j", chromedp.KeyEvent("j"))
	if got := p.text("tr.att.sel a.open"); got != "money/net-worth #2" {
		t.Errorf("after j j, %q is selected, want money/net-worth #2", got)
	}
	p.do("o", chromedp.KeyEvent("o"), chromedp.WaitReady(chromedp.CSS("#review-form")))
	if loc := p.location(); !strings.Contains(loc, "case=money%2Fnet-worth&n=2") {
		t.Errorf("o opened %s", loc)
	}

	// The attempt beside what was expected; review it and its siblings.
	p.safe("attempt page")
	if got := p.text(`.check.failed[data-check-name=figures] .msg`); !strings.Contains(got, "answer states SGD 2,261,924") {
		t.Errorf("the failed figure check reads %q", got)
	}
	p.do("reviewing",
		chromedp.SendKeys(chromedp.CSS("#note"), "States 2,261,924: not what the tool returned. "+hostile),
		chromedp.Click(chromedp.CSS("#siblings")),
		chromedp.Click(chromedp.CSS(`button[data-verdict=model-failure]`)),
		chromedp.WaitReady(chromedp.CSS("#recorded")))
	if got := p.text("#recorded"); got != "Recorded 3 reviews in reviews.jsonl." {
		t.Errorf("after the review, the page says %q", got)
	}
	if got := p.text("#verdict"); got != "model-failure" {
		t.Errorf("the attempt's verdict reads %q", got)
	}
	p.safe("attempt page after review")
	rs := reviews(t, filepath.Join(root, "new"))
	if len(rs) != 3 {
		t.Fatalf("reviews.jsonl holds %d reviews, want 3", len(rs))
	}
	for i, r := range rs {
		if r.Case != "money/net-worth" || r.N != []int{2, 1, 3}[i] || r.Verdict != "model-failure" || r.Reviewer != "alice" || !strings.Contains(r.Note, hostile) {
			t.Errorf("review %d = %+v", i, r)
		}
	}
	p.open("/run/new-run", "#reviewed")
	if got := p.text("#reviewed"); got != "3/3 reviewed" {
		t.Errorf("the run page reads %q reviewed, want 3/3", got)
	}

	// Compare two runs picked from the list, and follow a case into its
	// attempts.
	p.open("/", "table.runs")
	p.do("picking two runs", chromedp.Click(chromedp.CSS(`input[value="base-run"]`)), chromedp.Click(chromedp.CSS(`input[value="new-run"]`)),
		chromedp.Click(chromedp.CSS("#compare")), chromedp.WaitReady(chromedp.CSS("table.moved")))
	p.safe("compare page")
	if got := p.text("table.moved tr.k-total"); !strings.Contains(got, "100% [68%, 100%] n=8") || !strings.Contains(got, "63% [31%, 86%] n=8") {
		t.Errorf("the total row reads %q", got)
	}
	p.do("following a case", chromedp.Click(chromedp.CSS(`table.moved a[href*="net-worth"].open`)), chromedp.WaitReady(chromedp.CSS("#shown")))
	if got := p.text("#shown"); got != "4" {
		t.Errorf("the case's attempts: %s shown, want 4", got)
	}

	// A run in progress gains attempts as they are written.
	p.open("/run/live-run", ".progress")
	p.waitText(".progress .live-progress", "1 of 4 attempts")
	writeAttempt(t, live, answer{"money/deposit", rightDeposit}, 2)
	p.waitText(".progress .live-progress", "2 of 4 attempts")
	p.waitText(".progress .live-rate", "100% 2/2")
	p.open("/", "table.runs")
	writeAttempt(t, live, answer{"money/deposit", rightDeposit}, 3)
	p.waitText(`tr[data-key="live-run"] .live-progress`, "3 of 4 attempts")
	// A run that starts shows up in the list by itself.
	later := writeRun(t, filepath.Join(root, "later"), "later-run", "fake:perfect", time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC),
		[]answer{{"money/deposit", rightDeposit}, {"money/deposit", rightDeposit}}, true)
	defer later.Close()
	p.waitText(`tr[data-key="later-run"] .live-status`, "in progress")
	p.safe("runs list after a new run")

	heard.CheckWithin(t, ts.URL)
}

// TestScreenshots saves a screenshot of each page into -screenshots, over
// the runs in -runs; without the flags it does nothing.
func TestScreenshots(t *testing.T) {
	if *shots == "" || *shotRuns == "" {
		t.Skip("no -screenshots DIR -runs DIR")
	}
	ts := newShotServer(t, *shotRuns)
	var heard chrome.Traffic
	p := &tab{t: t, ctx: chrome.Start(t, 120*time.Second, &heard), url: ts}
	save := func(name string, height int64) {
		t.Helper()
		chrome.Screenshot(p.ctx, t, height, filepath.Join(*shots, name))
	}
	p.open("/", "table.runs")
	save("view-runs.png", 560)
	p.do("opening a run", chromedp.Click(chromedp.CSS(`tr[data-text*="invent"] a.open`)), chromedp.WaitReady(chromedp.CSS("#shown")))
	save("view-run.png", 1400)
	p.do("opening a failure", chromedp.Click(chromedp.CSS(`li.fgroup .links a`)), chromedp.WaitReady(chromedp.CSS("#review-form")))
	save("view-attempt.png", 1000)
	p.open("/", "table.runs")
	p.do("picking two", chromedp.Click(chromedp.CSS(`tr[data-text*="perfect"] input`)), chromedp.Click(chromedp.CSS(`tr[data-text*="invent"] input`)))
	t.Log("picked")
	p.do("comparing", chromedp.Click(chromedp.CSS("#compare")), chromedp.WaitReady(chromedp.CSS("table.moved")))
	save("view-compare.png", 900)
	p.open("/", "table.runs")
	p.do("picking three", chromedp.Click(chromedp.CSS(`tr[data-text*="perfect"] input`)), chromedp.Click(chromedp.CSS(`tr[data-text*="invent"] input`)),
		chromedp.Click(chromedp.CSS(`tr[data-text*="refuse"] input`)))
	p.do("laddering", chromedp.Click(chromedp.CSS("#ladder")), chromedp.WaitReady(chromedp.CSS("table.ladder")))
	save("view-ladder.png", 700)
}
