package pipeline

import (
	"fmt"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/compare"
	"github.com/mcpeval/mcpeval/internal/sequential"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/runner"
)

// StopEarly is how a run gated against a baseline may stop before its
// planned attempts are done: a group-sequential test of the run's total
// pass rate against the baseline's (internal/sequential), at the gate's
// alpha.
type StopEarly struct {
	// Looks is the number of looks; 0 means sequential.DefaultLooks.
	Looks int
	// Drop is the drop in pass rate the interim looks rule out before
	// stopping for "no regression".
	Drop float64
	// Power is the chance of calling a drop of Drop a regression that the
	// interim looks keep: each stops for "no regression" at
	// (1 − Power)/Looks.
	Power float64
}

// watch makes run configuration rc stop once the sequential test against
// base has decided, at level alpha, and returns the monitor that holds
// its decision.
func (st *StopEarly) watch(rc *runner.Config, base *record.Run, alpha float64) *watcher {
	bt := grade.Run(rc.Suite, base).Totals
	w := &watcher{}
	s := rc.Suite
	runner.StopWhen(rc, func(p runner.Progress) string {
		if w.m == nil {
			w.m = sequential.NewMonitor(sequential.Design{BasePassed: bt.Passed, BaseN: bt.Graded, Planned: p.Total,
				Looks: st.Looks, Alpha: alpha, Beta: 1 - st.Power, Drop: st.Drop})
		}
		c := s.Case(p.Attempt.Case)
		if c == nil {
			return ""
		}
		var dc *sequential.Decision
		switch grade.Attempt(s, c, p.Header, p.Attempt).Outcome {
		case grade.Pass:
			dc = w.m.Add(true)
		case grade.Fail:
			dc = w.m.Add(false)
		}
		if dc == nil || !dc.Early {
			return ""
		}
		return dc.String()
	})
	return w
}

// watcher holds the monitor watch starts once the run's first finished
// attempt says how many the run plans.
type watcher struct{ m *sequential.Monitor }

// decision is the sequential test's decision on the run; nil when no
// attempt finished. It is read once the run has ended.
func (w *watcher) decision() *sequential.Decision {
	if w.m == nil {
		return nil
	}
	dc := w.m.Final()
	return &dc
}

// sequentialReasons say why a run fails the baseline gate under the
// sequential test: the runs cannot be compared, or the test decided a
// regression. They say nothing when it decided none.
func sequentialReasons(cmp *compare.Comparison, dc *sequential.Decision, base string) []string {
	if cmp != nil && !cmp.Comparable {
		return CompareReasons(cmp, base)
	}
	if dc == nil || !dc.Regression {
		return nil
	}
	return []string{fmt.Sprintf("significant regression against the baseline %s (sequential test, docs/statistics.md): %s", base, dc)}
}

// watch sets run configuration rc to stop early when cfg asks for it (a
// StopEarly and a Baseline), and returns what watches it; nil otherwise.
func (cfg *LadderConfig) watch(rc *runner.Config) *watcher {
	if cfg.StopEarly == nil || cfg.Baseline == nil || rc.Suite == nil {
		return nil
	}
	alpha := cfg.Alpha
	if alpha <= 0 {
		alpha = compare.DefaultAlpha
	}
	return cfg.StopEarly.watch(rc, cfg.Baseline, alpha)
}
