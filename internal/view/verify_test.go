package view

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// draftRuns writes the standard runs, graded against a copy of the test
// suite whose money/net-worth is marked verified: false; it returns the
// runs' root and the copy's path.
func draftRuns(t *testing.T) (root, file string) {
	t.Helper()
	root = standardRuns(t)
	b, err := os.ReadFile("testdata/suite.yaml")
	if err != nil {
		t.Fatal(err)
	}
	draft := strings.Replace(string(b), "    group: money\n", "    group: money\n    verified: false   # drafted\n", 1)
	file = filepath.Join(t.TempDir(), "suite.yaml")
	if err := os.WriteFile(file, []byte(draft), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, file
}

func draftSuite(file string) SuiteFunc {
	return func(*record.Header) (*suite.Suite, error) { return suite.Load(file) }
}

// postTo posts form v to path and returns the status, the body and where
// a redirect goes.
func postTo(t *testing.T, url string, v map[string][]string, hdr map[string]string) (int, string, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(httpForm(v)))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for k, x := range hdr {
		req.Header.Set(k, x)
	}
	resp, err := noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header.Get("Location")
}

func TestVerifyCaseFromTheViewer(t *testing.T) {
	root, file := draftRuns(t)
	before, _ := os.ReadFile(file)
	s, ts := serve(t, Options{Dirs: []string{root}, Suite: draftSuite(file), Reviewer: "alice", Version: "test"})

	_, body, _ := get(t, ts.URL, attemptPath("new-run", "money/net-worth", 1))
	for _, want := range []string{`id="draft-case"`, `id="verify-form"`, `action="/verify"`, `id="verify-case"`, "verified: false", "none: the case checks its answer only", "What&#39;s our total net worth right now?"} {
		if !strings.Contains(body, want) {
			t.Errorf("the attempt page of a draft lacks %s", want)
		}
	}
	checkEscaped(t, "attempt page of a draft", body)
	if _, body, _ := get(t, ts.URL, attemptPath("new-run", "money/deposit", 1)); strings.Contains(body, `id="verify-form"`) {
		t.Error("a case a person wrote is offered for verifying")
	}

	ok := form("csrf", s.CSRF(), "run", "new-run", "case", "money/net-worth", "n", "1", "checked", "1", "reviewer", "bob")
	noTok := form("run", "new-run", "case", "money/net-worth", "n", "1", "checked", "1", "reviewer", "bob")
	if c, _, _ := postTo(t, ts.URL+"/verify", noTok, nil); c != 403 {
		t.Errorf("verify without the token: %d, want 403", c)
	}
	if c, _, _ := postTo(t, ts.URL+"/verify", ok, map[string]string{"Origin": "http://evil.example"}); c != 403 {
		t.Errorf("verify from another origin: %d, want 403", c)
	}
	unchecked := form("csrf", s.CSRF(), "run", "new-run", "case", "money/net-worth", "n", "1", "reviewer", "bob")
	if c, body, _ := postTo(t, ts.URL+"/verify", unchecked, nil); c != 400 || !strings.Contains(body, "checked the case") {
		t.Errorf("verify without saying the case was checked: %d", c)
	}
	if after, _ := os.ReadFile(file); string(after) != string(before) {
		t.Fatalf("a refused verify changed the file:\n%s", after)
	}

	c, _, loc := postTo(t, ts.URL+"/verify", ok, map[string]string{"Origin": ts.URL})
	if c != 303 || !strings.Contains(loc, "verified=") {
		t.Fatalf("verify: %d, to %q; want 303 back to the attempt", c, loc)
	}
	after, _ := os.ReadFile(file)
	stamp := regexp.MustCompile(`verified_at: "[0-9T:Z-]+"`)
	want := strings.Replace(string(before), "verified: false   # drafted\n", "verified: true   # drafted\n    verified_by: \"bob\"\n    verified_at: \"T\"\n", 1)
	if got := stamp.ReplaceAllString(string(after), `verified_at: "T"`); got != want {
		t.Errorf("the file after verifying:\n%s\nwant:\n%s", after, want)
	}
	_, body, _ = get(t, ts.URL, loc)
	if !strings.Contains(body, `id="verified"`) || strings.Contains(body, `id="verify-form"`) {
		t.Error("after verifying, the page does not say so, or still offers it")
	}
	if c, body, _ := postTo(t, ts.URL+"/verify", ok, nil); c != 409 || !strings.Contains(body, "already verified by bob") {
		t.Errorf("verifying twice: %d", c)
	}
}

func TestReadOnlyViewerWritesNothing(t *testing.T) {
	root, file := draftRuns(t)
	before, _ := os.ReadFile(file)
	s, ts := serve(t, Options{Dirs: []string{root}, Suite: draftSuite(file), Reviewer: "alice", Version: "test", ReadOnly: true, Poll: 100 * time.Millisecond})

	_, body, _ := get(t, ts.URL, attemptPath("new-run", "money/net-worth", 1))
	for _, bad := range []string{`id="verify-form"`, `id="review-form"`} {
		if strings.Contains(body, bad) {
			t.Errorf("a read-only viewer offers %s", bad)
		}
	}
	for _, want := range []string{`id="verify-read-only"`, `id="review-read-only"`} {
		if !strings.Contains(body, want) {
			t.Errorf("a read-only viewer does not say so (%s)", want)
		}
	}
	verify := form("csrf", s.CSRF(), "run", "new-run", "case", "money/net-worth", "n", "1", "checked", "1", "reviewer", "bob")
	if c, body, _ := postTo(t, ts.URL+"/verify", verify, nil); c != 403 || !strings.Contains(body, "started with --read-only") {
		t.Errorf("verify on a read-only viewer: %d", c)
	}
	rev := form("csrf", s.CSRF(), "run", "new-run", "case", "money/net-worth", "n", "1", "verdict", "m", "note", "x", "reviewer", "bob")
	if c, body, _ := postTo(t, ts.URL+"/review", rev, nil); c != 403 || !strings.Contains(body, "started with --read-only") {
		t.Errorf("review on a read-only viewer: %d", c)
	}
	if after, _ := os.ReadFile(file); string(after) != string(before) {
		t.Errorf("a read-only viewer changed the suite:\n%s", after)
	}
	if _, err := os.Stat(filepath.Join(root, "new", "reviews.jsonl")); err == nil {
		t.Error("a read-only viewer wrote reviews.jsonl")
	}
}
