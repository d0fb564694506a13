package main

import (
	"runtime/debug"
	"testing"
)

// TestServerGC checks serve-target's collector settings: set when the
// environment says nothing, left to GOGC and GOMEMLIMIT when it does, and
// put back by the function returned.
func TestServerGC(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	before, beforeLimit := debug.SetGCPercent(-1), debug.SetMemoryLimit(-1)
	debug.SetGCPercent(before)
	restore := serverGC()
	percent := debug.SetGCPercent(-1)
	debug.SetGCPercent(percent)
	if limit := debug.SetMemoryLimit(-1); percent != serverGCPercent || limit != serverHeapLimit {
		t.Errorf("GC percent %d, limit %d; want %d and %d", percent, limit, serverGCPercent, serverHeapLimit)
	}
	restore()
	after := debug.SetGCPercent(-1)
	debug.SetGCPercent(after)
	if limit := debug.SetMemoryLimit(-1); after != before || limit != beforeLimit {
		t.Errorf("restored GC percent %d, limit %d; want %d and %d", after, limit, before, beforeLimit)
	}

	t.Setenv("GOGC", "150")
	t.Setenv("GOMEMLIMIT", "1GiB")
	restore = serverGC()
	percent = debug.SetGCPercent(-1)
	debug.SetGCPercent(percent)
	if limit := debug.SetMemoryLimit(-1); percent != before || limit != beforeLimit {
		t.Errorf("with GOGC and GOMEMLIMIT set: GC percent %d, limit %d; want them left at %d and %d", percent, limit, before, beforeLimit)
	}
	restore()
}
