package toolname

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
)

// MaxLen is the longest wire name a mapping makes.
const MaxLen = 64

// Valid reports whether s is acceptable as a tool name to every provider:
// 1 to 64 characters from a-z, A-Z, 0-9, "_" and "-".
func Valid(s string) bool {
	if len(s) == 0 || len(s) > MaxLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !allowed(s[i]) {
			return false
		}
	}
	return true
}

func allowed(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// Mapping is a reversible mapping between MCP tool names and wire names. The
// zero Mapping maps every name to itself. A Mapping is read-only once made
// and safe for concurrent use.
type Mapping struct {
	wire map[string]string // MCP name -> wire name
	mcp  map[string]string // wire name -> MCP name
}

// Map makes the mapping for a set of MCP tool names (duplicates are ignored).
func Map(names []string) *Mapping {
	m := &Mapping{wire: map[string]string{}, mcp: map[string]string{}}
	uniq := map[string]bool{}
	for _, n := range names {
		uniq[n] = true
	}
	sorted := slices.Sorted(maps.Keys(uniq))

	// Valid names keep themselves.
	var rest []string
	for _, n := range sorted {
		if Valid(n) {
			m.add(n, n)
		} else {
			rest = append(rest, n)
		}
	}
	// A sanitized name is used only when no other name sanitizes to it and
	// no valid name has it; otherwise every name wanting it gets a hash.
	want := map[string]int{}
	for _, n := range rest {
		want[sanitize(n)]++
	}
	var hashed []string
	for _, n := range rest {
		s := sanitize(n)
		if _, taken := m.mcp[s]; len(s) <= MaxLen && want[s] == 1 && !taken {
			m.add(n, s)
		} else {
			hashed = append(hashed, n)
		}
	}
	for _, n := range hashed {
		m.add(n, m.hashed(n))
	}
	return m
}

func (m *Mapping) add(name, wire string) {
	m.wire[name] = wire
	m.mcp[wire] = name
}

// sanitize replaces every character a provider refuses with "_"; the empty
// name becomes "tool".
func sanitize(name string) string {
	if name == "" {
		return "tool"
	}
	b := []byte(name)
	for i, c := range b {
		if !allowed(c) {
			b[i] = '_'
		}
	}
	return string(b)
}

// hashed returns sanitize(name) cut short and suffixed with "_" and a hash of
// name, lengthening the hash in the unlikely case that it is taken.
func (m *Mapping) hashed(name string) string {
	sum := sha256.Sum256([]byte(name))
	h := hex.EncodeToString(sum[:])
	s := sanitize(name)
	for _, n := range []int{8, 12, 16, 24, 32} {
		w := s
		if len(w) > MaxLen-1-n {
			w = w[:MaxLen-1-n]
		}
		w += "_" + h[:n]
		if _, taken := m.mcp[w]; !taken {
			return w
		}
	}
	for i := 0; ; i++ {
		w := fmt.Sprintf("tool_%s_%d", h[:16], i)
		if _, taken := m.mcp[w]; !taken {
			return w
		}
	}
}

// Wire returns the wire name for an MCP tool name, or name itself when the
// mapping does not know it.
func (m *Mapping) Wire(name string) string {
	if m != nil {
		if w, ok := m.wire[name]; ok {
			return w
		}
	}
	return name
}

// MCP returns the MCP tool name for a wire name, or wire itself when the
// mapping does not know it (a model may call a tool it was never shown: that
// call is recorded under the name the model wrote).
func (m *Mapping) MCP(wire string) string {
	if m != nil {
		if n, ok := m.mcp[wire]; ok {
			return n
		}
	}
	return wire
}
