package target

import (
	"slices"
	"testing"
)

// TestUnionScopesIgnoresOrder: the scopes asked for and cached are the same
// whatever order the token in hand and the challenge list them in. The
// authorization server may grant them in any order, and a step-up once
// cached "vault:open mcp:tools" on one run and "mcp:tools vault:open" on
// the next.
func TestUnionScopesIgnoresOrder(t *testing.T) {
	want := []string{"mcp:tools", "vault:open"}
	for _, c := range []struct{ a, b []string }{
		{[]string{"mcp:tools"}, []string{"vault:open"}},
		{[]string{"vault:open"}, []string{"mcp:tools"}},
		{[]string{"vault:open", "mcp:tools"}, []string{"mcp:tools"}},
		{nil, []string{"vault:open", "mcp:tools", "vault:open"}},
	} {
		if got := unionScopes(c.a, c.b); !slices.Equal(got, want) {
			t.Errorf("unionScopes(%q, %q) = %q, want %q", c.a, c.b, got, want)
		}
	}
}
