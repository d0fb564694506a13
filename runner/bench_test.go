package runner

import (
	"context"
	"testing"

	"github.com/mcpeval/mcpeval/model/fake"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/target"
)

// BenchmarkAttempt measures the harness's own cost per attempt: a fake
// model, the in-memory transport, one tool call, the record synced to disk.
// Compare runs with benchstat; the model is never the harness.
func BenchmarkAttempt(b *testing.B) {
	s, err := loadSuiteB(testSuite)
	if err != nil {
		b.Fatal(err)
	}
	m, _ := fake.New("perfect", s)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		dir := b.TempDir()
		b.StartTimer()
		rec, err := Run(context.Background(), Config{Target: testTarget, Suite: s, Model: m, OutDir: dir, Attempts: 10, Concurrency: 1, Cases: []string{"g/total"}})
		if err != nil || len(rec.Attempts) != 10 {
			b.Fatalf("run: %v", err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*10), "ns/attempt")
}

// BenchmarkTurn measures the attempt loop alone, turn by turn: one
// connection to the in-process test server, kept open, and attempts of a
// case with one tool call (two model turns: the call, then the answer),
// scrubbed as for the record but not written. ns/turn, cpu-ns/turn (the
// process's CPU time, garbage collection included) and the B/op and
// allocs/op (per attempt, so per two turns) are the harness's own cost per
// model turn, the fake model's being next to nothing.
func BenchmarkTurn(b *testing.B) {
	s, err := loadSuiteB(testSuite)
	if err != nil {
		b.Fatal(err)
	}
	m, _ := fake.New("perfect", s)
	ctx := context.Background()
	r, err := newRun(Config{Target: testTarget, Suite: s, Model: m, FixedConcurrency: true})
	if err != nil {
		b.Fatal(err)
	}
	conn, err := target.Dial(ctx, r.cfg.Target)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	if err := r.listTools(ctx, conn); err != nil {
		b.Fatal(err)
	}
	r.header = &record.Header{ToolsHash: ToolsHash(r.shown)}
	p := record.Planned{Case: "g/total", N: 1}
	turns := 0
	b.ReportAllocs()
	cpu0, cpuOK := processCPU()
	for b.Loop() {
		a := r.attempt(ctx, conn, p)
		if a.End != record.EndAnswered || len(a.Turns) != 2 {
			b.Fatalf("attempt ended %s after %d turns: %+v", a.End, len(a.Turns), a.Error)
		}
		r.scrub.attempt(a)
		turns += len(a.Turns)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(turns), "ns/turn")
	if cpu1, ok := processCPU(); ok && cpuOK {
		// CPU, unlike wall time, does not count the time spent waiting for
		// a core on a loaded machine.
		b.ReportMetric(float64((cpu1-cpu0).Nanoseconds())/float64(turns), "cpu-ns/turn")
	}
}
