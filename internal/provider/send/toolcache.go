package send

import (
	"strconv"
	"sync"
)

// ToolCache keeps a provider's wire form of each tool, by what it is made
// from. Every request of a run carries the same tools, and the official
// SDKs encode a param through a MarshalJSON at every level of nesting, each
// level's output validated and compacted again by the one above: the
// anthropic provider spent 46% of encoding a household request on its
// eight tools. A provider builds a tool's wire form once, as the SDK
// encodes it, and sends it as the SDK's override of the tool's param.
//
// It is safe for concurrent use. Past MaxCachedTools entries it starts
// again empty: a run whose tools change with every request gains nothing
// from it anyway.
type ToolCache[T any] struct {
	mu sync.Mutex
	m  map[string]T
}

// MaxCachedTools bounds a ToolCache.
const MaxCachedTools = 4096

// ToolKey is the key of a tool's wire form: mark (whatever else the
// provider puts in it, such as a cache breakpoint), its wire name, its
// description and its schema, each but the last prefixed by its length so
// that no two tools share a key.
func ToolKey(mark, wire, description string, schema []byte) string {
	return strconv.Itoa(len(mark)) + ":" + mark + strconv.Itoa(len(wire)) + ":" + wire +
		strconv.Itoa(len(description)) + ":" + description + string(schema)
}

// Get returns the wire form kept under key, or the one build makes, kept
// unless build fails.
func (c *ToolCache[T]) Get(key string, build func() (T, error)) (T, error) {
	c.mu.Lock()
	v, ok := c.m[key]
	c.mu.Unlock()
	if ok {
		return v, nil
	}
	v, err := build()
	if err != nil {
		return v, err
	}
	c.mu.Lock()
	if c.m == nil || len(c.m) >= MaxCachedTools {
		c.m = make(map[string]T)
	}
	c.m[key] = v
	c.mu.Unlock()
	return v, nil
}
