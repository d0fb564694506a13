package target

import (
	"strings"
	"sync"
)

// Tail keeps the last lines written to it, each cut to a maximum length, so
// that a server flooding its stderr cannot exhaust memory. It is safe for
// concurrent use.
type Tail struct {
	mu      sync.Mutex
	lines   []string
	max     int
	lineMax int
	partial strings.Builder
	dropped int
}

// NewTail returns a Tail keeping n lines of at most lineMax bytes.
func NewTail(n, lineMax int) *Tail { return &Tail{max: n, lineMax: lineMax} }

// Write implements io.Writer.
func (t *Tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, b := range p {
		if b == '\n' {
			t.push()
			continue
		}
		if t.partial.Len() < t.lineMax {
			t.partial.WriteByte(b)
		}
	}
	return len(p), nil
}

func (t *Tail) push() {
	t.lines = append(t.lines, t.partial.String())
	t.partial.Reset()
	if len(t.lines) > t.max {
		t.dropped += len(t.lines) - t.max
		t.lines = append(t.lines[:0], t.lines[len(t.lines)-t.max:]...)
	}
}

// Lines returns the kept lines, the unfinished last one included.
func (t *Tail) Lines() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := append([]string(nil), t.lines...)
	if t.partial.Len() > 0 {
		out = append(out, t.partial.String())
	}
	return out
}
