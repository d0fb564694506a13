package wiremodel

// ErrorJSON returns an error body in the handler's wire format, for a
// Fault.Body: kind is the provider's error type (Anthropic's
// "rate_limit_error", Google's "RESOURCE_EXHAUSTED", Bedrock's
// "ThrottlingException", which Bedrock sends in a header instead).
func (h *Handler) ErrorJSON(status int, kind, msg string) string {
	return h.errorJSON(status, kind, msg)
}

// problem is a provider's error type and message for an HTTP status.
type problem struct{ kind, msg string }

// The providers' own errors by status, as their APIs answer them; the entry
// at 0 stands for any status not listed.
var (
	anthropicErrors = map[int]problem{
		0:   {"api_error", "Internal server error"},
		400: {"invalid_request_error", "Invalid request"},
		401: {"authentication_error", "invalid x-api-key"},
		403: {"permission_error", "Your API key does not have permission to use the specified resource."},
		404: {"not_found_error", "The requested resource could not be found."},
		413: {"request_too_large", "Request exceeds the maximum allowed number of bytes."},
		429: {"rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit"},
		504: {"timeout_error", "Request timeout"},
		529: {"overloaded_error", "Overloaded"},
	}
	openAIErrors = map[int]problem{
		0:   {"server_error", "The server had an error while processing your request. Sorry about that!"},
		400: {"invalid_request_error", "Invalid request"},
		401: {"invalid_request_error", "Incorrect API key provided."},
		404: {"invalid_request_error", "The model does not exist or you do not have access to it."},
		429: {"requests", "Rate limit reached for requests. Please try again in 20ms."},
		503: {"server_error", "The engine is currently overloaded, please try again later."},
	}
	geminiErrors = map[int]problem{
		0:   {"INTERNAL", "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting"},
		400: {"INVALID_ARGUMENT", "Request contains an invalid argument."},
		401: {"UNAUTHENTICATED", "Request had invalid authentication credentials."},
		403: {"PERMISSION_DENIED", "The caller does not have permission"},
		404: {"NOT_FOUND", "Requested entity was not found."},
		429: {"RESOURCE_EXHAUSTED", "Resource has been exhausted (e.g. check quota)."},
		503: {"UNAVAILABLE", "The model is overloaded. Please try again later."},
		504: {"DEADLINE_EXCEEDED", "Deadline expired before operation could complete."},
	}
	// bedrockErrors' kinds are the exceptions Bedrock names in its
	// X-Amzn-ErrorType header.
	bedrockErrors = map[int]problem{
		0:   {"InternalServerException", "The server encountered an internal error while processing the request."},
		400: {"ValidationException", "Malformed input request, please reformat your input and try again."},
		403: {"AccessDeniedException", "You don't have access to the model with the specified model ID."},
		404: {"ResourceNotFoundException", "The provided model identifier is invalid."},
		408: {"ModelTimeoutException", "The server encountered an internal error while processing the request."},
		424: {"ModelErrorException", "The server encountered an internal error while processing the request."},
		429: {"ThrottlingException", "Too many requests, please wait before trying again."},
		503: {"ServiceUnavailableException", "Bedrock is unable to process your request."},
	}
)

// problemFor returns table's entry for status, or its entry for any other.
func problemFor(table map[int]problem, status int) problem {
	if p, ok := table[status]; ok {
		return p
	}
	return table[0]
}

// problemOf is the provider's own error type and message for status.
func (h *Handler) problemOf(status int) problem {
	table := openAIErrors
	switch h.API {
	case Anthropic:
		table = anthropicErrors
	case Gemini:
		table = geminiErrors
	case Bedrock, AnthropicBedrock:
		table = bedrockErrors
	}
	return problemFor(table, status)
}

// errorBody is the provider's own error body for status.
func (h *Handler) errorBody(status int) string {
	p := h.problemOf(status)
	return h.errorJSON(status, p.kind, p.msg)
}
