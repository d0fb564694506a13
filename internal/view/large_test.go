package view

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/internal/report/htmlreport"
	"github.com/mcpeval/mcpeval/internal/testkit/reporttest"
)

// largeRun writes a finished run of 600 attempts under a new directory:
// 300 of money/net-worth, every third answer wrong (100 identical
// failures), and 300 of money/deposit, all right.
func largeRun(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	var as []answer
	for i := 0; i < 300; i++ {
		w := rightWorth
		if i%3 == 2 {
			w = wrongWorth
		}
		as = append(as, answer{"money/net-worth", w}, answer{"money/deposit", rightDeposit})
	}
	writeRun(t, filepath.Join(root, "large"), "large-run", "fake:perfect", time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC), as, false)
	return root
}

var attemptRowRE = regexp.MustCompile(`<tr class="item att"`)

// TestLargeRunPage: the page of a run of htmlreport.SmallRun attempts or
// more lists its cases with their counts and its failures grouped, and no
// attempt: it stays small. A case's attempts, a search and one attempt's
// transcript are read from the record when asked for; the server holds no
// attempt.
func TestLargeRunPage(t *testing.T) {
	root := largeRun(t)
	s, ts := newTest(t, root)
	code, body, _ := get(t, ts.URL, "/run/large-run")
	if code != 200 {
		t.Fatalf("run page: %d\n%s", code, body)
	}
	const bound = 48 << 10
	if len(body) > bound {
		t.Errorf("the run page of 600 attempts is %d bytes, want at most %d", len(body), bound)
	}
	if n := len(attemptRowRE.FindAllString(body, -1)); n != 0 {
		t.Errorf("the run page of a large run lists %d attempts, want none (only its cases)", n)
	}
	reporttest.Contains(t, "the run page", body,
		`<b>100 attempts</b> of <span class="mono">money/net-worth</span>`,
		`class="more">and 80 more</a>`,
		`<h2 id="cases">Cases <span class="muted">(600 attempts`,
		`money/net-worth</a> <span class="muted small">money</span></td><td>200</td><td><span class="tag fail">100</span></td><td>0</td>`,
		`money/deposit</a> <span class="muted small">money</span></td><td>300</td><td>0</td><td>0</td>`,
		"n=600 · median 2.7k", // the charts still count every attempt
	)
	if strings.Contains(body, "long result") || strings.Contains(body, "Net worth is SGD") || strings.Contains(body, "The fixed deposit holds") {
		t.Error("the run page carries an attempt's transcript or answer")
	}

	_, body, _ = get(t, ts.URL, "/run/large-run?case=money%2Fdeposit")
	if n := len(attemptRowRE.FindAllString(body, -1)); n != 300 || !strings.Contains(body, `<span id="shown">300</span>`) {
		t.Errorf("the case's list holds %d attempts, want its 300", n)
	}
	if !strings.Contains(body, "The fixed deposit holds SGD 210,000.") {
		t.Error("the case's list does not show the answers, read from the record")
	}

	_, body, _ = get(t, ts.URL, "/run/large-run?q=2%2C261%2C924")
	if n := len(attemptRowRE.FindAllString(body, -1)); n != 100 {
		t.Errorf("searching an answer's figure finds %d attempts, want 100", n)
	}
	_, body, _ = get(t, ts.URL, "/run/large-run?q=asked")
	if n := len(attemptRowRE.FindAllString(body, -1)); n != largeSearchLimit || !strings.Contains(body, fmt.Sprintf("%d</span> shown of 600 matching", largeSearchLimit)) {
		t.Errorf("a search matching all 600 attempts lists %d, want the first %d and the count", n, largeSearchLimit)
	}

	_, body, _ = get(t, ts.URL, attemptPath("large-run", "money/net-worth", 300))
	reporttest.Contains(t, "attempt #300's page", body, "Net worth is SGD 2,261,924. &lt;script&gt;", "<h3>Verify</h3>", "apply to the 99 identical failures of this case")

	for _, r := range s.store.all() {
		if r.Rec.Attempts != nil || r.N != 600 {
			t.Errorf("the server holds %d attempts of a run of %d; want none", len(r.Rec.Attempts), r.N)
		}
	}
	if htmlreport.SmallRun > 600 {
		t.Fatalf("htmlreport.SmallRun is %d: the run is not large", htmlreport.SmallRun)
	}
}
