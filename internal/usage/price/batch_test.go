package price

import (
	"strings"
	"testing"
	"time"
)

// The batch APIs mcpeval speaks charge half; the rate says where that was
// read, and a provider without one has none.
func TestBatchRates(t *testing.T) {
	for _, p := range []string{"anthropic", "openai"} {
		r, ok := Batch(p)
		if !ok || r.Share != 0.5 || r.Provider != p {
			t.Errorf("Batch(%q) = %+v, %v; want half price", p, r, ok)
		}
		if _, err := time.Parse("2006-01-02", r.Read); err != nil {
			t.Errorf("%s: read date %q: %v", p, r.Read, err)
		}
		if !strings.HasPrefix(r.Source, "https://") {
			t.Errorf("%s: source %q is not a page", p, r.Source)
		}
	}
	for _, p := range []string{"gemini", "bedrock", "fake", ""} {
		if r, ok := Batch(p); ok {
			t.Errorf("Batch(%q) = %+v; want none", p, r)
		}
	}
}
