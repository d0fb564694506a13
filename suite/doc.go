// Package suite reads a corpus: the suite settings (name, default target,
// system prompt, attempts, tolerances, preflight) and its cases, from YAML
// files a person writes.
//
// A suite is one YAML file, or a directory holding suite.yaml and further
// *.yaml files of cases. Every problem in them is reported as
// file:line:column with what was expected, and all problems are reported
// together rather than one at a time.
//
// The package only reads and checks the corpus; what a case's checks mean is
// the business of package grade.
package suite
