// Package htmlreport renders a graded run, and the results ledger, as one
// self-contained HTML file each: no external script, font, stylesheet or
// image, so a page opens from disk with no network.
//
// A run page shows the run's provenance; each rate, as graded and after
// review, with its 95% Wilson interval drawn as a bar in inline SVG; the
// rates per group and per case; the action columns per model and kind
// when the suite has action cases; and every attempt with its full
// transcript (tool calls, arguments, results, final answer), the checks that failed
// and its review. A little inline script filters the attempts by verdict
// and by group without a server.
//
// Pages are made with html/template, so everything that came from a model,
// a tool or a server is escaped: a tool result holding <script> is shown
// as text. A Content-Security-Policy allows only the page's own style and
// script (by hash) and no network at all, as a second line of defence.
//
// The figures a reader compares are marked with data-check attributes, so
// that "mcpeval publish --check" can verify offline that a page and the
// ledger agree.
package htmlreport
