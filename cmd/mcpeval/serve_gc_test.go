package main

import (
	"reflect"
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

// TestCommandsGC checks which commands run with which collector settings:
// the registry is the one place they are set, so a new command that reads
// whole runs is listed here or runs with the runtime's defaults.
func TestCommandsGC(t *testing.T) {
	want := map[string]func() func(){
		"score": limitHeap, "report": limitHeap, "run": limitHeap, "merge": limitHeap,
		"compare": limitHeap, "view": limitHeap, "serve-target": serverGC,
	}
	for name, c := range commands {
		w, ok := want[name]
		switch {
		case !ok && c.gc != nil:
			t.Errorf("%s has collector settings of its own", name)
		case ok && (c.gc == nil || reflect.ValueOf(c.gc).Pointer() != reflect.ValueOf(w).Pointer()):
			t.Errorf("%s does not run with its collector settings", name)
		}
	}
	for name := range want {
		if commands[name] == nil {
			t.Errorf("no command %s", name)
		}
	}
}
