package report

import (
	"io"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/report/format"
	"github.com/mcpeval/mcpeval/internal/report/htmlreport"
	"github.com/mcpeval/mcpeval/internal/report/junit"
)

// The renderers that live in packages of their own are reached from here
// too, so that a caller names one package for every format: Text,
// Markdown and JSON (this package), JUnit and HTML.

// JUnitRun is one graded run for JUnit, with its record.
type JUnitRun = junit.Run

// JUnit writes runs as one JUnit XML document: a test suite per run, a
// test case per attempt.
func JUnit(w io.Writer, runs ...JUnitRun) error { return junit.Write(w, runs...) }

// RunPage is what the HTML page of one run shows.
type RunPage = htmlreport.RunPage

// HTML writes a run's page: one self-contained HTML file.
func HTML(w io.Writer, p *RunPage) error { return htmlreport.Run(w, p) }

// EscapeMarkdown escapes untrusted text for Markdown prose or a table cell.
func EscapeMarkdown(s string) string { return format.Markdown(s) }

// MarkdownCode escapes untrusted text for a Markdown code span.
func MarkdownCode(s string) string { return format.MarkdownCode(s) }

// RateLine writes passes over graded attempts the way every renderer
// does, count, percent and 95% interval apart by two spaces:
// "5/6  83%  [44%, 97%]".
func RateLine(c grade.Counts) string {
	r := format.Counts(c)
	return r.Count() + "  " + r.Percent() + "  " + r.CI()
}
