package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestOutputWriteErrorFailsTheCommand: an output that cannot be written
// (the run's grades.json, a --junit or --summary file on a full disk)
// fails the command with exit 1 and the error, and never lets a gate say
// it passed.
func TestOutputWriteErrorFailsTheCommand(t *testing.T) {
	dir := t.TempDir()
	run := []string{"run", "--attempts", "1", "--case", "single-tool/bnd-units", "--quiet", "--min-pass", "0.5"}

	// grades.json cannot be written: a directory with a file in it stands
	// where it goes, so the rename over it fails as a full disk would.
	out := filepath.Join(dir, "r")
	if err := os.MkdirAll(filepath.Join(out, "grades.json", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := cli(append(run, "--out", out)...)
	if code != exitFailure || !strings.Contains(stderr, "grades.json") || strings.Contains(stderr, "gate passed") {
		t.Errorf("grades.json unwritable: exit %d, stderr %q; want 1 naming grades.json, and no gate passed", code, stderr)
	}
	// score and merge write grades.json too.
	_, stderr, code = cli("score", out)
	if code != exitFailure || !strings.Contains(stderr, "grades.json") {
		t.Errorf("score with grades.json unwritable: exit %d, stderr %q; want 1", code, stderr)
	}

	if runtime.GOOS != "linux" {
		return
	}
	// /dev/full: every write fails with "no space left on device".
	for _, flag := range []string{"--junit", "--summary"} {
		_, stderr, code := cli(append(run, "--out", filepath.Join(dir, "full"+flag), flag, "/dev/full")...)
		if code != exitFailure || !strings.Contains(stderr, "no space left on device") || strings.Contains(stderr, "gate passed") {
			t.Errorf("%s /dev/full: exit %d, stderr %q; want 1 and the error, and no gate passed", flag, code, stderr)
		}
	}
	ok := filepath.Join(dir, "ok")
	if _, stderr, code := cli(append(run, "--out", ok)...); code != exitOK {
		t.Fatalf("a run: exit %d: %s", code, stderr)
	}
	_, stderr, code = cli("report", ok, "--junit", "/dev/full")
	if code != exitFailure || !strings.Contains(stderr, "no space left on device") {
		t.Errorf("report --junit /dev/full: exit %d, stderr %q; want 1 and the error", code, stderr)
	}
}
