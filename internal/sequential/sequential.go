package sequential

import (
	"fmt"

	"github.com/mcpeval/mcpeval/stats"
)

// DefaultLooks is the number of looks a design takes when none is given.
const DefaultLooks = 5

// Design is a group-sequential test of a new run against a baseline run's
// totals.
type Design struct {
	// BasePassed and BaseN are the baseline's passed and graded attempts.
	BasePassed, BaseN int
	// Planned is how many graded attempts the new run plans; the looks
	// are at equal fractions of it.
	Planned int
	// Looks is the number of looks, the last at Planned; 0 means
	// DefaultLooks.
	Looks int
	// Alpha is the gate's significance level: the most the design may
	// call a regression when there is none.
	Alpha float64
	// Beta is 1 − power: the interim looks stop for "no regression" when
	// a drop of Drop is ruled out at Beta/Looks each.
	Beta float64
	// Drop is the drop in pass rate, from the baseline's, that the
	// interim looks rule out before they stop for "no regression".
	Drop float64
}

func (d Design) looks() int {
	if d.Looks <= 0 {
		return DefaultLooks
	}
	return d.Looks
}

// At returns the graded attempts at each look: ceil(k·Planned/Looks) for
// k = 1..Looks, without repeats (a run of few attempts has fewer looks).
func (d Design) At() []int {
	var at []int
	k := d.looks()
	for i := 1; i <= k; i++ {
		n := (i*d.Planned + k - 1) / k
		if n > 0 && (len(at) == 0 || n > at[len(at)-1]) {
			at = append(at, n)
		}
	}
	return at
}

// InterimAlpha is the level of Fisher's test at each look before the
// last: Alpha/50, Haybittle and Peto's "only an overwhelming difference".
func (d Design) InterimAlpha() float64 { return d.Alpha / 50 }

// FinalAlpha is the level of Fisher's test at the last look: what the
// interim looks leave of Alpha.
func (d Design) FinalAlpha() float64 {
	return d.Alpha - float64(len(d.At())-1)*d.InterimAlpha()
}

// InterimBeta is the level at which an interim look rules out a drop of
// Drop and stops for "no regression".
func (d Design) InterimBeta() float64 { return d.Beta / float64(d.looks()) }

// dropped is the pass rate of a model that dropped by Drop from the
// baseline's rate.
func (d Design) dropped() float64 {
	if d.BaseN <= 0 {
		return 0
	}
	return max(float64(d.BasePassed)/float64(d.BaseN)-d.Drop, 0)
}

// Decision is what the test decided, at a look or at the run's end.
type Decision struct {
	// Regression is true when the test called a regression; false when it
	// found none.
	Regression bool `json:"regression"`
	// Look is the look (from 1) it decided at, of Looks; Early is true when
	// it was before the last.
	Look  int  `json:"look"`
	Looks int  `json:"looks"`
	Early bool `json:"early"`
	// Passed and N are the new run's counts at the decision; BasePassed
	// and BaseN the baseline's.
	Passed     int `json:"passed"`
	N          int `json:"n"`
	BasePassed int `json:"base_passed"`
	BaseN      int `json:"base_n"`
	// P is Fisher's p at the decision; Level the level it was held to.
	P     float64 `json:"p"`
	Level float64 `json:"level"`
}

// String says the decision in words: "regression decided at look 3 of 5:
// total 100% (20/20) → 60% (12/20), Fisher p=0.0003 ≤ 0.001".
func (dc Decision) String() string {
	what := "no regression decided"
	if dc.Regression {
		what = "regression decided"
	}
	rel := "≤"
	if dc.P > dc.Level {
		rel = ">"
	}
	return fmt.Sprintf("%s at look %d of %d: total %s (%d/%d) → %s (%d/%d), Fisher p=%.2g %s %.2g",
		what, dc.Look, dc.Looks, pct(dc.BasePassed, dc.BaseN), dc.BasePassed, dc.BaseN, pct(dc.Passed, dc.N), dc.Passed, dc.N, dc.P, rel, dc.Level)
}

func pct(a, n int) string {
	if n == 0 {
		return "—"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(a)/float64(n))
}

// decide applies look i (from 0) of at to passed of n graded attempts:
// a decision, or nil to go on. The last look always decides.
func (d Design) decide(at []int, i, passed, n int) *Decision {
	last := i == len(at)-1
	dc := &Decision{Look: i + 1, Looks: len(at), Early: !last, Passed: passed, N: n, BasePassed: d.BasePassed, BaseN: d.BaseN,
		P: stats.Fisher(d.BasePassed, d.BaseN-d.BasePassed, passed, n-passed), Level: d.InterimAlpha()}
	if last {
		dc.Level = d.FinalAlpha()
	}
	if stats.Regressed(d.BasePassed, d.BaseN, passed, n, dc.Level) {
		dc.Regression = true
		return dc
	}
	if last || upperTail(n, passed, d.dropped()) <= d.InterimBeta() {
		return dc
	}
	return nil
}

// upperTail is the chance of at least x successes in n trials of rate p.
func upperTail(n, x int, p float64) float64 {
	t := 0.0
	for k := max(x, 0); k <= n; k++ {
		t += stats.BinomialPMF(n, k, p)
	}
	return min(t, 1)
}

// Monitor applies a design to a run's graded attempts as they finish.
// It is not safe for concurrent use.
type Monitor struct {
	d       Design
	at      []int
	look    int
	passed  int
	n       int
	decided *Decision
}

// NewMonitor starts watching a run under design d.
func NewMonitor(d Design) *Monitor { return &Monitor{d: d, at: d.At()} }

// Add counts one graded attempt, passed or not, and returns the decision
// when this attempt reached a look that decided; nil otherwise, and
// nil for every attempt after a decision.
func (m *Monitor) Add(passed bool) *Decision {
	if m.decided != nil || m.look >= len(m.at) {
		return nil
	}
	m.n++
	if passed {
		m.passed++
	}
	if m.n < m.at[m.look] {
		return nil
	}
	dc := m.d.decide(m.at, m.look, m.passed, m.n)
	m.look++
	m.decided = dc
	return dc
}

// Decided returns the decision once made; nil before.
func (m *Monitor) Decided() *Decision { return m.decided }

// Final returns the decision of a run that ended without one (fewer
// graded attempts than planned, say: attempts that ended in an error):
// the last look's test on every graded attempt. It returns the earlier
// decision when one was made.
func (m *Monitor) Final() Decision {
	if m.decided != nil {
		return *m.decided
	}
	at := m.d.At()
	dc := m.d.decide(append(at[:len(at):len(at)], m.n), len(at), m.passed, m.n)
	dc.Look, dc.Looks, dc.Early = len(at), len(at), false
	return *dc
}

// Errors are a design's exact operating characteristics against its
// baseline's counts.
type Errors struct {
	// Regression is the chance that the test calls a regression when
	// each new attempt passes with the chance given to Design.Errors.
	Regression float64 `json:"regression"`
	// Early is the chance that it decides, either way, before the last
	// look.
	Early float64 `json:"early"`
	// Attempts is the expected number of graded attempts it takes.
	Attempts float64 `json:"attempts"`
}

// Errors returns the design's operating characteristics when each new
// attempt passes, independently, with chance rate, the baseline's counts
// held as recorded: exact, by carrying the distribution of passes from
// look to look. At the baseline's own rate Regression is the
// conditional type I error; at the baseline's rate less Drop, 1 −
// Regression is the type II error.
func (d Design) Errors(rate float64) Errors {
	at := d.At()
	var e Errors
	if len(at) == 0 {
		return e
	}
	dist := []float64{1} // chance of each count of passes among the going paths
	prev := 0
	for i, n := range at {
		step := n - prev
		next := make([]float64, n+1)
		for x, px := range dist {
			if px == 0 {
				continue
			}
			for y := 0; y <= step; y++ {
				next[x+y] += px * stats.BinomialPMF(step, y, rate)
			}
		}
		for x, px := range next {
			if px == 0 {
				continue
			}
			dc := d.decide(at, i, x, n)
			if dc == nil {
				continue
			}
			if dc.Regression {
				e.Regression += px
			}
			if dc.Early {
				e.Early += px
			}
			e.Attempts += px * float64(n)
			next[x] = 0
		}
		dist, prev = next, n
	}
	return e
}
