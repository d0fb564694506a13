package stats

import "math"

// Regressed reports whether the gate's test calls a new run of passed out
// of n attempts a regression against a baseline of basePassed out of
// baseN: Fisher's exact test (two-sided) at alpha, and a new pass rate
// below the baseline's. It is the decision a baseline gate makes on one
// row (a case, a group or the total).
func Regressed(basePassed, baseN, passed, n int, alpha float64) bool {
	return regressed(basePassed, baseN, passed, n, alpha, nil)
}

// regressed is Regressed with Fisher's p computed over lf, a table of
// log factorials at least baseN+n+1 long (nil: computed as needed).
func regressed(basePassed, baseN, passed, n int, alpha float64, lf []float64) bool {
	if baseN <= 0 || n <= 0 || float64(passed)*float64(baseN) >= float64(basePassed)*float64(n) {
		return false
	}
	if lf == nil {
		return Fisher(basePassed, baseN-basePassed, passed, n-passed) <= alpha
	}
	return fisherLF(basePassed, baseN-basePassed, passed, n-passed, lf) <= alpha
}

// logFactorials returns log(i!) for i from 0 to n.
func logFactorials(n int) []float64 {
	lf := make([]float64, n+1)
	for i := 2; i <= n; i++ {
		lf[i] = lf[i-1] + math.Log(float64(i))
	}
	return lf
}

// fisherLF is Fisher over a table of log factorials: the same sum, each
// term three look-ups rather than nine log-gamma calls.
func fisherLF(a, b, c, d int, lf []float64) float64 {
	n1, n2, k := a+b, c+d, a+c
	n := n1 + n2
	if n1 == 0 || n2 == 0 || k == 0 || k == n {
		return 1
	}
	base := lf[n1] + lf[n2] + lf[k] + lf[n-k] - lf[n]
	logp := func(x int) float64 { return base - lf[x] - lf[n1-x] - lf[k-x] - lf[n2-k+x] }
	limit := logp(a) + 1e-7
	p := 0.0
	for x := max(0, k-n2); x <= min(k, n1); x++ {
		if lp := logp(x); lp <= limit {
			p += math.Exp(lp)
		}
	}
	return min(p, 1)
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
	return min(lowerTail(n, regressAt(basePassed, baseN, n, alpha, logFactorials(baseN+n)), rate), 1)
}

// lowerTail is the chance of at most x successes in n trials of rate p,
// leaving out the outcomes more than 9 standard deviations below the
// mean, which together weigh less than 1e-18.
func lowerTail(n, x int, p float64) float64 {
	sd := math.Sqrt(float64(n) * p * (1 - p))
	from := max(0, int(float64(n)*p-9*sd)-1)
	t := 0.0
	for k := from; k <= x; k++ {
		t += BinomialPMF(n, k, p)
	}
	return t
}

// regressAt returns the most passes out of n that the gate's test still
// calls a regression against basePassed out of baseN, -1 when none is.
// Fewer passes only lower Fisher's p below the baseline's rate, so the
// outcomes it rejects are 0 to regressAt, found by bisection.
func regressAt(basePassed, baseN, n int, alpha float64, lf []float64) int {
	if !regressed(basePassed, baseN, 0, n, alpha, lf) {
		return -1
	}
	lo, hi := 0, n // Regressed at lo; hi is past the last that is
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if regressed(basePassed, baseN, mid, n, alpha, lf) {
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
	lf := logFactorials(2 * n)
	p := 0.0
	for b := 0; b <= n; b++ {
		pb := BinomialPMF(n, b, baseRate)
		if pb < 1e-12 { // too rare to move the sum
			continue
		}
		p += pb * lowerTail(n, regressAt(b, n, n, alpha, lf), rate)
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
