package wiremodel

// ErrorJSON returns an error body in the handler's wire format, for a
// Fault.Body: kind is the provider's error type (Anthropic's
// "rate_limit_error", Google's "RESOURCE_EXHAUSTED", Bedrock's
// "ThrottlingException", which Bedrock sends in a header instead).
func (h *Handler) ErrorJSON(status int, kind, msg string) string {
	return h.errorJSON(status, kind, msg)
}
