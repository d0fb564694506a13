package runner

import (
	"context"
	"testing"

	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/fake"
	"github.com/mcpeval/mcpeval/record"
)

// TestHeaderRecordsConcurrencySettings: the header says how many
// connections the attempts shared and how the model requests in flight were
// limited, as the run actually used them.
func TestHeaderRecordsConcurrencySettings(t *testing.T) {
	s := loadSuite(t, testSuite)
	m, _ := fake.New("perfect", s)
	for _, c := range []struct {
		name        string
		pool, conc  int
		fixed       bool
		wantPool    int
		wantInitial int
	}{
		{"pool 2 of 8 adaptive", 2, 8, false, 2, 8},
		{"default pool", 0, 8, false, DefaultTargetPool, 8},
		{"pool above concurrency", 5, 3, false, 3, 3},
		{"a connection per slot", -1, 4, true, 0, 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec, err := Run(context.Background(), Config{Target: testTarget, Suite: s, Model: m, ModelInfo: model.Info{Spec: "fake:perfect", Fake: true},
				OutDir: t.TempDir(), Attempts: 1, Cases: []string{"g/total"}, Concurrency: c.conc, TargetPool: c.pool, FixedConcurrency: c.fixed})
			if err != nil {
				t.Fatal(err)
			}
			again, err := record.Read(rec.Dir) // as written, not as held
			if err != nil {
				t.Fatal(err)
			}
			h := again.Header
			want := record.InFlight{Adaptive: !c.fixed, Initial: c.wantInitial, Max: c.conc}
			if h.Concurrency != c.conc || h.TargetPool != c.wantPool || h.InFlight == nil || *h.InFlight != want {
				t.Errorf("header: concurrency %d, target_pool %d, in_flight %+v; want %d, %d, %+v",
					h.Concurrency, h.TargetPool, h.InFlight, c.conc, c.wantPool, want)
			}
		})
	}
}
