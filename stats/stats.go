package stats

import "math"

// Z95 is the normal quantile of a two-sided 95% interval.
const Z95 = 1.959963984540054

// Wilson returns the Wilson score interval at 95% for passed successes out
// of n trials. Unlike the normal approximation it stays inside [0, 1] and
// is not degenerate at 0% or 100%: 0 of 3 gives [0, 0.56], not [0, 0].
// With n = 0 nothing is known and the interval is [0, 1]. Counts out of
// range are clamped: passed below 0 counts as 0, above n as n.
func Wilson(passed, n int) (low, high float64) {
	return WilsonZ(passed, n, Z95)
}

// WilsonZ is Wilson with the normal quantile z (1.96 for 95%).
func WilsonZ(passed, n int, z float64) (low, high float64) {
	if n <= 0 {
		return 0, 1
	}
	passed = min(max(passed, 0), n)
	nf := float64(n)
	p := float64(passed) / nf
	z2 := z * z
	den := 1 + z2/nf
	center := (p + z2/(2*nf)) / den
	half := z / den * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	low, high = center-half, center+half
	// The bounds are exact at the edges; keep rounding from moving them.
	if passed == 0 {
		low = 0
	}
	if passed == n {
		high = 1
	}
	return max(low, 0), min(high, 1)
}

// PassAtK is the unbiased estimate of pass@k: the chance that at least one
// of k attempts drawn without replacement from n attempts, c of which
// passed, passes. It is 1 - C(n-c, k)/C(n, k). k is clamped to [1, n]; with
// n = 0 it is 0.
func PassAtK(n, c, k int) float64 {
	if n <= 0 {
		return 0
	}
	c = min(max(c, 0), n)
	k = min(max(k, 1), n)
	if n-c < k {
		return 1
	}
	// C(n-c, k)/C(n, k) = prod_{i<k} (n-c-i)/(n-i)
	q := 1.0
	for i := range k {
		q *= float64(n-c-i) / float64(n-i)
	}
	return 1 - q
}

// PassHatK is the unbiased estimate of pass^k: the chance that all of k
// attempts drawn without replacement from n attempts, c of which passed,
// pass. It is C(c, k)/C(n, k). k is clamped to [1, n]; with n = 0 it is 0.
func PassHatK(n, c, k int) float64 {
	if n <= 0 {
		return 0
	}
	c = min(max(c, 0), n)
	k = min(max(k, 1), n)
	if c < k {
		return 0
	}
	q := 1.0
	for i := range k {
		q *= float64(c-i) / float64(n-i)
	}
	return q
}
