// Package anthropic is the model.Model for Anthropic's Messages API, through
// the official anthropic-sdk-go/v2 client.
//
// A model spec "anthropic:NAME;k=v;…" accepts these options and no others:
//
//	max_tokens  the most tokens to generate, thinking included (default 8192)
//	effort      low, medium, high, xhigh or max: sent as the API's own effort
//	            parameter, output_config.effort, which governs every token of
//	            the answer (thinking, text and tool calls) on the models that
//	            decide their own thinking (adaptive thinking)
//	thinking    adaptive, off, or a budget in tokens (at least 1024) for
//	            manual extended thinking on the models that still take one
//	base_url    another endpoint speaking the Messages API
//	temperature, top_p
//	            named so the refusal can say why: the API version the SDK
//	            speaks (2026-10-21) rejects them on every model
//
// The SDK's own retries are off: a refused request is sent again by package
// retry, and every refused try is in the Response. Tool names MCP allows but
// the API does not are mapped by package toolname and mapped back, so
// model.Call.Name is always the MCP name.
//
// The fixed prefix of every request, the tool definitions and the system
// prompt, carries an ephemeral cache_control marker, so the attempts after
// the first read it from the cache. The assistant's thinking and
// redacted_thinking blocks are kept byte for byte, signature included, in
// model.Block.Opaque and sent back as they came.
package anthropic
