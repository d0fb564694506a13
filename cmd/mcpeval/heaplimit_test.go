package main

import (
	"context"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
)

// limitSeen is a writer that notes the soft memory limit in force when it
// is first written to, and calls then, if set.
type limitSeen struct {
	mu    sync.Mutex
	limit int64
	seen  bool
	then  func()
	text  strings.Builder
}

func (w *limitSeen) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.seen {
		w.seen, w.limit = true, debug.SetMemoryLimit(-1)
		if w.then != nil {
			w.then()
		}
	}
	return w.text.Write(p)
}

// TestCompareAndViewLimitHeap: compare and view, like score, set the soft
// memory limit while they run (compare while it writes the comparison,
// view while it serves) and put the previous one back.
func TestCompareAndViewLimitHeap(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "")
	dir := writeFiles(t, map[string]string{"suite.yaml": gateSuite})
	run := filepath.Join(dir, "run")
	if _, stderr, code := cli("run", "--suite", filepath.Join(dir, "suite.yaml"), "--out", run, "--quiet"); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	prev := debug.SetMemoryLimit(-1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, tc := range []struct {
		args []string
		then func()
	}{
		{[]string{"compare", run, run}, nil},
		{[]string{"view", "--addr", "127.0.0.1:0", run}, cancel},
	} {
		out := &limitSeen{then: tc.then}
		var errb strings.Builder
		if code := Main(ctx, tc.args, nil, out, &errb); code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.args[0], code, errb.String())
		}
		if !out.seen {
			t.Fatalf("%s wrote nothing", tc.args[0])
		}
		if out.limit != heapLimit {
			t.Errorf("%s: the soft memory limit while it runs: %d, want %d", tc.args[0], out.limit, heapLimit)
		}
		if got := debug.SetMemoryLimit(-1); got != prev {
			t.Errorf("%s: the limit after: %d, want the previous %d", tc.args[0], got, prev)
		}
	}
}
