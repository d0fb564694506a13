// Package otlp sends recorded attempts as OpenTelemetry traces over
// OTLP/HTTP: the official OpenTelemetry Go SDK makes the spans and
// metrics, and a small client of its own encodes and posts them (see
// client.go for why it is not the SDK's exporter).
//
// Each attempt is one trace. Its root span is the attempt (the case, the
// attempt number, the verdict and its reasons, the action columns); under
// it, a "chat {model}" span per model turn and an "execute_tool {name}"
// span per tool call, named and attributed after the OpenTelemetry GenAI
// and MCP semantic conventions. Every timestamp comes from the record: an
// attempt's start and wall time, each turn's latency and each call's
// duration, laid end to end in the order they happened (the record keeps
// durations, not the start of each turn). An export made a week later
// shows the run as it happened, and exporting it again sends the same
// trace and span ids: they are derived from the run id, the case and the
// attempt number.
//
// Prompts, answers, tool arguments and results are sent only when asked
// (Options.Content), and then through the redactor publishing uses.
//
// Send exports a whole run and says how many spans it could not send.
// Exporter sends attempts while a run is under way, off the run's path:
// Exporter.Attempt never waits on the network, and what a full queue or a
// dead collector loses is counted, never retried at the run's expense.
package otlp
