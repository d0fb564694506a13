package usage

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/record"
)

// TestCachedShare: the summary says what share of the run's input was read
// from the prompt cache, and says 0% for a run whose prefix never cached.
func TestCachedShare(t *testing.T) {
	for _, tc := range []struct {
		turns []model.Usage
		want  string
	}{
		// A first turn writes the prefix, the later ones read it.
		{[]model.Usage{{Input: 100, CacheWrite: 1200, Output: 50}, {Input: 160, CacheRead: 1200}, {Input: 80, CacheRead: 1400}},
			"cached input: 63% (2600 of 4140 input tokens read from the prompt cache)"},
		{[]model.Usage{{Input: 900, Output: 50}, {Input: 1000}}, "cached input: 0% (0 of 1900"},
	} {
		var turns []record.Turn
		for _, u := range tc.turns {
			turns = append(turns, record.Turn{Usage: u})
		}
		r := &record.Run{Header: record.Header{Model: model.Info{Spec: "anthropic:m1", Provider: "anthropic", Name: "m1"}},
			Attempts: []record.Attempt{{Case: "a/x", N: 1, Turns: turns}}}
		var b bytes.Buffer
		if err := Text(&b, Summarize(r, testPrices(t))); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), tc.want) {
			t.Errorf("summary:\n%s\nwant a line saying %q", b.String(), tc.want)
		}
	}
}
