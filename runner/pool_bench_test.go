package runner

import (
	"context"
	"testing"

	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/fake"
)

// BenchmarkSharedServers runs 32 attempts at concurrency 16 on a stdio
// server, each slot with its own server (pool=off, as before shared
// servers) and sharing the default pool (pool=2). Compare with
// benchstat -col /pool.
func BenchmarkSharedServers(b *testing.B) {
	s, err := loadSuiteB(faultSuite)
	if err != nil {
		b.Fatal(err)
	}
	m, _ := fake.New("perfect", s)
	for _, bc := range []struct {
		name string
		pool int
	}{{"pool=off", -1}, {"pool=2", 0}} {
		b.Run(bc.name, func(b *testing.B) {
			tc, starts := countedFaultServerB(b)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				dir := b.TempDir()
				b.StartTimer()
				rec, err := Run(context.Background(), Config{Suite: s, Model: m, ModelInfo: model.Info{Spec: "fake:perfect", Fake: true},
					Target: tc, Attempts: 32, Concurrency: 16, TargetPool: bc.pool, OutDir: dir})
				if err != nil || len(rec.Attempts) != 32 {
					b.Fatalf("run: %v", err)
				}
			}
			b.ReportMetric(float64(countStartsB(b, starts))/float64(b.N), "servers/op")
		})
	}
}

// BenchmarkAttemptGate is BenchmarkAttempt with the adaptive limit on (the
// default) and off (FixedConcurrency): what following the rate limits
// costs per attempt. Compare with benchstat -col /gate.
func BenchmarkAttemptGate(b *testing.B) {
	s, err := loadSuiteB(testSuite)
	if err != nil {
		b.Fatal(err)
	}
	m, _ := fake.New("perfect", s)
	for _, fixed := range []bool{true, false} {
		name := "gate=on"
		if fixed {
			name = "gate=off"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				dir := b.TempDir()
				b.StartTimer()
				rec, err := Run(context.Background(), Config{Target: testTarget, Suite: s, Model: m, OutDir: dir, Attempts: 10, Concurrency: 1,
					Cases: []string{"g/total"}, FixedConcurrency: fixed})
				if err != nil || len(rec.Attempts) != 10 {
					b.Fatalf("run: %v", err)
				}
			}
		})
	}
}
