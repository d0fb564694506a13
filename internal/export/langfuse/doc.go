// Package langfuse sends a graded run to Langfuse, through its public
// API: the attempts as traces (to its OpenTelemetry endpoint, as package
// otlp makes them), a dataset per suite dataset with the cases as items, a
// dataset run per mcpeval run linking each item to its attempts' traces,
// and scores on each attempt: the verdict, each check and each action
// column.
//
// Everything has a stable id (datasets by name, items, traces and scores
// by a hash of what they stand for), so exporting a run again updates
// what is there rather than adding to it. Langfuse's 429 and 5xx answers
// are tried again (after Retry-After, when it says); any other refusal
// stops the export with what Langfuse said. The keys go in the
// Authorization header only.
//
// The same client reads a project back (read.go): its traces, every page,
// each with its observations, and a dataset with its items, for mcpeval
// import.
package langfuse
