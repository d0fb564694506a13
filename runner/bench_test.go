package runner

import (
	"context"
	"testing"

	"github.com/mcpeval/mcpeval/model/fake"
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
