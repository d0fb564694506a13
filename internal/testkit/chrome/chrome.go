// Package chrome starts a headless Chromium for the tests that check pages
// as a person sees them (the HTML report, the run viewer), and hears what
// the browser asked for and what went wrong while it showed them.
package chrome

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Binary returns the headless Chromium to test in. Without one the test is
// skipped, except on CI (CI=true), where it fails.
func Binary(t *testing.T) string {
	t.Helper()
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

// Start starts a headless Chromium (skipping the test as Binary does when
// there is none) with a fresh profile, no network of its own and a
// 1280x1000 window, and returns its context, which ends after timeout or
// with the test. heard collects what the browser does from the start.
func Start(t *testing.T, timeout time.Duration, heard *Traffic) context.Context {
	t.Helper()
	bin := Binary(t)
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
	ctx, cancel3 := context.WithTimeout(ctx, timeout)
	t.Cleanup(cancel3)
	if err := chromedp.Listen(ctx, heard.Listen); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 1000)); err != nil {
		t.Fatal(err)
	}
	return ctx
}

// Traffic is what the browser did: every request and every exception or
// console error (a CSP violation is a console error). Its zero value is
// ready to use.
type Traffic struct {
	mu       sync.Mutex
	requests []string
	problems []string
}

// Listen is a chromedp listener that collects the browser's events.
func (tr *Traffic) Listen(ev any) {
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

// CheckOnly fails t unless the page at url asked for itself and nothing
// else, and the browser reported no problem.
func (tr *Traffic) CheckOnly(t *testing.T, url string) {
	t.Helper()
	tr.mu.Lock()
	defer tr.mu.Unlock()
	// The page's own load is seen, so the listener heard the network and
	// the check below is not over an empty list.
	if !slices.Contains(tr.requests, url) {
		t.Errorf("the page's own request %s was not seen (requests: %q): the network listener heard nothing", url, tr.requests)
	}
	for _, r := range tr.requests {
		if r != url {
			t.Errorf("the page asked for %s", r)
		}
	}
	tr.problemsLocked(t)
}

// CheckWithin fails t unless every request went to the server at base and
// the browser reported no problem.
func (tr *Traffic) CheckWithin(t *testing.T, base string) {
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
	tr.problemsLocked(t)
}

func (tr *Traffic) problemsLocked(t *testing.T) {
	t.Helper()
	for _, p := range tr.problems {
		t.Errorf("the browser reported %s", p)
	}
}

// Screenshot saves what the browser shows, at 1280 pixels by height, to
// file as a PNG.
func Screenshot(ctx context.Context, t *testing.T, height int64, file string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, height)); err != nil {
		t.Fatal(err)
	}
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Fatal("the screenshot is not a PNG")
	}
	if err := os.WriteFile(file, png, 0o644); err != nil {
		t.Fatal(err)
	}
}
