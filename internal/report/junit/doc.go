// Package junit writes graded runs as JUnit XML, the format CI systems
// (GitHub Actions reporters, GitLab, Jenkins, Buildkite) show as tests.
//
// Each run is a <testsuite>, its provenance (run id, model, suite and tools
// hashes, pass rate with its interval) as properties. Each case is a
// <testcase> whose properties hold every attempt's verdict; a case with a
// failed attempt carries a <failure> whose message and text give the
// reasons; a case whose every attempt ended in an error (a timeout, a
// provider failure) carries an <error>, since errors say nothing about the
// model; a planned case that was never attempted is <skipped>. An invalid
// run (its preflight failed) is one <error> test named "preflight", with
// every planned case skipped.
//
// Like every report, it is a renderer over the record and its grades.
package junit
