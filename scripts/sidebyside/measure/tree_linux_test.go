package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestRunWaitsForOrphans runs a shell that leaves a child behind and
// exits: the orphan is handed to measure, waited for and counted, and the
// shell's exit status is measure's.
func TestRunWaitsForOrphans(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	results := filepath.Join(t.TempDir(), "results")
	// The orphan spins a little: its CPU time must be counted.
	orphan := `(i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; sleep 0.3) & exit 3`
	start := time.Now()
	code, err := runCmd([]string{"-results", results, "-tool", "sh", "-samples", "7", "-round", "2", "--", "/bin/sh", "-c", orphan})
	if err != nil {
		t.Fatal(err)
	}
	if code != 3 {
		t.Errorf("exit %d, want the shell's 3", code)
	}
	if took := time.Since(start); took < 300*time.Millisecond {
		t.Errorf("measure returned after %v, before the orphan's 0.3 s sleep ended", took)
	}
	b, err := os.ReadFile(results)
	if err != nil {
		t.Fatal(err)
	}
	var r Run
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	// The shell and the subshell it left behind (whose sleep the
	// subshell waits for itself).
	if r.Processes < 2 {
		t.Errorf("%d processes waited for, want the shell and its orphan", r.Processes)
	}
	if r.Tool != "sh" || r.Samples != 7 || r.Round != 2 || r.Exit != 3 || r.Requests != -1 {
		t.Errorf("run = %+v", r)
	}
	if r.CPUS <= 0 || r.PeakProcKiB <= 0 {
		t.Errorf("no CPU time or memory counted: %+v", r)
	}
}
