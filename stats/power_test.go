package stats

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// sims is how many runs each simulation draws.
const sims = 10_000

// binomial draws the passes of n attempts that pass with chance p.
func binomial(r *rand.Rand, n int, p float64) int {
	x := 0
	for range n {
		if r.Float64() < p {
			x++
		}
	}
	return x
}

// within fails unless a simulated rate of hits out of sims is within 3
// standard errors of want.
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

func TestRegressAtMatchesEveryOutcome(t *testing.T) {
	for _, tt := range [][2]int{{10, 10}, {9, 10}, {3, 3}, {45, 50}, {0, 5}, {30, 60}} {
		for n := 1; n <= 40; n++ {
			at := regressAt(tt[0], tt[1], n, 0.05, logFactorials(tt[1]+n))
			for x := 0; x <= n; x++ {
				if got, want := x <= at, Regressed(tt[0], tt[1], x, n, 0.05); got != want {
					t.Fatalf("baseline %d/%d, new %d/%d: regressAt says %v, Regressed %v", tt[0], tt[1], x, n, got, want)
				}
			}
		}
	}
}

func TestFisherLFMatchesFisher(t *testing.T) {
	lf := logFactorials(40)
	for a := 0; a <= 10; a++ {
		for c := 0; c <= 10; c++ {
			p, q := Fisher(a, 10-a, c, 12-c), fisherLF(a, 10-a, c, 12-c, lf)
			if math.Abs(p-q) > 1e-9 {
				t.Fatalf("Fisher(%d, %d, %d, %d) = %v, over the table %v", a, 10-a, c, 12-c, p, q)
			}
		}
	}
}

func TestRegressed(t *testing.T) {
	if !Regressed(20, 20, 10, 20, 0.05) {
		t.Error("20/20 → 10/20 is a regression at 0.05 (p=4.4e-04)")
	}
	if Regressed(10, 20, 20, 20, 0.05) {
		t.Error("10/20 → 20/20 is an improvement, never a regression")
	}
	if Regressed(3, 3, 0, 3, 0.05) {
		t.Error("3/3 → 0/3 has p=0.1: not significant at 0.05")
	}
}

// TestGatePowerSimulated checks plan's power, computed exactly, against
// runs drawn at random and judged by the gate's test.
func TestGatePowerSimulated(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 30))
	// Against a recorded baseline of 45/50, a new run of 60 at 75%.
	hits := 0
	for range sims {
		if Regressed(45, 50, binomial(r, 60, 0.75), 60, 0.05) {
			hits++
		}
	}
	within(t, "power against 45/50, n=60 at 75%", hits, GatePower(45, 50, 60, 0.75, 0.05))
	// Neither run recorded: 40 attempts each, 90% against 75%.
	hits = 0
	for range sims {
		if Regressed(binomial(r, 40, 0.9), 40, binomial(r, 40, 0.75), 40, 0.05) {
			hits++
		}
	}
	within(t, "power of 40 against 40, 90% → 75%", hits, GatePowerBoth(40, 0.9, 0.75, 0.05))
	// No drop: the gate's false alarms stay at or below alpha.
	hits = 0
	for range sims {
		if Regressed(binomial(r, 40, 0.8), 40, binomial(r, 40, 0.8), 40, 0.05) {
			hits++
		}
	}
	size := GatePowerBoth(40, 0.8, 0.8, 0.05)
	within(t, "false alarms of 40 against 40 at 80%", hits, size)
	if size > 0.05 {
		t.Errorf("false alarm rate %.4f is above alpha 0.05", size)
	}
}

func TestAttemptsFor(t *testing.T) {
	power := func(n int) float64 { return GatePower(100, 100, n, 0.9, 0.05) }
	n, p := AttemptsFor(power, 0.8, 1000)
	if n == 0 || p < 0.8 {
		t.Fatalf("AttemptsFor = %d, %v: want an n reaching 0.8", n, p)
	}
	if power(n-1) >= 0.8 && power(n-2) >= 0.8 {
		t.Errorf("AttemptsFor = %d, but %d and %d reach 0.8 too", n, n-1, n-2)
	}
	// A baseline of 3 attempts can never show a drop at 0.05.
	if n, _ := AttemptsFor(func(n int) float64 { return GatePower(3, 3, n, 0.8, 0.05) }, 0.8, 500); n != 0 {
		t.Errorf("against 3/3 AttemptsFor = %d, want 0 (unreachable)", n)
	}
}

func TestBinomialPMFSumsToOne(t *testing.T) {
	for _, p := range []float64{0, 0.1, 0.5, 0.97, 1} {
		s := 0.0
		for k := 0; k <= 30; k++ {
			s += BinomialPMF(30, k, p)
		}
		if math.Abs(s-1) > 1e-9 {
			t.Errorf("BinomialPMF(30, ·, %v) sums to %v", p, s)
		}
	}
}

func TestGatePowerBothIsQuick(t *testing.T) {
	if testing.Short() {
		t.Skip("a plan for a rate alone, timed")
	}
	start := time.Now()
	n, p := AttemptsFor(func(n int) float64 { return GatePowerBoth(n, 0.9, 0.8, 0.05) }, 0.8, 1000)
	t.Logf("90%% → 80%%: %d attempts (power %.3f) in %v", n, p, time.Since(start))
	if n < 150 || n > 300 {
		t.Errorf("90%% → 80%% at 80%% power: %d attempts each, want about 200 (the normal approximation gives 199)", n)
	}
}
