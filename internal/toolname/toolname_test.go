package toolname

import (
	"strings"
	"testing"
)

// check asserts the properties every mapping must have: each wire name is
// valid, distinct, round-trips, and a valid MCP name is kept as it is.
func check(t *testing.T, names []string) *Mapping {
	t.Helper()
	m := Map(names)
	seen := map[string]string{}
	for _, n := range names {
		w := m.Wire(n)
		if !Valid(w) {
			t.Fatalf("Wire(%q) = %q, not a valid tool name", n, w)
		}
		if got := m.MCP(w); got != n {
			t.Fatalf("MCP(Wire(%q)) = %q", n, got)
		}
		if other, ok := seen[w]; ok && other != n {
			t.Fatalf("%q and %q both map to %q", n, other, w)
		}
		seen[w] = n
		if Valid(n) && w != n {
			t.Fatalf("valid name %q mapped to %q", n, w)
		}
	}
	return m
}

func TestMap(t *testing.T) {
	long := strings.Repeat("x", 70)
	names := []string{
		"get_accounts", "list containers", "list_containers", "a.b", "a b", "a(b)",
		"", "容器", long, long + "y", "ok-name", "x" + strings.Repeat("y", 63),
	}
	m := check(t, names)
	for n, want := range map[string]string{
		"get_accounts": "get_accounts",
		"ok-name":      "ok-name",
		"容器":           "______",
		"":             "tool",
	} {
		if got := m.Wire(n); got != want {
			t.Errorf("Wire(%q) = %q, want %q", n, got, want)
		}
	}
	// "list containers" sanitizes to a valid name that is taken: hashed.
	if w := m.Wire("list containers"); w == "list_containers" || !strings.HasPrefix(w, "list_containers_") {
		t.Errorf("Wire(list containers) = %q, want list_containers_<hash>", w)
	}
	// "a.b" and "a b" both sanitize to "a_b", so both are hashed; "a(b)"
	// sanitizes to "a_b_", which no other name wants.
	if w := m.Wire("a(b)"); w != "a_b_" {
		t.Errorf("Wire(a(b)) = %q, want a_b_", w)
	}
	if m.Wire("a.b") == m.Wire("a b") || m.Wire("a.b") == "a_b" {
		t.Errorf("colliding names not hashed apart: %q, %q", m.Wire("a.b"), m.Wire("a b"))
	}
	if len(m.Wire(long)) != MaxLen || m.Wire(long) == m.Wire(long+"y") {
		t.Errorf("long names: %q, %q", m.Wire(long), m.Wire(long+"y"))
	}
	// Unknown names pass through both ways.
	if m.MCP("nope") != "nope" || m.Wire("nope") != "nope" {
		t.Error("unknown names must pass through unchanged")
	}
	var zero *Mapping
	if zero.Wire("a.b") != "a.b" || zero.MCP("a_b") != "a_b" {
		t.Error("a nil mapping must map names to themselves")
	}
}

func TestMapIsStable(t *testing.T) {
	a := Map([]string{"x.y", "z", "q r"})
	b := Map([]string{"q r", "z", "x.y", "z"})
	for _, n := range []string{"x.y", "z", "q r"} {
		if a.Wire(n) != b.Wire(n) {
			t.Errorf("Wire(%q) depends on order: %q vs %q", n, a.Wire(n), b.Wire(n))
		}
	}
}

func FuzzMap(f *testing.F) {
	f.Add("get_accounts\nlist containers\nlist_containers")
	f.Add("a.b\na b\na_b\na_b_1ca8a6ee")
	f.Add(strings.Repeat("é", 40) + "\n" + strings.Repeat("é", 41))
	f.Add("\n\n")
	f.Fuzz(func(t *testing.T, s string) {
		check(t, strings.Split(s, "\n"))
	})
}
