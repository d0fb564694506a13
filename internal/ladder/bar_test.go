package ladder

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/usage"
)

// rung is a priced rung of passed out of graded at usd per attempt; a
// negative usd leaves it unpriced.
func rung(name string, passed, graded int, usd float64) Rung {
	r := Rung{Model: name, Valid: true, Totals: grade.Counts{Passed: passed, Failed: graded - passed, Graded: graded, Rate: float64(passed) / float64(graded)},
		Cost: &usage.Cost{State: usage.Unpriced}}
	if usd >= 0 {
		r.Cost = &usage.Cost{State: usage.Priced, PerAttemptUSD: &usd}
	}
	return r
}

// TestFrontier: a model both dearer and worse than another is off the
// cost/pass frontier; the rest, and no unpriced model, are on it.
func TestFrontier(t *testing.T) {
	l := &Ladder{Rungs: []Rung{
		rung("big", 19, 20, 0.50),
		rung("dear-and-worse", 15, 20, 0.60), // big beats it on both
		rung("mid", 16, 20, 0.10),
		rung("tie-dearer", 16, 20, 0.20), // mid: as good, cheaper
		rung("small", 10, 20, 0.01),
		rung("unpriced", 20, 20, -1),
	}}
	l.setFrontier()
	var on []string
	for _, r := range l.Rungs {
		if r.Frontier {
			on = append(on, r.Model)
		}
	}
	if got := fmt.Sprint(on); got != "[big mid small]" {
		t.Errorf("frontier %s, want [big mid small]", got)
	}
	line := l.frontierLine()
	if !strings.HasPrefix(line, "cost/pass frontier (no other model both cheaper and better): small (") || !strings.Contains(line, "mid (") || strings.Index(line, "mid") > strings.Index(line, "big") {
		t.Errorf("frontier line %q: want cheapest first, small, mid, big", line)
	}
	var b bytes.Buffer
	if err := Text(&b, l); err != nil || !strings.Contains(b.String(), line) {
		t.Errorf("text lacks the frontier line %q:\n%s", line, b.String())
	}
	b.Reset()
	if err := JSON(&b, l); err != nil {
		t.Fatal(err)
	}
	var back Ladder
	if err := json.Unmarshal(b.Bytes(), &back); err != nil || !back.Rungs[0].Frontier || back.Rungs[1].Frontier {
		t.Errorf("JSON does not carry the frontier: %v %s", err, b.String())
	}
}
