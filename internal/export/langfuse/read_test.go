package langfuse_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mcpeval/mcpeval/internal/export/langfuse"
	"github.com/mcpeval/mcpeval/internal/testkit/langfusetest"
)

// TestReadBack exports a run, then reads it back through the GET
// endpoints three traces a page: every trace, each with its
// observations; a 429 waits its Retry-After; a refusal says which page
// it came on; the items of the dataset come back in full.
func TestReadBack(t *testing.T) {
	f := newFake(t)
	s, in := run(t)
	if _, err := langfuse.Export(context.Background(), client(t, f, nil), in); err != nil {
		t.Fatal(err)
	}
	var waits []time.Duration
	c := client(t, f, &waits)
	c.PageSize = 3
	f.Faults["/api/public/traces"] = []langfusetest.Fault{{Status: 429, RetryAfter: "7"}}
	list, err := c.Traces(context.Background(), langfuse.TraceFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 8 || len(waits) != 1 || waits[0] != 7*time.Second {
		t.Errorf("%d traces after waits %v, want 8 after 7s", len(list), waits)
	}
	pages := 0
	for _, g := range f.Gets {
		if strings.HasPrefix(g, "/api/public/traces?") {
			pages++
		}
	}
	if pages != 3 { // the 429 is answered before the route notes a request
		t.Errorf("%d pages answered, want 3 (8 traces, 3 a page)", pages)
	}
	full, err := c.Trace(context.Background(), list[0].ID)
	if err != nil || len(full.Observations) == 0 {
		t.Fatalf("trace %s: %v, %d observations", list[0].ID, err, len(full.Observations))
	}
	f.Faults["/api/public/traces"] = []langfusetest.Fault{{Status: 400}}
	if _, err := c.Traces(context.Background(), langfuse.TraceFilter{Name: "nothing"}); err == nil || !strings.Contains(err.Error(), "page 1") || !strings.Contains(err.Error(), "400") {
		t.Errorf("err = %v, want a 400 on page 1", err)
	}
	_, items, err := c.Dataset(context.Background(), langfuse.DatasetName(s, ""))
	if err != nil || len(items) != len(s.Cases) {
		t.Errorf("dataset: %v, %d items, want %d", err, len(items), len(s.Cases))
	}
	wrong, _ := langfuse.New(f.URL, publicKey, "sk-lf-wrong-secret-value")
	if _, err := wrong.Traces(context.Background(), langfuse.TraceFilter{}); err == nil || !strings.Contains(err.Error(), "keys were refused") || strings.Contains(err.Error(), "wrong-secret") {
		t.Errorf("wrong keys: %v", err)
	}
}
