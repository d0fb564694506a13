// Package report renders a graded run: Text for a terminal, reading like
// benchstat (each rate with its 95% interval and n, errors kept apart,
// inconsistent cases marked, every failure's reasons listed), Markdown for
// a pull request, and JSON for machines.
//
// When the run has action cases, every report also shows the action
// columns (Pass, Reached, First time, Arguments, Confirmation, Clean,
// Declined, Completion) per model and per kind. Figures are written by
// package format, the same way in every renderer.
//
// Reports are renderers over a grade.Result and the record's header, which
// gives the run's provenance: they compute nothing themselves and never
// touch the network, a model or the MCP client.
package report
