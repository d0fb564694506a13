// Package sequential decides a gate against a baseline while a run is
// still under way: a group-sequential test of the new run's total pass
// rate against the baseline's, with a fixed number of looks and
// Haybittle–Peto boundaries, so that a paid run can stop as soon as the
// answer is clear either way.
//
// At each interim look the gate's own test (Fisher's exact test, two-sided,
// and a rate below the baseline's) is applied at the small level
// Alpha/50, and a drop of Drop is tested at Beta/Looks (a one-sided
// binomial test against the baseline's rate less Drop); the last look
// applies Fisher's test at what is left of Alpha. By the union bound the
// chance of calling a regression when there is none is at most Alpha for
// any baseline and any true rate; the other rates are computed exactly by
// Design.Errors and checked by simulation in the package's tests
// (docs/statistics.md).
package sequential
