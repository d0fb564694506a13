// Package runner runs a suite against a target with a model and records
// what happened: the library behind `mcpeval run`, with no dependency on the
// command line, so the same code runs from a terminal, in CI, in a test or
// behind a button on a web page.
//
// A run lists the target's tools, checks that a read-only run is shown only
// read-only tools, runs the suite's preflight (a run whose data drifted is
// marked invalid and no model is asked anything), then puts every case to
// the model the configured number of times, with bounded concurrency. Tool
// calls go to the server verbatim and results go back; nothing is repaired
// or retried on the model's behalf. Every finished attempt is appended to
// the record and synced before it is reported.
//
// The runner observes; it never grades. Package grade reads the record.
package runner
