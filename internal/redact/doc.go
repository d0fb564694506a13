// Package redact keeps secrets and a deployment's identifiers out of what
// is published.
//
// It works in two passes. The first removes credentials wherever they
// appear: tokens and keys recognised by their shape (a bearer token, an
// API key, a JWT, a private key, a password or token field, a URL's user
// info or token parameter), and exact values the operator's environment
// holds (a target header given as ${VAR}). The second replaces the
// identifiers the operator lists (hostnames, tenant ids, emails, other
// identifiers and patterns, from redact.yaml or flags) anywhere they
// appear in text.
//
// Both passes are applied to the copy that is published: ledger rows,
// pages and the transcripts they hold. Find then scans the bytes about to
// be written, and publishing refuses a copy that still holds anything
// either pass would have removed.
package redact
