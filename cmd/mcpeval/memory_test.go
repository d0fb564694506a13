package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/mcpeval/mcpeval/record"
)

// The memory tests measure the peak resident memory (the kernel's maxrss,
// VmHWM) of the CLI run as a process of its own: the test binary
// re-executed as "mcpeval", as testscript does. Resident memory, not heap
// statistics, because it is what a machine has to have, and it counts
// everything: the runtime, garbage not yet collected, the binary.

// householdRecord runs the household suite once with fake:perfect, 10
// attempts a case (190 attempts), in dir/small, and writes dir/big from
// it: the same attempts replayed times-fold (attempts numbered on), as
// a run of times×190 attempts records them. It returns both directories.
func householdRecords(t testing.TB, dir string, times int) (small, big string) {
	t.Helper()
	small = filepath.Join(dir, "small")
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"run", "--model", "fake:perfect", "--attempts", "10", "--quiet", "--out", small}, nil, &out, &errb); code != 0 {
		t.Fatalf("run: exit %d: %s", code, errb.String())
	}
	base, err := record.Read(small)
	if err != nil {
		t.Fatal(err)
	}
	big = filepath.Join(dir, "big")
	if err := replay(base, big, times); err != nil {
		t.Fatal(err)
	}
	return small, big
}

// replay writes in dir a record of base's attempts replayed times-fold:
// each case's attempts numbered on (attempt n of copy k is number
// k×perCase+n), planned as a run of that many attempts plans them. The
// header goes through record.Create; the attempts are appended without a
// sync each, which a generator does not need.
func replay(base *record.Run, dir string, times int) error { return replayBroken(base, dir, times, 0) }

// replayBroken is replay with every breakEvery-th attempt's answer
// replaced by one that answers nothing, so that the run has failures
// (none when breakEvery is 0).
func replayBroken(base *record.Run, dir string, times, breakEvery int) error {
	perCase := map[string]int{}
	for _, a := range base.Attempts {
		perCase[a.Case] = max(perCase[a.Case], a.N)
	}
	h := base.Header
	h.Planned = nil
	h.Attempts = 0
	for k := 0; k < times; k++ {
		for _, p := range base.Header.Planned {
			h.Planned = append(h.Planned, record.Planned{Case: p.Case, N: k*perCase[p.Case] + p.N})
		}
	}
	h.Attempts = len(h.Planned) / max(1, len(perCase))
	w, err := record.Create(dir, &h)
	if err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	f, err := os.OpenFile(filepath.Join(dir, record.FileName), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	enc := json.NewEncoder(bw)
	i := 0
	for k := 0; k < times; k++ {
		for _, a := range base.Attempts {
			a.N += k * perCase[a.Case]
			if i++; breakEvery > 0 && i%breakEvery == 0 {
				a.Answer = "I could not work that out."
				a.Turns = append(a.Turns[:len(a.Turns):len(a.Turns)], record.Turn{Text: a.Answer})
			}
			if err := enc.Encode(struct {
				Attempt *record.Attempt `json:"attempt"`
			}{&a}); err != nil {
				return err
			}
		}
	}
	if err := enc.Encode(struct {
		End *record.End `json:"end"`
	}{&record.End{Finish: base.End.Finish, Complete: true}}); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return f.Close()
}

// peakRSS runs the CLI with args as a process of its own and returns its
// peak resident memory in MiB.
func peakRSS(t testing.TB, args ...string) float64 {
	t.Helper()
	cmd, peak := measured(t, args...)
	cmd.Stdout = io.Discard
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("mcpeval %v: %v: %s", args, err, errb.String())
	}
	return peak()
}

// measured returns the command that runs the CLI with args, and a function
// that reads its peak resident memory in MiB once it has exited.
//
// The command is started under /usr/bin/time, which reports its child's
// peak. The child's own rusage cannot be used: Linux counts in a process's
// peak the peak of the memory it was started from when it execs, and
// os/exec starts it sharing this test process's memory, so a test process
// that had grown to 100 MiB measured every child at 100 MiB at least.
// time is a small process: what its child is started from adds little.
func measured(t testing.TB, args ...string) (*exec.Cmd, func() float64) {
	t.Helper()
	if _, err := os.Stat("/usr/bin/time"); err != nil {
		t.Skip("no /usr/bin/time to measure a child's peak memory with")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// The test binary runs as mcpeval when its name says so (TestMain).
	bin := filepath.Join(t.TempDir(), "mcpeval")
	if err := os.Symlink(exe, bin); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "peak")
	cmd := exec.Command("/usr/bin/time", append([]string{"-f", "%M", "-o", out, bin}, args...)...)
	// Its own process group: a signal for the child reaches it through
	// the group, which time, waiting on it, ignores.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd, func() float64 {
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatalf("reading the peak memory time wrote: %v", err)
		}
		fields := strings.Fields(string(b))
		if len(fields) == 0 {
			t.Fatalf("time wrote no peak memory: %q", b)
		}
		kib, err := strconv.ParseFloat(fields[len(fields)-1], 64)
		if err != nil {
			t.Fatalf("time's peak memory %q: %v", b, err)
		}
		return kib / 1024
	}
}

// skipPeakMemory skips a peak-memory test in -short mode, saying why (it
// makes or runs a large run), and under the race detector, whose shadow
// memory it would measure.
func skipPeakMemory(t *testing.T, why string) {
	t.Helper()
	if testing.Short() {
		t.Skip(why)
	}
	if raceDetector {
		t.Skip("peak memory under the race detector is the detector's")
	}
}

// memoryRecords makes the household records of 190 and 19,000 attempts
// (householdRecords, 100-fold) in a temporary directory, or in
// $MCPEVAL_MEMORY_RECORDS when it is set, to keep them and measure other
// builds against them: records it finds complete there are used again.
func memoryRecords(t *testing.T) (small, big string) {
	t.Helper()
	dir := t.TempDir()
	if keep := os.Getenv("MCPEVAL_MEMORY_RECORDS"); keep != "" {
		small, big = filepath.Join(keep, "small"), filepath.Join(keep, "big")
		if complete(small) && complete(big) {
			return small, big
		}
		dir = keep
	}
	return householdRecords(t, dir, 100)
}

// complete reports whether dir holds a complete record. It reads the
// record as a stream, holding no attempt (see measured).
func complete(dir string) bool {
	r, err := record.Open(dir)
	if err != nil {
		return false
	}
	defer r.Close()
	return r.Run().Complete()
}

// TestMemoryFlatInAttempts: scoring and reporting a run of 19,000
// attempts takes under 100 MiB at its peak, and within half again what a
// run of 190 takes.
func TestMemoryFlatInAttempts(t *testing.T) {
	skipPeakMemory(t, "generates a 19,000-attempt record")
	small, big := memoryRecords(t)
	junit := filepath.Join(t.TempDir(), "junit.xml")
	for _, cmd := range [][]string{
		{"score"},
		{"report"},
		{"report", "--json"},
		{"report", "--markdown", "--junit", junit},
	} {
		s := peakRSS(t, append(cmd, small)...)
		b := peakRSS(t, append(cmd, big)...)
		t.Logf("mcpeval %v: peak RSS %.1f MiB at 190 attempts, %.1f MiB at 19,000", cmd, s, b)
		if b >= 100 || s >= 100 {
			t.Errorf("mcpeval %v: peak RSS %.1f MiB at 190 attempts, %.1f MiB at 19,000: want both under 100 MiB", cmd, s, b)
		}
		if b > 1.5*s {
			t.Errorf("mcpeval %v: peak RSS %.1f MiB at 19,000 attempts, more than half again the %.1f MiB at 190", cmd, b, s)
		}
	}
	// compare grades both runs as streams.
	s, b := peakRSS(t, "compare", small, small), peakRSS(t, "compare", big, big)
	t.Logf("mcpeval compare: peak RSS %.1f MiB at 2×190 attempts, %.1f MiB at 2×19,000", s, b)
	if b >= 100 || b > 1.5*s {
		t.Errorf("mcpeval compare: peak RSS %.1f MiB at 2×190 attempts, %.1f MiB at 2×19,000: want under 100 MiB and flat", s, b)
	}
}

// BenchmarkScoreMemory reports the peak resident memory of mcpeval score
// over the household suite's records of 190 and 19,000 attempts (peak-MiB),
// and the time it takes.
func BenchmarkScoreMemory(b *testing.B) {
	small, big := householdRecords(b, b.TempDir(), 100)
	for _, c := range []struct {
		name, dir string
	}{{"attempts=190", small}, {"attempts=19000", big}} {
		for _, cmd := range []string{"score", "report"} {
			b.Run(fmt.Sprintf("%s/%s", cmd, c.name), func(b *testing.B) {
				peak := 0.0
				for i := 0; i < b.N; i++ {
					peak = max(peak, peakRSS(b, cmd, c.dir))
				}
				b.ReportMetric(peak, "peak-MiB")
			})
		}
	}
}

// TestLargeRunPage: the HTML page of a run of 57,000 attempts, one in
// seven failing, is under 10 MB and says that its passes are summarised.
// Its peak memory is logged: the grades (grades.json, a verdict per
// attempt) are still read whole.
func TestLargeRunPage(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a 57,000-attempt record")
	}
	dir := t.TempDir()
	small, _ := householdRecords(t, dir, 1)
	base, err := record.Read(small)
	if err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "57k")
	if err := replayBroken(base, big, 300, 7); err != nil {
		t.Fatal(err)
	}
	peakRSS(t, "score", big)
	page := filepath.Join(dir, "page.html")
	peak := peakRSS(t, "report", big, "--html", page)
	st, err := os.Stat(page)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("report --html of 57,000 attempts: a page of %.1f MB, peak RSS %.1f MiB", float64(st.Size())/1e6, peak)
	if st.Size() >= 10e6 {
		t.Errorf("the page of 57,000 attempts is %.1f MB, want under 10 MB", float64(st.Size())/1e6)
	}
	b, _ := os.ReadFile(page)
	for _, want := range []string{"Passes are summarised", fmt.Sprintf("shown of %d recorded", 300*len(base.Attempts)), `data-outcome="fail"`} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

// TestRunMemoryFlat: a run of the household suite with fake:perfect takes
// under 100 MiB at its peak at 19,000 attempts, and within half again
// what 190 take: the runner holds no attempt, and the finished record is
// graded as a stream.
func TestRunMemoryFlat(t *testing.T) {
	skipPeakMemory(t, "runs 19,000 attempts")
	dir := t.TempDir()
	s := peakRSS(t, "run", "--model", "fake:perfect", "--attempts", "10", "--concurrency", "16", "--quiet", "--out", filepath.Join(dir, "190"))
	b := peakRSS(t, "run", "--model", "fake:perfect", "--attempts", "1000", "--concurrency", "16", "--quiet", "--out", filepath.Join(dir, "19000"))
	t.Logf("mcpeval run: peak RSS %.1f MiB at 190 attempts, %.1f MiB at 19,000", s, b)
	if b >= 100 || b > 1.5*s {
		t.Errorf("mcpeval run: peak RSS %.1f MiB at 190 attempts, %.1f MiB at 19,000: want under 100 MiB and within half again", s, b)
	}
}
