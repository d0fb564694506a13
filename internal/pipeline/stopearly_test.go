package pipeline_test

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/internal/pipeline"
	"github.com/mcpeval/mcpeval/record"
)

// runOn runs the household suite on model m with attempts each, one at a
// time, gated against base with stop when base is set.
func runOn(t *testing.T, m string, attempts int, base *record.Run, stop *pipeline.StopEarly) *pipeline.LadderResult {
	t.Helper()
	rc := household(t)
	rc.Attempts, rc.Concurrency = attempts, 1
	cfg := pipeline.LadderConfig{Models: []string{m}, Out: t.TempDir(), Run: rc, StopEarly: stop}
	if base != nil {
		cfg.Baseline, cfg.Gates = base, pipeline.Gates{Baseline: base.Dir}
	}
	res, err := pipeline.RunModels(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestStopEarly: a run gated against a baseline with StopEarly stops at
// the first look that decides, says so in its end line, and the gate
// takes the sequential test's decision, either way.
func TestStopEarly(t *testing.T) {
	base := runOn(t, "fake:perfect", 4, nil, nil).Runs[0].Graded.Record
	stop := &pipeline.StopEarly{Looks: 5, Drop: 0.1, Power: 0.8}

	res := runOn(t, "fake:refuse", 4, base, stop)
	rec := res.Runs[0].Graded.Record
	if rec.Complete() || !strings.HasPrefix(rec.End.Reason, "stopped early: regression decided at look 1 of 5: total 100%") {
		t.Errorf("every attempt failing: end %+v, want stopped early at look 1", rec.End)
	}
	if len(rec.Attempts) >= len(base.Attempts) {
		t.Errorf("%d attempts recorded of %d planned: the run did not stop", len(rec.Attempts), len(base.Attempts))
	}
	if dc := res.Sequential; dc == nil || !dc.Regression || !dc.Early {
		t.Errorf("decision %+v, want an early regression", dc)
	}
	if v := res.Verdict; !res.Checked || v.Passed() || !strings.Contains(strings.Join(v.Failed, "\n"), "(sequential test, docs/statistics.md): regression decided at look 1 of 5") {
		t.Errorf("verdict %+v, want the gate failed by the sequential test", v)
	}

	res = runOn(t, "fake:perfect", 4, base, stop)
	rec = res.Runs[0].Graded.Record
	if rec.Complete() || !strings.HasPrefix(rec.End.Reason, "stopped early: no regression decided at look 2 of 5") {
		t.Errorf("every attempt passing: end %+v, want stopped early at look 2", rec.End)
	}
	if !res.Checked || !res.Verdict.Passed() {
		t.Errorf("verdict %+v, want the gate passed", res.Verdict)
	}

	// Without StopEarly the same run goes to the end and the gate is the
	// comparison's.
	res = runOn(t, "fake:perfect", 4, base, nil)
	if rec := res.Runs[0].Graded.Record; !rec.Complete() || res.Sequential != nil {
		t.Errorf("without StopEarly: complete %v, decision %+v", rec.Complete(), res.Sequential)
	}
}
