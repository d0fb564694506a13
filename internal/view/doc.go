// Package view serves mcpeval's local web app, "mcpeval view": the runs
// under a set of run directories, each run with its failures grouped by
// identical reasons, each attempt beside what was expected of it, review
// in place, the comparison of two runs, and runs in progress as they
// gain attempts.
//
// Everything is drawn by the server with html/template, from templates
// and assets built into the binary: no CDN, no build step, nothing from
// the network. The run summary and the drawing of an attempt are the
// templates of the static report page (internal/report/htmlreport), so
// there is one way to draw an attempt.
//
// The server reads run directories and never calls a model or a target.
// It writes a run's reviews.jsonl, through internal/review, with the
// fingerprints "mcpeval review" writes, and, when a drafted case is
// verified, the case's suite file, through internal/corpus (Options.ReadOnly
// writes neither). It is meant for the machine
// it runs on: every request's Host header must name the address it is
// bound to (against DNS rebinding), a review needs the session's CSRF
// token, and every page carries a strict Content-Security-Policy that
// allows only the page's own style and script, by hash.
package view
