package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkServeTargetCall is one tools/call round trip with `mcpeval
// serve-target household` over stdio (this test binary run as mcpeval),
// from a go-sdk client. Besides wall time it reports server-cpu-sec/call,
// the CPU time (user and system) the server process spent per call, read
// from /proc before and after the calls: the work of serve-target's side
// alone, which a loaded machine inflates less than wall time; and
// server-peak-MiB, the server's largest resident set.
func BenchmarkServeTargetCall(b *testing.B) {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	bin := filepath.Join(b.TempDir(), "mcpeval") // the test binary runs as mcpeval (TestMain)
	if err := os.Symlink(exe, bin); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	cmd := exec.Command(bin, "serve-target", "household")
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	params := &mcp.CallToolParams{Name: "get_accounts", Arguments: map[string]any{}}
	if _, err := cs.CallTool(ctx, params); err != nil {
		b.Fatal(err)
	}
	cpu0, ok := procCPU(cmd.Process.Pid)
	b.ReportAllocs()
	for b.Loop() {
		if res, err := cs.CallTool(ctx, params); err != nil || res.IsError {
			b.Fatalf("call: %v", err)
		}
	}
	if cpu1, ok1 := procCPU(cmd.Process.Pid); ok && ok1 {
		b.ReportMetric((cpu1-cpu0).Seconds()/float64(b.N), "server-cpu-sec/call")
	}
	if kb, ok := procPeakRSS(cmd.Process.Pid); ok {
		b.ReportMetric(float64(kb)/1024, "server-peak-MiB")
	}
}

// procPeakRSS is the largest resident set process pid has had, in KiB
// (VmHWM of /proc/PID/status); ok is false without /proc.
func procPeakRSS(pid int) (int64, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, false
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kb int64
			_, err := fmt.Sscan(v, &kb)
			return kb, err == nil
		}
	}
	return 0, false
}

// procCPU is the CPU time (user and system) process pid has used, from
// /proc/PID/stat, in clock ticks of 10 ms; ok is false without /proc.
func procCPU(pid int) (time.Duration, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, false
	}
	// The fields after the command name, which is in parentheses.
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	if len(f) < 13 {
		return 0, false
	}
	var utime, stime int64
	fmt.Sscan(f[11], &utime)
	fmt.Sscan(f[12], &stime)
	return time.Duration(utime+stime) * 10 * time.Millisecond, true
}
