package htmlreport

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"html"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/review"
	"github.com/mcpeval/mcpeval/internal/testkit/reporttest"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// testRun reads the test run (testdata/run) and its suite, ungraded.
func testRun(t testing.TB) (*record.Run, *suite.Suite) {
	t.Helper()
	rec, err := record.Read("testdata/run")
	if err != nil {
		t.Fatal(err)
	}
	s, err := suite.Load("testdata/suite.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return rec, s
}

// firstCall is the first tool call of attempt a, for a test to give it
// what it draws.
func firstCall(t *testing.T, a *record.Attempt) *record.Call {
	t.Helper()
	for i := range a.Turns {
		if len(a.Turns[i].Calls) > 0 {
			return &a.Turns[i].Calls[0]
		}
	}
	t.Fatal("the fixture's first attempt makes no call")
	return nil
}

// fixture is the test run graded, with reviews: a grader false fail, a
// model failure, a questioned expectation, and two failures not reviewed.
func fixture(t testing.TB) *RunPage {
	t.Helper()
	rec, s := testRun(t)
	res := grade.Run(s, rec)
	log := review.New(rec, nil)
	for _, r := range []struct {
		c    string
		n    int
		v    review.Verdict
		note string
	}{
		{"single-tool/net-worth", 2, review.GraderFalseFail, "The figure is written out in words and is right; the grader reads digits only."},
		{"dates/net-worth-march-2026", 1, review.ModelFailure, "Read April for March: <months> was left at its default of 6."},
		{"dates/net-worth-march-2026", 3, review.ExpectationInQuestion, "Right figure without get_net_worth_history: should the case require that tool?"},
	} {
		for i := range res.Attempts {
			g := &res.Attempts[i]
			if g.Case == r.c && g.N == r.n {
				err := log.Add(review.Review{Case: r.c, N: r.n, Fingerprint: log.Fingerprint(g), Verdict: r.v,
					Note: r.note, Reviewer: "ana", Time: time.Date(2026, 10, 2, 9, 0, 0, 0, time.UTC)})
				if err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	return &RunPage{Run: rec, Result: res, Reviewed: review.Apply(res, log)}
}

func render(t testing.TB, p *RunPage) string {
	t.Helper()
	var b bytes.Buffer
	if err := Run(&b, p); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestSelfContained checks that a page loads nothing: no external script,
// stylesheet, font, image or link, and a policy that forbids the network
// and allows only the page's own style and script.
func TestSelfContained(t *testing.T) {
	page := render(t, fixture(t))
	for _, bad := range []string{"<link", "@import", "url(", "http://", "https://", "@font-face", "<iframe", "<object", "<embed"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page holds %q", bad)
		}
	}
	if m := regexp.MustCompile(`<[a-zA-Z][^>]*\s(src|href|srcset|action)=`).FindString(page); m != "" {
		t.Errorf("the page refers to another resource: %s", m)
	}
	csp := regexp.MustCompile(`http-equiv="Content-Security-Policy" content="([^"]*)"`).FindStringSubmatch(page)
	if csp == nil {
		t.Fatal("no Content-Security-Policy")
	}
	policy := html.UnescapeString(csp[1])
	hash := func(s string) string {
		h := sha256.Sum256([]byte(s))
		return "'sha256-" + base64.StdEncoding.EncodeToString(h[:]) + "'"
	}
	style := regexp.MustCompile(`(?s)<style>(.*?)</style>`).FindStringSubmatch(page)
	script := regexp.MustCompile(`(?s)<script>(.*?)</script>`).FindAllStringSubmatch(page, -1)
	if style == nil || len(script) != 1 {
		t.Fatalf("want one style and one script element, have %v and %d", style != nil, len(script))
	}
	reporttest.Contains(t, "policy", policy, "default-src 'none'", "style-src "+hash(style[1]), "script-src "+hash(script[0][1]))
}

// TestEscapes checks that what came from a model or a tool is text: a
// tool result and an answer holding <script>, arguments holding an <img>
// handler, a reviewer's note holding markup.
func TestEscapes(t *testing.T) {
	page := render(t, fixture(t))
	for _, raw := range []string{"<script>window.__pwned", "<img src=x", "<months>"} {
		if strings.Contains(page, raw) {
			t.Errorf("the page holds %q unescaped", raw)
		}
	}
	for _, text := range []string{"&lt;script&gt;window.__pwned=1&lt;/script&gt;", "&lt;script&gt;window.__pwned=2&lt;/script&gt;", "&lt;months&gt; was left"} {
		if !strings.Contains(page, text) {
			t.Errorf("the page does not show %q as text", text)
		}
	}
}

var checkRE = regexp.MustCompile(`data-check="([^"]*)"[^>]*>([^<]*)<`)

func checks(page string) map[string]string {
	m := map[string]string{}
	for _, s := range checkRE.FindAllStringSubmatch(page, -1) {
		m[s[1]] = s[2]
	}
	return m
}

// TestRunFigures checks the figures a reader compares, both rates side by
// side: 5/10 as graded, 6/10 after review (one grader false fail), and
// every attempt with its outcome and review.
func TestRunFigures(t *testing.T) {
	p := fixture(t)
	page := render(t, p)
	want := map[string]string{
		"as-graded-count": "5/10", "as-graded-rate": "50%", "as-graded-ci": "[24%, 76%]",
		"after-review-count": "6/10", "after-review-rate": "60%", "after-review-ci": "[31%, 83%]",
		"errors": "2", "failures": "5", "grader-false-fail": "1", "model-failure": "1", "expectation-in-question": "1", "unreviewed": "2",
	}
	got := checks(page)
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: page says %q, want %q", k, got[k], v)
		}
	}
	for _, a := range []string{
		`data-group="single-tool" data-outcome="fail" data-review="grader-false-fail" data-case="single-tool/net-worth" data-n="2"`,
		`data-group="dates" data-outcome="fail" data-review="" data-case="dates/net-worth-march-2026" data-n="2"`,
		`data-group="unanswerable" data-outcome="fail" data-review="" data-case="unanswerable/voo-price" data-n="2"`,
		`data-group="unanswerable" data-outcome="error" data-review="" data-case="unanswerable/voo-price" data-n="3"`,
	} {
		if !strings.Contains(page, a) {
			t.Errorf("no attempt %s", a)
		}
	}
	if n := strings.Count(page, `<details class="attempt"`); n != 12 {
		t.Errorf("%d attempts on the page, want 12", n)
	}
	reporttest.Contains(t, "the page", page, "get_holdings", "Failed checks", "figures</b>: expected SGD 2,394,755", "Provenance", "0123456789ab", "grader false fail</b> by ana, 2026-10-02")
}

// TestLedgerPage checks the ledger page's figures, its empty state and
// the dry-run banner.
func TestLedgerPage(t *testing.T) {
	p := fixture(t)
	row := LedgerRow{Key: "anthropic:m | builtin:household | report-test", Model: "anthropic:m", Target: "builtin:household", Suite: "report-test",
		AsGraded: p.Reviewed.AsGraded, AfterReview: p.Reviewed.AfterReview, GraderFalseFails: 1, ModelFailures: 1, ExpectationsInQuestion: 1, Unreviewed: 2, Page: "runs/x.html"}
	var b bytes.Buffer
	if err := Ledger(&b, &LedgerPage{Rows: []LedgerRow{row}, Banner: "DRY RUN"}); err != nil {
		t.Fatal(err)
	}
	got := checks(b.String())
	if got[row.Key+"|as-graded-count"] != "5/10" || got[row.Key+"|after-review-ci"] != "[31%, 83%]" || got[row.Key+"|unreviewed"] != "2" {
		t.Errorf("ledger figures: %v", got)
	}
	if !strings.Contains(b.String(), "data-banner") || !strings.Contains(b.String(), `href="runs/x.html"`) {
		t.Error("no banner or no link to the run page")
	}
	b.Reset()
	Ledger(&b, &LedgerPage{})
	if !strings.Contains(b.String(), "No results are published yet") || strings.Contains(b.String(), "data-banner") {
		t.Error("the empty ledger page does not say so, or has a banner")
	}
}

func TestBar(t *testing.T) {
	c := grade.Counts{Passed: 5, Graded: 10, Rate: 0.5, WilsonLow: 0.24, WilsonHigh: 0.76}
	b := bar(c, "#000", 100)
	if b.Low != 24 || b.Span != 52 || b.Tick != 49 {
		t.Errorf("bar = %+v", b)
	}
	if b := bar(grade.Counts{WilsonHigh: 1}, "#000", 100); b.Title != "nothing graded" {
		t.Errorf("empty bar = %+v", b)
	}
}
