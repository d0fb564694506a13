// Package gemini is the model.Model for Google's Gemini models, through the
// official google.golang.org/genai client: the Gemini API with an API key,
// or Vertex AI (option vertex=true) with Google Cloud credentials.
//
// A model spec "gemini:NAME;k=v;…" accepts these options and no others:
//
//	max_tokens   sent as maxOutputTokens
//	temperature  0 to 2
//	top_p        0 to 1
//	seed         a whole number
//	thinking     off, dynamic, or a budget in tokens (thinkingBudget); any
//	             but off asks for the thoughts too (includeThoughts)
//	vertex       true to call Vertex AI instead of the Gemini API
//	project      the Google Cloud project (vertex=true only)
//	location     the Google Cloud region (vertex=true only)
//
// Tools are declared with their MCP input schemas as parametersJsonSchema,
// under names mapped by package toolname and mapped back; a name that
// does not start with a letter or an underscore, which Gemini refuses, gets
// an underscore before it. A call's
// arguments are kept as the API wrote them, read from the answer's own
// JSON. Parts that carry a thought signature (thoughts, and the function
// calls of thinking models) go back to the API verbatim on the next turn,
// as it requires. A call the API gives no id gets one of the harness's, not
// sent back; a tool result goes back as a functionResponse whose response
// is {"output": …}, or {"error": …} for an error result.
//
// Usage counts cachedContentTokenCount (implicit or explicit caching) as
// cache reads, the rest of the prompt (tool-use prompt tokens included) as
// input, and candidates plus thoughts as output. The SDK's own retries are
// off: a refused request is sent again by package retry.
package gemini
