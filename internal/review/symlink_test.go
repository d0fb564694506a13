package review

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/record"
)

// TestAddRefusesSymlink: Add writes a review only into the run's own
// reviews.jsonl: a symbolic link there (to a file outside the run, or a
// dangling one) is refused, and nothing is written where it points.
func TestAddRefusesSymlink(t *testing.T) {
	for _, dangling := range []bool{false, true} {
		dir := t.TempDir()
		outside := filepath.Join(t.TempDir(), "outside.txt")
		if !dangling {
			if err := os.WriteFile(outside, nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Symlink(outside, filepath.Join(dir, FileName)); err != nil {
			t.Skipf("no symbolic links here: %v", err)
		}
		rec := &record.Run{Dir: dir, Header: record.Header{RunID: "r"}}
		log, err := Load(rec)
		if err != nil {
			t.Fatal(err)
		}
		err = log.Add(Review{Case: "a/b", N: 1, Fingerprint: "f", Verdict: ModelFailure, Note: "why", Reviewer: "ana", Time: time.Now()})
		if err == nil || !strings.Contains(err.Error(), "symbolic link") {
			t.Errorf("dangling %v: Add through a symlink: %v, want a refusal naming the link", dangling, err)
		}
		b, err := os.ReadFile(outside)
		switch {
		case dangling && err == nil:
			t.Errorf("a dangling link's target was created: %q", b)
		case !dangling && len(b) > 0:
			t.Errorf("the file outside the run was written: %q", b)
		}
	}
}
