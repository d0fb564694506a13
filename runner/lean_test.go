package runner

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/fake"
	"github.com/mcpeval/mcpeval/record"
)

// TestLeanReadsNoAttemptBack: with Config.Lean the finished run comes
// back without its attempts, the rest as a run read back whole, and the
// record on disk holds every attempt.
func TestLeanReadsNoAttemptBack(t *testing.T) {
	s := loadSuite(t, testSuite)
	m, _ := fake.New("perfect", s)
	cfg := Config{Target: testTarget, Suite: s, Model: m, ModelInfo: model.Info{Spec: "fake:perfect", Fake: true},
		OutDir: t.TempDir(), Attempts: 2, Cases: []string{"g/total"}, Lean: true}
	rec, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Attempts != nil || rec.End == nil || !rec.Complete() {
		t.Fatalf("lean run: %d attempts held, end %+v; want none held and a complete end", len(rec.Attempts), rec.End)
	}
	whole, err := record.Read(rec.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(whole.Attempts) != 2 {
		t.Errorf("the record holds %d attempts, want 2", len(whole.Attempts))
	}
	whole.Attempts = nil
	if d := cmp.Diff(whole, rec); d != "" {
		t.Errorf("lean run (-read whole +lean):\n%s", d)
	}
}
