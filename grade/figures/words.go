package figures

import (
	"strings"
	"sync"
)

// A wordSet is a set of words made from its space-separated list on first
// use, so that a command that never reads a figure (mcpeval version, every
// serve-target process) does not build the set before main.
type wordSet func() map[string]bool

// newWordSet returns the set of the words in list.
func newWordSet(list string) wordSet {
	return sync.OnceValue(func() map[string]bool {
		ws := strings.Fields(list)
		m := make(map[string]bool, len(ws))
		for _, w := range ws {
			m[w] = true
		}
		return m
	})
}

// has reports whether w is in the set.
func (s wordSet) has(w string) bool { return s()[w] }
