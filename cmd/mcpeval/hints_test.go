package main

import (
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestHintCells: a listing shows each hint as yes or no, marking the ones
// the server left to the MCP defaults, and says whether it marked any.
func TestHintCells(t *testing.T) {
	no := false
	for _, tc := range []struct {
		name      string
		a         *mcp.ToolAnnotations
		want      [4]string
		defaulted bool
	}{
		{"no annotations", nil, [4]string{"no*", "yes*", "no*", "yes*"}, true},
		{"read-only, closed world", &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &no}, [4]string{"yes", "no", "no", "no"}, false},
		{"writes, world unstated", &mcp.ToolAnnotations{DestructiveHint: &no, IdempotentHint: true}, [4]string{"no", "no", "yes", "yes*"}, true},
	} {
		got, defaulted := hintsOf(tc.a).cells("*")
		if got != tc.want || defaulted != tc.defaulted {
			t.Errorf("%s: cells %q, defaulted %v; want %q, %v", tc.name, got, defaulted, tc.want, tc.defaulted)
		}
	}
}
