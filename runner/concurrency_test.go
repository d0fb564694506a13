package runner

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/fake"
)

// TestConcurrencyBoundByTheWork: a concurrency far above the attempts
// planned starts no more workers than there are attempts, so memory
// follows the work, not the flag (a million once cost 2.8 GB for three
// attempts).
func TestConcurrencyBoundByTheWork(t *testing.T) {
	s := loadSuite(t, testSuite)
	m, _ := fake.New("perfect", s)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	rec, err := Run(context.Background(), Config{Target: testTarget, Suite: s, Model: m, ModelInfo: model.Info{Spec: "fake:perfect", Fake: true},
		OutDir: t.TempDir(), Attempts: 2, Cases: []string{"g/total"}, Concurrency: 1_000_000, FixedConcurrency: true})
	if err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if len(rec.Attempts) != 2 {
		t.Fatalf("%d attempts recorded, want 2", len(rec.Attempts))
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
		t.Errorf("a run of 2 attempts at concurrency 1,000,000 allocated %d MiB", grew>>20)
	}
}

// BenchmarkConcurrencyFlag shows the memory of a two-attempt run flat in
// the concurrency asked for.
func BenchmarkConcurrencyFlag(b *testing.B) {
	s, err := loadSuiteB(testSuite)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		n    int
	}{{"4", 4}, {"1e6", 1_000_000}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				m, _ := fake.New("perfect", s)
				if _, err := Run(context.Background(), Config{Target: testTarget, Suite: s, Model: m, ModelInfo: model.Info{Spec: "fake:perfect", Fake: true},
					OutDir: b.TempDir(), Attempts: 2, Cases: []string{"g/total"}, Concurrency: c.n, FixedConcurrency: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// overlapModel counts the most Generate calls in flight at once.
type overlapModel struct {
	model.Model
	mu        sync.Mutex
	now, most int
}

func (m *overlapModel) Generate(ctx context.Context, req *model.Request) (*model.Response, error) {
	m.mu.Lock()
	m.now++
	m.most = max(m.most, m.now)
	m.mu.Unlock()
	time.Sleep(5 * time.Millisecond)
	defer func() {
		m.mu.Lock()
		m.now--
		m.mu.Unlock()
	}()
	return m.Model.Generate(ctx, req)
}

// TestSuiteConcurrencyBound: a suite's serial: true (or concurrency: N)
// lowers a larger Concurrency, says so, and the record keeps the
// concurrency the run used.
func TestSuiteConcurrencyBound(t *testing.T) {
	for _, tc := range []struct {
		setting string
		want    int
	}{{"serial: true\n", 1}, {"concurrency: 2\n", 2}} {
		t.Run(tc.setting, func(t *testing.T) {
			s := loadSuite(t, testSuite+tc.setting)
			f, _ := fake.New("perfect", s)
			m := &overlapModel{Model: f}
			var warned []string
			rec, err := Run(context.Background(), Config{Target: testTarget, Suite: s, Model: m, ModelInfo: model.Info{Spec: "fake:perfect", Fake: true},
				OutDir: t.TempDir(), Attempts: 4, Cases: []string{"g/total"}, Concurrency: 8, FixedConcurrency: true, Warn: func(w string) { warned = append(warned, w) }})
			if err != nil {
				t.Fatal(err)
			}
			if rec.Header.Concurrency != tc.want {
				t.Errorf("recorded concurrency %d, want %d", rec.Header.Concurrency, tc.want)
			}
			if m.most > tc.want {
				t.Errorf("%d model requests in flight at once, want at most %d", m.most, tc.want)
			}
			want := fmt.Sprintf("concurrency 8 lowered to %d", tc.want)
			if !strings.Contains(strings.Join(warned, "\n"), want) {
				t.Errorf("warnings %q: want one saying %q", warned, want)
			}
		})
	}
}
