// Package pipeline is the one front door of a run: the library that
// "mcpeval run" and "mcpeval score" both call, so that a run and a
// re-score derive the same files the same way.
//
// Run runs a suite (runner.Run) and hands the record to the same steps
// Score takes for a record already on disk: grade it (grade.Run, question
// verdicts and action columns together), attach the advisory judge's
// opinions (asking the judge when one is given), total the usage, and
// write every derived file of the run directory through package rundir.
// A file the grading no longer produces (actions.json after the suite lost
// its action cases) is removed, so no file of a run keeps an old verdict.
//
// RunModels is a whole "mcpeval run" in one call: the suite on each of
// several models (a ladder, the strongest first) or surfaces, each a Run
// in its own run directory, then the ladder, the comparison with a
// baseline and the gates' verdict. Its Prepare and Done hooks let a caller
// make each run's configuration and print it as it ends.
//
// Gates is the CI gate policy as a pure function of graded runs: a pass
// rate under --min-pass, a significant regression against a baseline, and
// a run with too few graded attempts to judge at all.
package pipeline
