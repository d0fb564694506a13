package view

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/internal/review"
)

// TestReviewRefusesSymlinkedFile: a run whose reviews.jsonl is a symbolic
// link to a file outside it gets no review from the viewer, and the file
// the link points at is left as it was.
func TestReviewRefusesSymlinkedFile(t *testing.T) {
	root := standardRuns(t)
	outside := filepath.Join(t.TempDir(), "outside.txt")
	if err := os.WriteFile(outside, []byte("not mcpeval's\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "new", review.FileName)); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	s, ts := newTest(t, root)
	v := form("csrf", s.CSRF(), "run", "new-run", "case", "money/net-worth", "n", "1", "verdict", "grader-false-fail", "note", "right", "reviewer", "bob")
	req, _ := http.NewRequest("POST", ts.URL+"/review", strings.NewReader(httpForm(v)))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", ts.URL)
	resp, err := noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode == http.StatusSeeOther {
		t.Errorf("a review through a symlinked %s was accepted", review.FileName)
	}
	if b, _ := os.ReadFile(outside); string(b) != "not mcpeval's\n" {
		t.Errorf("the file outside the run was written: %q", b)
	}
}
