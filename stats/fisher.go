package stats

import "math"

// Fisher returns the two-sided p-value of Fisher's exact test on the 2×2
// table
//
//	         pass  fail
//	base     a     b
//	new      c     d
//
// that is, the probability, with every margin fixed and no real
// difference between the rows, of a table at most as likely as this one.
// It is exact for any counts, so it stays honest with a handful of
// attempts where a chi-squared test would not. Negative counts are read as
// 0; a row or column with nothing in it gives 1.
func Fisher(a, b, c, d int) float64 {
	a, b, c, d = max(a, 0), max(b, 0), max(c, 0), max(d, 0)
	n1, n2, k := a+b, c+d, a+c
	n := n1 + n2
	if n1 == 0 || n2 == 0 || k == 0 || k == n {
		return 1
	}
	logp := func(x int) float64 { // log P(top-left cell = x)
		return lchoose(n1, x) + lchoose(n2, k-x) - lchoose(n, k)
	}
	observed := logp(a)
	// Tables as likely as the observed one, up to rounding, count as at
	// most as likely.
	limit := observed + 1e-7
	p := 0.0
	for x := max(0, k-n2); x <= min(k, n1); x++ {
		if lp := logp(x); lp <= limit {
			p += math.Exp(lp)
		}
	}
	return min(p, 1)
}

// MinFisher returns the smallest two-sided p-value Fisher's exact test can
// give for two rows of n1 and n2 trials: how strong a result those counts
// can show at all. With 3 attempts against 3 it is 0.1, so no change in a
// single case of 3 attempts is significant at 0.05.
func MinFisher(n1, n2 int) float64 {
	if n1 <= 0 || n2 <= 0 {
		return 1
	}
	return Fisher(n1, 0, 0, n2)
}

func lchoose(n, k int) float64 {
	if k < 0 || k > n {
		return math.Inf(-1)
	}
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}
