// Package compare answers "did this change make things worse?" for two
// graded runs of a suite, a base and a new one.
//
// A Comparison says first what changed between the runs (the model and its
// options, the system prompt, the tool definitions the model was shown,
// with a per-tool diff of descriptions and input schemas, the server's own
// definitions when an overlay was applied, each tool whose results an
// output overlay rewrote differently, the suite, the cases, the
// attempts), and only then what moved: the overall pass rate, each group's
// and each case's, every one with both rates, their Wilson intervals, n and
// the p-value of Fisher's exact test (two-sided) on the 2×2 table of passed
// and failed attempts. Errors are left out of the rates, as everywhere.
//
// For suites with action cases, each action column (Pass, Reached, First
// time, Arguments, Confirmation, Clean, Declined, Completion) moves too,
// over every action case and per kind: scored of counted, base against
// new, with the same test. A column neither run counted is left out.
//
// Fisher's test is exact, so it stays honest with a handful of attempts;
// the price is that small counts can show only large movements: one case of
// 3 attempts against 3 can never differ significantly at 0.05. In the
// spirit of benchstat, a difference that is not significant is printed as
// "~", and cases too small to move are counted, not hidden.
//
// Compare is a pure function of the two records and their grades; Text,
// Markdown and JSON render a Comparison. Regressions lists what a CI gate
// fails on; ActionRegressions lists the action columns that fell.
package compare
