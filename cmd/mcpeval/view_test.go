package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/record"
)

// TestView serves a run made by mcpeval run, graded with its embedded
// suite, and stops when its context ends; an address other than loopback
// gets a warning.
func TestView(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "runs")
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"run", "--suite", "household", "--model", "fake:invent", "--out", filepath.Join(dir, "invent"), "--quiet"}, nil, &out, &errb); code != 0 && code != 1 {
		t.Fatalf("run: exit %d\n%s", code, errb.String())
	}
	for _, tc := range []struct {
		addr string
		warn bool
	}{{"127.0.0.1:0", false}, {"0.0.0.0:0", true}} {
		ctx, cancel := context.WithCancel(context.Background())
		pr, pw := io.Pipe()
		var stderr bytes.Buffer
		done := make(chan int)
		go func() {
			done <- Main(ctx, []string{"view", "--addr", tc.addr, dir}, nil, pw, &stderr)
			pw.Close()
		}()
		line, err := bufio.NewReader(pr).ReadString('\n')
		if err != nil {
			t.Fatalf("reading the address: %v", err)
		}
		go io.Copy(io.Discard, pr)
		url := strings.Fields(strings.TrimPrefix(line, "mcpeval view: "))[0]
		if tc.addr == "127.0.0.1:0" && !strings.HasPrefix(url, "http://127.0.0.1:") {
			t.Errorf("view serves %s", url)
		}
		resp, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(body), "household") || !strings.Contains(string(body), "fake:invent") {
			t.Errorf("GET %s: %d\n%s", url, resp.StatusCode, body)
		}
		cancel()
		select {
		case code := <-done:
			if code != 0 {
				t.Errorf("view exited %d: %s", code, stderr.String())
			}
		case <-time.After(10 * time.Second):
			t.Fatal("view did not stop when its context ended")
		}
		if got := strings.Contains(stderr.String(), "warning: listening on"); got != tc.warn {
			t.Errorf("--addr %s: warning %v, want %v (stderr %q)", tc.addr, got, tc.warn, stderr.String())
		}
	}
}

// viewPeak serves the run in dir with mcpeval view, a process of its own
// (the test binary run as mcpeval), opens the runs list, the run's page,
// the list of its first case's attempts and that case's attempt #1, then
// stops it. It returns the peak resident memory in MiB and the size of
// the run's page.
func viewPeak(t testing.TB, dir string) (peak float64, page int) {
	t.Helper()
	h, err := record.ReadHeader(dir)
	if err != nil {
		t.Fatal(err)
	}
	cmd, peakOf := measured(t, "view", "--addr", "127.0.0.1:0", dir)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		t.Fatalf("mcpeval view: reading its address: %v: %s", err, errb.String())
	}
	base := strings.TrimSuffix(strings.Fields(strings.TrimPrefix(line, "mcpeval view: "))[0], "/")
	caseID := h.Planned[0].Case
	for _, p := range []string{
		"/",
		"/run/" + url.PathEscape(h.RunID),
		"/run/" + url.PathEscape(h.RunID) + "?" + url.Values{"case": {caseID}}.Encode(),
		"/attempt?" + url.Values{"run": {h.RunID}, "case": {caseID}, "n": {"1"}}.Encode(),
	} {
		resp, err := http.Get(base + p)
		if err != nil {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			t.Fatalf("GET %s: %d\n%s", p, resp.StatusCode, body)
		}
		if strings.HasPrefix(p, "/run/") && !strings.Contains(p, "?") {
			page = len(body)
		}
	}
	syscall.Kill(-cmd.Process.Pid, syscall.SIGINT) // the group: the child stops; time ignores it and reports
	cmd.Wait()                                     // stopped by the signal: its exit status says nothing
	return peakOf(), page
}

// TestViewMemoryFlat: mcpeval view serves a run of 19,000 attempts in
// under 100 MiB at its peak, within half again what a run of 190 takes,
// and the run's page stays small: the server holds verdicts and counters,
// never the attempts, and the page lists cases, not attempts (but for a
// bounded few under each tool confusion).
func TestViewMemoryFlat(t *testing.T) {
	skipPeakMemory(t, "generates a 19,000-attempt record")
	small, big := memoryRecords(t)
	s, sp := viewPeak(t, small)
	b, bp := viewPeak(t, big)
	t.Logf("mcpeval view: peak RSS %.1f MiB at 190 attempts (run page %d bytes), %.1f MiB at 19,000 (run page %d bytes)", s, sp, b, bp)
	if b >= 100 || b > 1.5*s {
		t.Errorf("mcpeval view: peak RSS %.1f MiB at 190 attempts, %.1f MiB at 19,000: want under 100 MiB and within half again", s, b)
	}
	// The page holds the cases, the tool confusion heat maps (tools by
	// tools) and at most grade.MaxCellAttempts attempts under each
	// confusion: bounded whatever the run's size.
	if bp > 128<<10 {
		t.Errorf("the run page of 19,000 attempts is %d bytes, want at most 128 KiB", bp)
	}
}
