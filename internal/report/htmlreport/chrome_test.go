package htmlreport

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mcpeval/mcpeval/internal/testkit/chrome"
)

var screenshot = flag.String("screenshot", "", "save a screenshot of the run page to `FILE` (the docs use ../docs/report.png)")

// TestInChromium opens a run page in a real headless Chromium from disk
// and checks that it shows the run: the figures read off the page, the
// verdict and group filters hide and show attempts, a model-written
// <script> is shown as text and never runs, and the page asks for nothing
// over the network.
func TestInChromium(t *testing.T) {
	var heard chrome.Traffic
	ctx := chrome.Start(t, 90*time.Second, &heard)
	p := fixture(t)
	file := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(file, []byte(render(t, p)), 0o644); err != nil {
		t.Fatal(err)
	}
	url := "file://" + file
	if err := chromedp.Do(ctx,
		chromedp.Navigate(url),
		chromedp.WaitReady(chromedp.CSS("#filters")),
	); err != nil {
		t.Fatal(err)
	}

	// The figures, read off the page as a person sees them.
	text := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("reading %s: %v", sel, err)
		}
		return strings.TrimSpace(s)
	}
	for sel, want := range map[string]string{
		`[data-check="as-graded-count"]`:    "5/10",
		`[data-check="as-graded-rate"]`:     "50%",
		`[data-check="as-graded-ci"]`:       "[24%, 76%]",
		`[data-check="after-review-count"]`: "6/10",
		`[data-check="after-review-rate"]`:  "60%",
		`[data-check="after-review-ci"]`:    "[31%, 83%]",
		`[data-check="unreviewed"]`:         "2",
		`[data-check="grader-false-fail"]`:  "1",
	} {
		if got := text(sel); got != want {
			t.Errorf("%s reads %q, want %q", sel, got, want)
		}
	}

	eval := func(js string) int {
		t.Helper()
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](js))
		if err != nil {
			t.Fatalf("%s: %v", js, err)
		}
		return n
	}
	visible := func() int {
		return eval(`Array.from(document.querySelectorAll("details.attempt")).filter(e => e.offsetParent !== null).length`)
	}
	click := func(filter, value string) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`button[data-filter="`+filter+`"][data-value="`+value+`"]`))); err != nil {
			t.Fatalf("clicking %s=%s: %v", filter, value, err)
		}
	}
	if n := visible(); n != 12 {
		t.Errorf("%d attempts shown before filtering, want 12", n)
	}
	for _, step := range []struct {
		filter, value string
		want          int
	}{
		{"verdict", "fail", 5},
		{"verdict", "grader-false-fail", 1},
		{"verdict", "unreviewed", 2},
		{"verdict", "error", 2},
		{"verdict", "all", 12},
		{"group", "dates", 3},
		{"verdict", "model-failure", 1},
		{"verdict", "pass", 0},
	} {
		click(step.filter, step.value)
		if n := visible(); n != step.want {
			t.Errorf("after %s=%s, %d attempts shown, want %d", step.filter, step.value, n, step.want)
		}
	}
	if n := eval(`document.querySelectorAll("table.cases tr[data-filter-item]:not([hidden])").length`); n != 2 {
		t.Errorf("group dates shows %d table rows, want 2 (the group and its case)", n)
	}
	if got := text("#shown"); got != "0" {
		t.Errorf("the shown count reads %q, want 0", got)
	}
	click("group", "all")
	click("verdict", "all")

	// The model's <script> is text, and never ran.
	if n := eval(`(window.__pwned === undefined) ? 0 : 1`); n != 0 {
		t.Error("a script from a tool result or an answer ran")
	}
	if n := eval(`Array.from(document.querySelectorAll("pre.result")).filter(e => e.textContent.includes("<script>window.__pwned=1</script>")).length`); n != 1 {
		t.Errorf("the tool result's <script> is shown as text %d times, want 1", n)
	}
	if n := eval(`Array.from(document.querySelectorAll("pre.answer")).filter(e => e.textContent.startsWith("<script>window.__pwned=2</script>")).length`); n != 1 {
		t.Errorf("the answer's <script> is shown as text %d times, want 1", n)
	}
	if n := eval(`document.scripts.length`); n != 1 {
		t.Errorf("the page has %d script elements, want its own one", n)
	}

	heard.CheckOnly(t, url)

	if *screenshot != "" {
		click("verdict", "fail")
		chrome.Screenshot(ctx, t, 2000, *screenshot)
	}
}
