package stats

import "math"

// Regressed reports whether the gate's test calls a new run of passed out
// of n attempts a regression against a baseline of basePassed out of
// baseN: Fisher's exact test (two-sided) at alpha, and a new pass rate
// below the baseline's. It is the decision a baseline gate makes on one
// row (a case, a group or the total).
func Regressed(basePassed, baseN, passed, n int, alpha float64) bool {
	if baseN <= 0 || n <= 0 || float64(passed)*float64(baseN) >= float64(basePassed)*float64(n) {
		return false
	}
	return Fisher(basePassed, baseN-basePassed, passed, n-passed) <= alpha
}

// GatePower returns the chance that the gate's test (Regressed at alpha)
// calls a regression when a new run of n attempts, each passing with
// chance rate, is compared with a baseline already recorded with
// basePassed passes out of baseN: the power against that baseline, exact,
// by summing the binomial probability of every outcome the test rejects.
func GatePower(basePassed, baseN, n int, rate, alpha float64) float64 {
	if n <= 0 || baseN <= 0 {
		return 0
	}
	p := 0.0
	for x := 0; x <= regressAt(basePassed, baseN, n, alpha); x++ {
		p += BinomialPMF(n, x, rate)
	}
	return min(p, 1)
}

// regressAt returns the most passes out of n that the gate's test still
// calls a regression against basePassed out of baseN, -1 when none is.
// Fewer passes only lower Fisher's p below the baseline's rate, so the
// outcomes it rejects are 0 to regressAt, found by bisection.
func regressAt(basePassed, baseN, n int, alpha float64) int {
	if !Regressed(basePassed, baseN, 0, n, alpha) {
		return -1
	}
	lo, hi := 0, n // Regressed at lo; hi is past the last that is
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if Regressed(basePassed, baseN, mid, n, alpha) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// GatePowerBoth returns the power of the gate's test when neither run is
// recorded yet: a baseline of n attempts passing with chance baseRate and
// a new run of n attempts passing with chance rate, both random. It sums
// over every pair of outcomes, exactly.
func GatePowerBoth(n int, baseRate, rate, alpha float64) float64 {
	if n <= 0 {
		return 0
	}
	p := 0.0
	for b := 0; b <= n; b++ {
		pb := BinomialPMF(n, b, baseRate)
		if pb < 1e-15 {
			continue
		}
		inner := 0.0
		for x := 0; x <= regressAt(b, n, n, alpha); x++ {
			inner += BinomialPMF(n, x, rate)
		}
		p += pb * inner
	}
	return min(p, 1)
}

// AttemptsFor returns the fewest attempts n from 1 to most for which
// power(n) reaches target, and that power; 0 and power(most) when even
// most does not. It bisects, reading power as rising with n: an exact
// test's power zigzags a little as n grows (its discreteness), so the n
// found reaches the target, and an n a little smaller may too.
func AttemptsFor(power func(n int) float64, target float64, most int) (n int, reached float64) {
	if most < 1 {
		return 0, 0
	}
	top := power(most)
	if top < target {
		return 0, top
	}
	lo, hi, at := 0, most, top // power(hi) reaches the target
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if p := power(mid); p >= target {
			hi, at = mid, p
		} else {
			lo = mid
		}
	}
	return hi, at
}

// BinomialPMF is the chance of exactly k successes in n trials, each a
// success with chance p.
func BinomialPMF(n, k int, p float64) float64 {
	switch {
	case k < 0 || k > n:
		return 0
	case p <= 0:
		if k == 0 {
			return 1
		}
		return 0
	case p >= 1:
		if k == n {
			return 1
		}
		return 0
	}
	return math.Exp(lchoose(n, k) + float64(k)*math.Log(p) + float64(n-k)*math.Log1p(-p))
}
