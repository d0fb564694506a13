package target

import (
	"slices"
	"testing"

	"golang.org/x/oauth2"
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

// TestGrantedScopesIgnoreOrder: the scopes a token response grants are
// cached in one order whatever order the authorization server lists them
// in; the step-up test had failed on a server that granted "vault:open
// mcp:tools".
func TestGrantedScopesIgnoreOrder(t *testing.T) {
	for _, scope := range []string{"vault:open mcp:tools", "mcp:tools vault:open", " vault:open  mcp:tools "} {
		var c cachedToken
		c.setToken((&oauth2.Token{AccessToken: "t"}).WithExtra(map[string]any{"scope": scope}))
		if want := []string{"mcp:tools", "vault:open"}; !slices.Equal(c.Scopes, want) {
			t.Errorf("granted %q: cached %q, want %q", scope, c.Scopes, want)
		}
	}
}
