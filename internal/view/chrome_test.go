package view

import (
	"bytes"
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

var (
	shots    = flag.String("screenshots", "", "save screenshots of each page into `DIR` (the docs use ../../docs), over the runs in -runs")
	shotRuns = flag.String("runs", "", "the run `DIR` the screenshots show")
)

// chromium returns the headless Chromium to test in. Without one the test
// is skipped, except on CI (CI=true), where it fails.
func chromium(t *testing.T) string {
	for _, p := range []string{"/usr/bin/chromium", "chromium"} {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium is not installed, and CI=true: install Debian's chromium package (.ci/run does)")
	}
	t.Skip("chromium is not installed (apt-get install chromium); CI=true makes this a failure")
	return ""
}

// browser starts a headless Chromium and returns its context; heard
// collects what it asked for and what went wrong.
func browser(t *testing.T, heard *traffic) context.Context {
	t.Helper()
	bin := chromium(t)
	alloc, cancel := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(bin),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(filepath.Join(t.TempDir(), "profile")),
		chromedp.WindowSize(1280, 1000),
	)
	t.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(alloc)
	t.Cleanup(cancel2)
	ctx, cancel3 := context.WithTimeout(ctx, 120*time.Second)
	t.Cleanup(cancel3)
	if err := chromedp.Listen(ctx, heard.listen); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 1000)); err != nil {
		t.Fatal(err)
	}
	return ctx
}

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
	var heard traffic
	p := &tab{t: t, ctx: browser(t, &heard), url: ts.URL}

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

	heard.check(t, ts.URL)
}

// traffic is what the browser did: every request and every exception or
// console error.
type traffic struct {
	mu       sync.Mutex
	requests []string
	problems []string
}

func (tr *traffic) listen(ev any) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	switch e := ev.(type) {
	case *network.EventRequestWillBeSent:
		tr.requests = append(tr.requests, e.Request.URL)
	case *runtime.EventExceptionThrown:
		tr.problems = append(tr.problems, "exception: "+e.ExceptionDetails.Text)
	case *log.EventEntryAdded:
		if e.Entry.Level == log.EntryLevelError {
			tr.problems = append(tr.problems, "console: "+e.Entry.Text)
		}
	}
}

// check fails t unless every request went to the server at base and the
// browser reported no problem (a CSP violation is a console error).
func (tr *traffic) check(t *testing.T, base string) {
	t.Helper()
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if len(tr.requests) == 0 {
		t.Error("no request was heard: the network listener heard nothing")
	}
	for _, r := range tr.requests {
		if !strings.HasPrefix(r, base+"/") {
			t.Errorf("the browser asked for %s", r)
		}
	}
	for _, p := range tr.problems {
		t.Errorf("the browser reported %s", p)
	}
}

// TestScreenshots saves a screenshot of each page into -screenshots, over
// the runs in -runs; without the flags it does nothing.
func TestScreenshots(t *testing.T) {
	if *shots == "" || *shotRuns == "" {
		t.Skip("no -screenshots DIR -runs DIR")
	}
	ts := newShotServer(t, *shotRuns)
	var heard traffic
	p := &tab{t: t, ctx: browser(t, &heard), url: ts}
	save := func(name string, height int64) {
		t.Helper()
		p.do("sizing", chromedp.EmulateViewport(1280, height))
		png, err := chromedp.Run(p.ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(png, []byte("\x89PNG")) {
			t.Fatal("the screenshot is not a PNG")
		}
		if err := os.WriteFile(filepath.Join(*shots, name), png, 0o644); err != nil {
			t.Fatal(err)
		}
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
