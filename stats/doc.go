// Package stats holds the statistics reports use: the Wilson score interval
// of a pass rate, the pass@k and pass^k estimators over repeated attempts
// of one case, Fisher's exact test, and the exact power of a gate built
// on it (GatePower, GatePowerBoth, AttemptsFor).
//
// Every function is pure and total: a count of zero gives the widest honest
// answer (an interval of [0, 1]) rather than NaN or a panic.
package stats
