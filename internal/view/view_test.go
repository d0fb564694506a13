package view

import (
	"bufio"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/review"
	"github.com/mcpeval/mcpeval/internal/testkit/reporttest"
	"github.com/mcpeval/mcpeval/record"
)

func get(t *testing.T, ts string, path string) (int, string, http.Header) {
	t.Helper()
	resp, err := http.Get(ts + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header
}

// raw are pieces of the hostile string that only an unescaped page holds.
var raw = []string{"<script>window", "<img src=x", `onerror="window`}

func checkEscaped(t *testing.T, page, body string) {
	t.Helper()
	for _, r := range raw {
		if strings.Contains(body, r) {
			t.Errorf("%s holds %q unescaped", page, r)
		}
	}
}

func TestPagesEscapeAndCarryThePolicy(t *testing.T) {
	root := standardRuns(t)
	_, ts := newTest(t, root)
	for _, p := range []string{"/", "/run/new-run", "/run/new-run?q=" + urlEscape(hostile), attemptPath("new-run", "money/net-worth", 1), "/compare?run=base-run&run=new-run", "/run/nope"} {
		code, body, h := get(t, ts.URL, p)
		if code != 200 && p != "/run/nope" {
			t.Errorf("GET %s: %d\n%s", p, code, body)
		}
		csp := h.Get("Content-Security-Policy")
		if !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "script-src 'sha256-") || strings.Contains(csp, "unsafe") {
			t.Errorf("GET %s: policy %q", p, csp)
		}
		if h.Get("X-Frame-Options") != "DENY" || h.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET %s: headers %v", p, h)
		}
		checkEscaped(t, p, body)
		if p != "/run/nope" && !strings.Contains(body, "&lt;script&gt;window.__pwned=1&lt;/script&gt;") {
			t.Errorf("GET %s does not show the hostile string as text", p)
		}
	}
}

// A run whose id, and so its address, is hostile is still shown as text.
func TestHostileRunID(t *testing.T) {
	root := t.TempDir()
	writeRun(t, filepath.Join(root, "x"), hostile, hostile, time.Now(), []answer{{"money/net-worth", wrongWorth}}, false)
	_, ts := newTest(t, root)
	_, body, _ := get(t, ts.URL, "/")
	checkEscaped(t, "runs list", body)
	for _, p := range []string{"/run/" + url.PathEscape(hostile), attemptPath(hostile, "money/net-worth", 1), "/compare?run=" + urlEscape(hostile) + "&run=" + urlEscape(hostile), "/ladder?run=" + urlEscape(hostile) + "&run=" + urlEscape(hostile), "/run/" + url.PathEscape(hostile) + "?q=" + urlEscape(hostile)} {
		code, body, _ := get(t, ts.URL, p)
		if code != 200 {
			t.Errorf("GET %s: %d", p, code)
		}
		checkEscaped(t, p, body)
	}
}

func TestRunsList(t *testing.T) {
	root := standardRuns(t)
	_, ts := newTest(t, root)
	_, body, _ := get(t, ts.URL, "/")
	i, j := strings.Index(body, `href="/run/new-run"`), strings.Index(body, `href="/run/base-run"`)
	if i < 0 || j < 0 || i > j {
		t.Fatalf("runs list does not show the newer run first (new at %d, base at %d)", i, j)
	}
	reporttest.Contains(t, "runs list", body, "63% 5/8", "100% 8/8", "0/3 reviewed", "no failures", "view-test", "21k in, 960 out")
	_, body, _ = get(t, ts.URL, "/?model=fake:perfect")
	if strings.Contains(body, `href="/run/new-run"`) || !strings.Contains(body, `href="/run/base-run"`) {
		t.Error("the model filter does not keep to the model")
	}
}

func TestHostHeaderIsChecked(t *testing.T) {
	root := standardRuns(t)
	_, ts := newTest(t, root)
	for host, want := range map[string]int{"evil.example": 421, "evil.example:80": 421, ts.Listener.Addr().String(): 200, "localhost:" + port(ts.URL): 200} {
		req, _ := http.NewRequest("GET", ts.URL+"/", nil)
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("Host %s: %d, want %d", host, resp.StatusCode, want)
		}
	}
}

// A server bound to every address answers its IP addresses, not names.
func TestHostOnEveryAddress(t *testing.T) {
	s, err := New(Options{Dirs: []string{t.TempDir()}, Addr: "0.0.0.0:8123"})
	if err != nil {
		t.Fatal(err)
	}
	for host, want := range map[string]int{"192.168.1.5:8123": 200, "[fe80::1]:8123": 200, "0.0.0.0:8123": 200, "localhost:8123": 200, "evil.example:8123": 421, "192.168.1.5:80": 421} {
		req := httptest.NewRequest("GET", "/", nil)
		req.Host = host
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		if w.Code != want {
			t.Errorf("Host %s: %d, want %d", host, w.Code, want)
		}
	}
}

func port(u string) string { return u[strings.LastIndex(u, ":")+1:] }

func reviews(t *testing.T, dir string) []review.Review {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, review.FileName))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rs, _, err := review.Parse(f, "reviews")
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

func TestReviewNeedsTheSessionToken(t *testing.T) {
	root := standardRuns(t)
	s, ts := newTest(t, root)
	dir := filepath.Join(root, "new")
	post := func(v map[string][]string, hdr map[string]string) int {
		req, _ := http.NewRequest("POST", ts.URL+"/review", strings.NewReader(httpForm(v)))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		for k, x := range hdr {
			req.Header.Set(k, x)
		}
		resp, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	base := form("run", "new-run", "case", "money/net-worth", "n", "1", "verdict", "grader-false-fail", "note", "right "+hostile, "reviewer", "bob "+hostile)
	if c := post(base, nil); c != 403 {
		t.Errorf("a review without the token: %d, want 403", c)
	}
	bad := form("csrf", "0000", "run", "new-run", "case", "money/net-worth", "n", "1", "verdict", "g", "note", "x", "reviewer", "bob")
	if c := post(bad, nil); c != 403 {
		t.Errorf("a review with a wrong token: %d, want 403", c)
	}
	withTok := form("csrf", s.CSRF(), "run", "new-run", "case", "money/net-worth", "n", "1", "verdict", "grader-false-fail", "note", "right "+hostile, "reviewer", "bob "+hostile)
	if c := post(withTok, map[string]string{"Origin": "http://evil.example"}); c != 403 {
		t.Errorf("a review from another origin: %d, want 403", c)
	}
	if c := post(withTok, map[string]string{"Sec-Fetch-Site": "cross-site"}); c != 403 {
		t.Errorf("a cross-site review: %d, want 403", c)
	}
	if rs := reviews(t, dir); len(rs) != 0 {
		t.Fatalf("refused reviews were written: %+v", rs)
	}
	// A passing attempt is not reviewed.
	pass := form("csrf", s.CSRF(), "run", "new-run", "case", "money/net-worth", "n", "4", "verdict", "m", "note", "x", "reviewer", "bob")
	if c := post(pass, map[string]string{"Origin": ts.URL}); c != 409 {
		t.Errorf("a review of a pass: %d, want 409", c)
	}
	if c := post(withTok, map[string]string{"Origin": ts.URL, "Sec-Fetch-Site": "same-origin"}); c != 303 {
		t.Fatalf("a review with the token: %d, want 303", c)
	}
	rs := reviews(t, dir)
	if len(rs) != 1 {
		t.Fatalf("reviews.jsonl holds %d reviews, want 1", len(rs))
	}
	// The fingerprint is the one mcpeval review writes: answer and reasons.
	rec, _ := record.Read(dir)
	st, _ := testSuite(&rec.Header)
	res := grade.Run(st, rec)
	var g *grade.AttemptGrade
	for i := range res.Attempts {
		if res.Attempts[i].Case == "money/net-worth" && res.Attempts[i].N == 1 {
			g = &res.Attempts[i]
		}
	}
	if want := review.Fingerprint(wrongWorth, g.Reasons); rs[0].Fingerprint != want || rs[0].RunID != "new-run" || rs[0].Verdict != review.GraderFalseFail || rs[0].Reviewer != "bob "+hostile {
		t.Errorf("review = %+v, want fingerprint %s", rs[0], want)
	}
	_, body, _ := get(t, ts.URL, "/run/new-run")
	if !strings.Contains(body, "1/3 reviewed") {
		t.Error("the run page does not count the review")
	}
	checkEscaped(t, "run page after review", body)
	_, body, _ = get(t, ts.URL, attemptPath("new-run", "money/net-worth", 1))
	checkEscaped(t, "attempt page after review", body)

	// Apply to the identical failures of the case: #2 and #3 fail alike.
	sib := form("csrf", s.CSRF(), "run", "new-run", "case", "money/net-worth", "n", "2", "verdict", "model-failure", "note", "wrong figure", "reviewer", "carol", "siblings", "1")
	if c := post(sib, nil); c != 303 {
		t.Fatalf("a review applied to siblings: %d", c)
	}
	rs = reviews(t, dir)
	if len(rs) != 3 || rs[1].N != 2 || rs[2].N != 3 {
		t.Fatalf("after applying to siblings, reviews = %+v; want #1 kept, #2 and #3 added", rs)
	}
	_, body, _ = get(t, ts.URL, "/")
	if !strings.Contains(body, "3/3 reviewed") {
		t.Error("the runs list does not show every failure reviewed")
	}
}

func httpForm(v map[string][]string) string {
	var parts []string
	for k, xs := range v {
		for _, x := range xs {
			parts = append(parts, urlEscape(k)+"="+urlEscape(x))
		}
	}
	return strings.Join(parts, "&")
}

func TestRunPageGroupsFailuresAndSearches(t *testing.T) {
	root := standardRuns(t)
	_, ts := newTest(t, root)
	_, body, _ := get(t, ts.URL, "/run/new-run")
	if !strings.Contains(body, "<b>3 attempts</b> of <span class=\"mono\">money/net-worth</span>") {
		t.Errorf("the run page does not group the three identical failures:\n%s", body)
	}
	reporttest.Contains(t, "the run page's charts", body, "tokens per attempt", "n=8 · median 2.7k · p90 2.7k · max 2.7k", "model latency per turn", "n=16 · median 0.6s · p90 0.8s · max 0.8s", "attempt time")
	if !strings.Contains(body, `title="pass@4 100%: the chance that at least one of 4 attempts passes; pass^4 0%: that all 4 do">100% · 0%`) {
		t.Error("the run page does not show the case's pass@k and pass^k")
	}
	if !strings.Contains(body, `<span id="shown">8</span>`) {
		t.Error("the run page does not show all 8 attempts")
	}
	_, body, _ = get(t, ts.URL, "/run/new-run?q=FIXED+deposit")
	if !strings.Contains(body, `<span id="shown">4</span>`) {
		t.Error("searching for the deposit prompt does not keep its 4 attempts")
	}
	_, body, _ = get(t, ts.URL, "/run/new-run?q=2%2C261%2C924")
	if !strings.Contains(body, `<span id="shown">3</span>`) {
		t.Error("searching an answer's figure does not find its 3 attempts")
	}
}

func TestAttemptShowsWhatWasExpected(t *testing.T) {
	root := standardRuns(t)
	_, ts := newTest(t, root)
	_, body, _ := get(t, ts.URL, attemptPath("new-run", "money/net-worth", 1))
	reporttest.Contains(t, "attempt page", body,
		"net worth: SGD 2,394,755 (exact)",               // the figure with its tolerance
		`class="check failed" data-check-name="figures"`, // marked failed
		`class="check passed" data-check-name="tools"`,
		"must not call: delete_everything",
		"sum of accounts &lt;b&gt;bold?&lt;/b&gt;", // working, escaped
		"1,200 in, 80 out · 800 ms",                // a turn's tokens and latency
		"Tools the model saw",
		"Fixtures <span class=\"muted\">(token tok-&lt;script&gt;", // setup, verify, teardown
		"<b>setup</b> <span class=\"mono\">create_note</span>",
		"<h3>Verify</h3>",
		"<summary class=\"muted\">result, 2485 characters</summary>", // a long result, folded
		"<h3>Teardown</h3>",
		"teardown left &lt;script&gt;",
		"server: <del>Old words. &lt;script&gt;", // the overlay's change
		"shown: <ins>Net worth. &lt;script&gt;",
		`name="csrf"`,
		"apply to the 2 identical failures of this case",
		`<mark class="fig off" title="expected SGD 2,394,755 (exactly) for net worth; answer states SGD 2,261,924 (5.55% off)">SGD 2,261,924</mark>`,
	)
	// A right figure is marked as the expected one.
	_, body, _ = get(t, ts.URL, attemptPath("new-run", "money/net-worth", 4))
	if !strings.Contains(body, `<mark class="fig ok" title="expected figure net worth: SGD 2,394,755 (exact)">SGD 2,394,755</mark>`) {
		t.Error("the passing attempt's figure is not marked as the expected one")
	}
}

func TestCompare(t *testing.T) {
	root := standardRuns(t)
	_, ts := newTest(t, root)
	_, body, _ := get(t, ts.URL, "/compare?run=base-run&run=new-run")
	reporttest.Contains(t, "compare page", body, "What changed", "What moved", "100% [51%, 100%] n=4", "25% [5%, 70%] n=4", `href="/run/new-run?case=money%2Fnet-worth"`)
	code, _, _ := get(t, ts.URL, "/compare?run=base-run")
	if code != 400 {
		t.Errorf("compare with one run: %d, want 400", code)
	}
}

func TestLadder(t *testing.T) {
	root := standardRuns(t)
	_, ts := newTest(t, root)
	code, body, _ := get(t, ts.URL, "/ladder?run=new-run&run=base-run")
	if code != 200 {
		t.Fatalf("ladder: %d\n%s", code, body)
	}
	// The stronger run comes first; the case that fails only on the
	// weaker one reads as a descriptions problem.
	i, j := strings.Index(body, `href="/run/base-run"`), strings.Index(body, `href="/run/new-run"`)
	if i < 0 || j < 0 || i > j {
		t.Errorf("the ladder does not put the stronger run first (%d, %d)", i, j)
	}
	if !strings.Contains(body, "<b>descriptions</b>") || !strings.Contains(body, "Not calibrated") {
		t.Errorf("ladder page:\n%s", body)
	}
	checkEscaped(t, "ladder", body)
}

func TestEventsFollowARunInProgress(t *testing.T) {
	root := t.TempDir()
	w := writeRun(t, filepath.Join(root, "live"), "live-run", "fake:perfect", time.Now(), []answer{{"money/deposit", rightDeposit}, {"money/deposit", rightDeposit}, {"money/deposit", rightDeposit}}, true)
	defer w.Close()
	_, ts := newTest(t, root)
	resp, err := http.Get(ts.URL + "/events?run=live-run")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("events Content-Type %q", ct)
	}
	br := bufio.NewReader(resp.Body)
	next := func() string {
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				t.Fatal(err)
			}
			if strings.HasPrefix(line, "data: ") {
				return line
			}
		}
	}
	if got := next(); !strings.Contains(got, `"attempts":1,"planned":3`) || !strings.Contains(got, `"status":"in progress"`) {
		t.Fatalf("first event %s", got)
	}
	writeAttempt(t, w, answer{"money/deposit", rightDeposit}, 2)
	if got := next(); !strings.Contains(got, `"attempts":2`) || !strings.Contains(got, `"rate":"100% 2/2"`) {
		t.Fatalf("after an attempt landed, event %s", got)
	}
}
