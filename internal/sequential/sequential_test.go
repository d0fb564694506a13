package sequential

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// sims is how many runs each simulation draws.
const sims = 10_000

// simulate runs design d sims times with new attempts passing at rate,
// the baseline drawn anew at baseRate for each run when baseRate ≥ 0
// (else held as d records it), and counts the regressions called and the
// runs that stopped before the last look.
func simulate(r *rand.Rand, d Design, rate, baseRate float64) (regressions, early int) {
	for range sims {
		dd := d
		if baseRate >= 0 {
			dd.BasePassed = 0
			for range d.BaseN {
				if r.Float64() < baseRate {
					dd.BasePassed++
				}
			}
		}
		m := NewMonitor(dd)
		for range d.Planned {
			if dc := m.Add(r.Float64() < rate); dc != nil {
				break
			}
		}
		dc := m.Final()
		if dc.Regression {
			regressions++
		}
		if dc.Early {
			early++
		}
	}
	return regressions, early
}

// within fails unless hits out of sims is within 3 standard errors of want.
func within(t *testing.T, what string, hits int, want float64) {
	t.Helper()
	got := float64(hits) / sims
	se := math.Sqrt(max(want*(1-want), 1e-4) / sims)
	if math.Abs(got-want) > 3*se {
		t.Errorf("%s: simulated %.4f over %d runs, computed %.4f: more than 3 standard errors (%.4f) apart", what, got, sims, want, se)
	} else {
		t.Logf("%s: simulated %.4f over %d runs, computed %.4f (3 SE %.4f)", what, got, sims, want, 3*se)
	}
}

// TestErrorRatesSimulated checks the design's exact error rates, and its
// promise of at most Alpha false regressions, against simulated runs.
func TestErrorRatesSimulated(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 30))
	d := Design{BasePassed: 54, BaseN: 60, Planned: 60, Looks: 5, Alpha: 0.05, Beta: 0.2, Drop: 0.2}

	// Type I, against this baseline: the new run as good as it (90%).
	e := d.Errors(0.9)
	reg, early := simulate(r, d, 0.9, -1)
	within(t, "type I against 54/60, new at 90%", reg, e.Regression)
	within(t, "early stops against 54/60, new at 90%", early, e.Early)
	if e.Regression > d.Alpha {
		t.Errorf("type I error %.4f is above alpha %v", e.Regression, d.Alpha)
	}

	// Type II: the new run dropped by Drop (to 70%).
	e = d.Errors(0.7)
	reg, early = simulate(r, d, 0.7, -1)
	within(t, "power against 54/60, new at 70%", reg, e.Regression)
	within(t, "early stops against 54/60, new at 70%", early, e.Early)

	// Type I over baselines drawn at random too, at several true rates:
	// the union bound holds for every one.
	for _, p := range []float64{0.5, 0.9} {
		reg, _ := simulate(r, d, p, p)
		got := float64(reg) / sims
		if se := math.Sqrt(d.Alpha * (1 - d.Alpha) / sims); got > d.Alpha+3*se {
			t.Errorf("type I at a true rate of %v: %.4f, above alpha %v by more than 3 standard errors", p, got, d.Alpha)
		} else {
			t.Logf("type I at a true rate of %v, baseline drawn too: %.4f (alpha %v)", p, got, d.Alpha)
		}
	}
}

func TestLooks(t *testing.T) {
	d := Design{Planned: 12, Looks: 5}
	if got := d.At(); len(got) != 5 || got[0] != 3 || got[4] != 12 {
		t.Errorf("At() = %v, want 5 looks ending at 12", got)
	}
	if got := (Design{Planned: 3, Looks: 5}).At(); len(got) != 3 {
		t.Errorf("3 attempts, 5 looks: At() = %v, want 3 looks", got)
	}
	d = Design{Planned: 100, Looks: 5, Alpha: 0.05}
	if math.Abs(d.FinalAlpha()-0.046) > 1e-12 || math.Abs(d.InterimAlpha()-0.001) > 1e-12 {
		t.Errorf("levels %v and %v, want 0.001 at each interim look and 0.046 at the last", d.InterimAlpha(), d.FinalAlpha())
	}
}

func TestMonitorStopsOnAClearRegression(t *testing.T) {
	d := Design{BasePassed: 50, BaseN: 50, Planned: 50, Looks: 5, Alpha: 0.05, Beta: 0.2, Drop: 0.1}
	m := NewMonitor(d)
	var dc *Decision
	for i := 0; dc == nil && i < 50; i++ {
		dc = m.Add(false)
	}
	if dc == nil || !dc.Regression || dc.Look != 1 || !dc.Early {
		t.Fatalf("every attempt failing against 50/50: decision %+v, want a regression at look 1", dc)
	}
	if s := dc.String(); !strings.HasPrefix(s, "regression decided at look 1 of 5: total 100% (50/50) → 0% (0/10)") {
		t.Errorf("String() = %q", s)
	}
}

func TestMonitorStopsWhenNoDropIsPlausible(t *testing.T) {
	d := Design{BasePassed: 45, BaseN: 50, Planned: 100, Looks: 5, Alpha: 0.05, Beta: 0.2, Drop: 0.3}
	m := NewMonitor(d)
	var dc *Decision
	for i := 0; dc == nil && i < 100; i++ {
		dc = m.Add(true)
	}
	if dc == nil || dc.Regression || !dc.Early {
		t.Fatalf("every attempt passing: decision %+v, want no regression, early", dc)
	}
}

func TestMonitorFinalOnFewerAttempts(t *testing.T) {
	d := Design{BasePassed: 20, BaseN: 20, Planned: 40, Looks: 2, Alpha: 0.05, Beta: 0.2, Drop: 0.1}
	m := NewMonitor(d)
	for i := range 19 {
		m.Add(i < 9) // 9 of 19: under the first look
	}
	dc := m.Final()
	if !dc.Regression || dc.Early || dc.N != 19 {
		t.Errorf("Final() = %+v, want a regression on all 19 at the last look", dc)
	}
}
