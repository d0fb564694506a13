// Package plan says how many attempts a baseline gate needs: for each
// case of a baseline run (and its total), or for a pass rate alone, the
// fewest attempts with which the gate's test (Fisher's exact test,
// two-sided, at alpha) calls a drop of a given size a regression with a
// given power. Power is computed exactly (stats.GatePower,
// stats.GatePowerBoth); docs/statistics.md says how.
package plan
