package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/internal/testkit/faultserver"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/fake"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
	"github.com/mcpeval/mcpeval/target"
)

// countedFaultServer returns a stdio target that starts the fault server
// with args through a script appending a line to the returned file at
// every start, so a test can count the server processes a run started.
func countedFaultServer(t *testing.T, args ...string) (target.Config, string) {
	t.Helper()
	return countedFaultServerB(t, args...)
}

func countedFaultServerB(t testing.TB, args ...string) (target.Config, string) {
	t.Helper()
	tc := faultserver.Target(args...)
	dir := t.TempDir()
	starts := filepath.Join(dir, "starts")
	script := filepath.Join(dir, "server.sh")
	body := fmt.Sprintf("#!/bin/sh\necho started >> '%s'\nexec %s\n", starts, strings.TrimPrefix(tc.Spec, "stdio:"))
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	tc.Spec = "stdio:" + script
	return tc, starts
}

func countStarts(t *testing.T, file string) int {
	t.Helper()
	return countStartsB(t, file)
}

func countStartsB(t testing.TB, file string) int {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b), "started\n")
}

// runShared runs case f/total attempts times, concurrency at once, against
// tc with fake:perfect.
func runShared(t *testing.T, tc target.Config, attempts, concurrency, pool int) *record.Run {
	t.Helper()
	s := loadSuite(t, faultSuite)
	m, _ := fake.New("perfect", s)
	rec, err := Run(context.Background(), Config{Suite: s, Model: m, ModelInfo: model.Info{Spec: "fake:perfect"},
		Target: tc, Attempts: attempts, Concurrency: concurrency, TargetPool: pool, OutDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if !rec.Complete() || len(rec.Attempts) != attempts {
		t.Fatalf("complete %v, %d attempts of %d", rec.Complete(), len(rec.Attempts), attempts)
	}
	return rec
}

// TestSharedServers: 16 concurrent attempts of a read-only suite on a
// stdio server start at most 2 server processes (the default pool), use
// both, and the record says which served each call.
func TestSharedServers(t *testing.T) {
	tc, starts := countedFaultServer(t, "-delay", "100ms") // so that the attempts overlap
	rec := runShared(t, tc, 32, 16, 0)
	if n := countStarts(t, starts); n > 2 {
		t.Errorf("16 concurrent attempts started %d servers, want at most 2", n)
	}
	used := map[int]int{}
	for _, a := range byN(t, rec) {
		if a.End != record.EndAnswered {
			t.Errorf("attempt %d ended %s: %+v", a.N, a.End, a.Error)
		}
		for _, c := range a.Calls() {
			used[c.Session]++
		}
	}
	if len(used) != 2 || used[1] == 0 || used[2] == 0 {
		t.Errorf("calls by session %v, want sessions 1 and 2 both used and no call without one", used)
	}
}

// TestSharedServerReplaced: a shared server that crashes fails the
// attempts it was serving, and is replaced by a new session for the
// attempts after them, which answer.
func TestSharedServerReplaced(t *testing.T) {
	tc, starts := countedFaultServer(t, "-crash-on", "3", "-delay", "20ms")
	rec := runShared(t, tc, 12, 4, 2)
	maxSession, errs := 0, 0
	for _, a := range byN(t, rec) {
		switch a.End {
		case record.EndError:
			errs++
			wantError(t, a, record.KindTarget, "calling tool get_total")
		case record.EndAnswered:
			for _, c := range a.Calls() {
				maxSession = max(maxSession, c.Session)
			}
		}
	}
	if errs == 0 {
		t.Error("no attempt failed, though every server crashes on its third call")
	}
	if maxSession < 3 {
		t.Errorf("no answered attempt was served by a replacement session (highest %d)", maxSession)
	}
	if n := countStarts(t, starts); n < 3 {
		t.Errorf("%d servers started, want replacements for the crashed ones", n)
	}
}

// TestActionSuitesDoNotShare: a suite with action cases, or a fresh target,
// keeps a connection per attempt slot.
func TestActionSuitesDoNotShare(t *testing.T) {
	s := loadSuite(t, faultSuite)
	if !Shares(Config{Suite: s}) {
		t.Error("a read-only suite does not share")
	}
	if Shares(Config{Suite: s, FreshTarget: true}) || Shares(Config{Suite: s, TargetPool: -1}) {
		t.Error("a fresh target or a pool of -1 shares")
	}
	s.Cases[0].Action = &suite.Action{}
	if Shares(Config{Suite: s}) {
		t.Error("a suite with an action case shares")
	}
}
