package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpeval/mcpeval/internal/judge"
	"github.com/mcpeval/mcpeval/record"
)

// TestMemoryFlatJudge: scoring a run of 19,000 attempts with a judge (the
// fake one, which costs nothing and needs no --spend) takes under 100 MiB
// at its peak, and within half again what a run of 190 takes: the run is
// graded as a stream and the judge handed only the answers it reads. Each
// run is a copy of memoryRecords' record with no opinions yet, so that
// the judge is asked about every answer of a decline case.
func TestMemoryFlatJudge(t *testing.T) {
	skipPeakMemory(t, "generates a 19,000-attempt record")
	small, big := memoryRecords(t)
	small, big = unjudged(t, small), unjudged(t, big)
	s := peakRSS(t, "score", small, "--judge", "fake:phrases")
	b := peakRSS(t, "score", big, "--judge", "fake:phrases")
	t.Logf("mcpeval score --judge fake:phrases: peak RSS %.1f MiB at 190 attempts, %.1f MiB at 19,000", s, b)
	if b >= 100 || s >= 100 {
		t.Errorf("mcpeval score --judge fake:phrases: peak RSS %.1f MiB at 190 attempts, %.1f MiB at 19,000: want both under 100 MiB", s, b)
	}
	if b > 1.5*s {
		t.Errorf("mcpeval score --judge fake:phrases: peak RSS %.1f MiB at 19,000 attempts, more than half again the %.1f MiB at 190", b, s)
	}
	// The judge read the big run's answers, a hundred times the small's.
	ns, nb := opinions(t, small), opinions(t, big)
	if ns == 0 || nb != 100*ns {
		t.Errorf("the judge gave %d opinions on 190 attempts and %d on 19,000: want some, and a hundred times as many", ns, nb)
	}
}

// unjudged copies the record in dir, alone, to a directory of its own and
// returns it: a run as recorded, with no grades or opinions, leaving dir
// as the other memory tests score it. The record is copied as a stream
// (see measured).
func unjudged(t *testing.T, dir string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), filepath.Base(dir))
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	src, err := os.Open(filepath.Join(dir, record.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.Create(filepath.Join(out, record.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
	return out
}

// opinions counts the attempts the judge gave its opinion on in the run
// in dir.
func opinions(t *testing.T, dir string) int {
	t.Helper()
	ops, err := judge.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	return len(ops.Given)
}
