// Package target connects to the MCP server under evaluation: an embedded
// server (builtin:NAME), a command speaking MCP over stdio (stdio:CMD ARGS),
// or a streamable HTTP endpoint (http://HOST/mcp).
//
// A target's secrets (header values, environment values) are expanded from
// the environment when connecting and never appear in what Describe returns,
// which is what a record holds.
package target
