// Package retry sends a provider request again when, and only when, the
// provider itself refused it: a rate limit (429, honouring retry-after and
// retry-after-ms), an overload (529) or other server error (5xx), a request
// timeout (408), a reset connection, or no answer within the per-try timeout.
//
// Everything else ends the attempt at once: an authentication or request
// error (400, 401, 403, 404…), a body that cannot be read, a refused
// connection. A model's own mistakes never reach this package: a malformed
// tool call is an answer, not a refusal.
//
// Every refused try is recorded as a model.Try whose text has passed through
// Redact, so no API key or authorization header can reach a record. When the
// tries run out, Do returns a *model.ProviderError.
package retry
