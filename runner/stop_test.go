package runner

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/model/fake"
)

func TestStopWhenEndsTheRunWithItsReason(t *testing.T) {
	s := loadSuite(t, testSuite)
	m, _ := fake.New("perfect", s)
	progressed := 0
	cfg := Config{Target: testTarget, Suite: s, Model: m, OutDir: t.TempDir(), Concurrency: 1, Attempts: 5, Cases: []string{"g/total"},
		Progress: func(Progress) { progressed++ }}
	asked := 0
	StopWhen(&cfg, func(p Progress) string {
		asked++
		if p.Done == 2 {
			return "decided at look 1 of 2"
		}
		return ""
	})
	rec, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := StoppedEarly + ": decided at look 1 of 2"
	if rec.Complete() || rec.End.Reason != want || rec.End.Skipped[want] != 3 || len(rec.Attempts) != 2 {
		t.Errorf("end %+v, %d attempts: want 2 attempts and 3 skipped, %q", rec.End, len(rec.Attempts), want)
	}
	if progressed != 2 || asked != 2 {
		t.Errorf("Progress told %d times, decide asked %d times: want 2 and 2", progressed, asked)
	}
	if !strings.HasPrefix(rec.End.Reason, StoppedEarly) {
		t.Errorf("reason %q does not begin with StoppedEarly", rec.End.Reason)
	}
}
