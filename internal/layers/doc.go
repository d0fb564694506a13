// Package layers holds no code: its test keeps mcpeval's dependencies
// pointing one way. Grading, scoring, comparing, reviewing, redacting,
// rendering and publishing read records, suites and grades; none of them
// reaches a model provider, an MCP server, the runner or the network.
package layers
