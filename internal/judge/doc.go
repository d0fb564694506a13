// Package judge asks a second model whether an answer declines. Its opinion
// is advisory: it is recorded next to the grade and never changes it,
// because a judge's agreement with people has to be measured before it can
// be trusted (and a judge from the same family as the model under test may
// be lenient towards its own phrasing).
//
// New wraps any model.Model with a short fixed rubric (Rubric) and reads a
// one-word verdict; Fake decides by phrases, for tests.
package judge
