package send

import (
	"errors"
	"testing"
)

// TestToolKeyTellsToolsApart checks that tools that differ in any part,
// however the parts' bytes run together, get different keys.
func TestToolKeyTellsToolsApart(t *testing.T) {
	keys := map[string]string{}
	for name, k := range map[string]string{
		"plain":            ToolKey("", "get", "Gets.", []byte(`{}`)),
		"marked":           ToolKey("breakpoint", "get", "Gets.", []byte(`{}`)),
		"name into desc":   ToolKey("", "ge", "tGets.", []byte(`{}`)),
		"desc into schema": ToolKey("", "get", "Gets.{", []byte(`}`)),
		"mark into name":   ToolKey("b", "reakpointget", "Gets.", []byte(`{}`)),
		"other schema":     ToolKey("", "get", "Gets.", []byte(`{"type":"object"}`)),
	} {
		if other, ok := keys[k]; ok {
			t.Errorf("%s and %s share the key %q", name, other, k)
		}
		keys[k] = name
	}
}

// TestToolCacheKeepsWhatWasBuilt checks that a wire form is built once, a
// failed build is not kept, and the cache starts again when full.
func TestToolCacheKeepsWhatWasBuilt(t *testing.T) {
	var c ToolCache[int]
	builds := 0
	build := func() (int, error) { builds++; return builds, nil }
	for range 3 {
		if v, err := c.Get("a", build); err != nil || v != 1 {
			t.Fatalf("Get(a) = %d, %v; want the first build, 1", v, err)
		}
	}
	refused := errors.New("no")
	for range 2 {
		if _, err := c.Get("bad", func() (int, error) { return 0, refused }); err != refused {
			t.Fatalf("a failed build: %v", err)
		}
	}
	if _, ok := c.m["bad"]; ok {
		t.Error("a failed build was kept")
	}
	for i := range MaxCachedTools {
		c.Get(string(rune('b'+i)), build)
	}
	if len(c.m) > MaxCachedTools {
		t.Errorf("the cache holds %d, more than %d", len(c.m), MaxCachedTools)
	}
}
