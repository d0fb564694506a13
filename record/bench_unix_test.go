//go:build unix

package record

import (
	"runtime"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// BenchmarkWriteAttemptConcurrent measures appending attempts from eight
// writers at once, each synced to disk before its call returns, as a run
// at concurrency 8 writes them. Besides wall time it reports
// cpu-sec/attempt, the process's CPU time (user and system) per attempt,
// which a loaded machine inflates less.
func BenchmarkWriteAttemptConcurrent(b *testing.B) {
	w, err := Create(b.TempDir(), &Header{RunID: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	var n atomic.Int64
	b.SetParallelism(max(1, 8/runtime.GOMAXPROCS(0)))
	b.ReportAllocs()
	cpu0 := rusageCPU()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			a := benchAttempt(int(n.Add(1)))
			if err := w.Attempt(a); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric((rusageCPU()-cpu0).Seconds()/float64(b.N), "cpu-sec/attempt")
}

// rusageCPU is the CPU time this process has used so far, user and system.
func rusageCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
