// Package openai is the model.Model for the chat completions API, through
// the official openai-go/v3 client, for OpenAI itself or any server that
// speaks the same API (Ollama, vLLM, llama.cpp server, LM Studio…).
//
// A model spec "openai:NAME;k=v;…" accepts these options and no others:
//
//	max_tokens        sent as max_completion_tokens
//	temperature       0 to 2
//	top_p             0 to 1
//	reasoning_effort  none, minimal, low, medium, high, xhigh or max
//	seed              a whole number
//	base_url          another server, e.g. http://localhost:11434/v1; a URL
//	                  with no path gets "/v1", which openai-go needs
//
// With a base URL other than OpenAI's the API key may be empty: a local
// server needs none.
//
// The SDK's own retries are off: a refused request is sent again by package
// retry. Tool names are mapped by package toolname and mapped back, so
// model.Call.Name is always the MCP name. A call's arguments are kept as the
// model wrote them, valid JSON or not, and sent back the same way.
//
// The API has no is_error flag on a tool result, so an error result is sent
// as "Error: " followed by its content. Reasoning text that a server returns
// beside the answer (reasoning_content or reasoning, as vLLM, Ollama and
// others do) is kept as a Thinking block; chat completions has no way to
// send it back, so it is not. Usage counts cached prompt tokens
// (prompt_tokens_details.cached_tokens) as cache reads and
// prompt_tokens_details.cache_write_tokens as cache writes; Input is the
// rest of prompt_tokens.
package openai
