// Package ingest reads conversations a model had outside mcpeval (production
// traffic) so that they can be graded like a run: OpenTelemetry traces in
// the GenAI semantic conventions (OTLP/JSON or OTLP protobuf, from a file
// or received over OTLP/HTTP), a Langfuse project's traces read through
// its public API, and JSONL of the record's attempts. Each
// conversation is matched to a case of a suite, explicitly (by its prompt,
// or by an attribute naming the case); what matches no case is kept and
// listed, never dropped.
package ingest
