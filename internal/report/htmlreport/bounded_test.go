package htmlreport

import (
	"runtime"
	"strings"
	"testing"
)

// hostileResult is a tool result built to explode when indented: 20 KB of
// arrays nested 10,000 deep, which json.Indent turns into 200 MB.
var hostileResult = strings.Repeat("[", 10000) + strings.Repeat("]", 10000)

// TestHostileResultBounded: a page showing a tool result nested 10,000
// deep grows by a bounded multiple of the result's size, and rendering it
// allocates a bounded amount, not the hundreds of megabytes indenting it
// whole would.
func TestHostileResultBounded(t *testing.T) {
	base := len(render(t, fixture(t)))
	p := fixture(t)
	planted := 0
	for i := range p.Run.Attempts {
		for j := range p.Run.Attempts[i].Turns {
			for k := range p.Run.Attempts[i].Turns[j].Calls {
				if planted == 0 {
					c := &p.Run.Attempts[i].Turns[j].Calls[k]
					c.Result, c.Args = hostileResult, []byte(hostileResult)
					planted++
				}
			}
		}
	}
	if planted == 0 {
		t.Fatal("the test run has no call to plant the result in")
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	page := render(t, p)
	runtime.ReadMemStats(&after)
	// The result and the arguments, each escaped as text (a bracket is one
	// byte), with room for the page's own markup.
	if grew, bound := len(page)-base, 4*len(hostileResult)+64<<10; grew > bound {
		t.Errorf("the page grew by %d bytes for a %d-byte result, want at most %d", grew, len(hostileResult), bound)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
		t.Errorf("rendering the page allocated %d MiB, want under 64", alloc>>20)
	}
}
