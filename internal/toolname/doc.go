// Package toolname maps MCP tool names to names a provider accepts, and back.
//
// MCP allows nearly any tool name; the Anthropic and OpenAI APIs accept only
// ^[a-zA-Z0-9_-]{1,64}$ (Anthropic allows 128; the mapping keeps to the
// stricter 64 so one mapping serves both). A name that already fits is kept
// as it is. Any other name has each character outside the set replaced by
// "_"; when that collides with another name, or is too long, a short hash of
// the original name is appended instead. The mapping is a pure function of
// the set of names, so it is stable across runs, and a valid name always maps
// to itself whatever else is in the set.
package toolname
