package judge

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/rundir"
	"github.com/mcpeval/mcpeval/record"
)

const suiteYAML = `name: j
target: builtin:household
cases:
  - id: u/price
    prompt: What's the price of VOO?
    decline: true
  - id: s/total
    prompt: What's the total?
    figures: [{value: 10}]
`

type broken struct{}

func (broken) Declines(context.Context, string, string) (grade.Opinion, error) {
	return grade.Opinion{}, errors.New("provider down")
}

func TestAskAttachNeverChangesGrades(t *testing.T) {
	s := loadSuite(t, suiteYAML)
	rec := &record.Run{Header: record.Header{Preflight: record.Preflight{Valid: true}}, Attempts: []record.Attempt{
		{Case: "u/price", N: 1, Prompt: "What's the price of VOO?", End: record.EndAnswered, Answer: "I can't tell: no tool gives prices."},
		{Case: "u/price", N: 2, Prompt: "What's the price of VOO?", End: record.EndAnswered, Answer: "VOO trades at about 520."},
		{Case: "s/total", N: 1, Prompt: "What's the total?", End: record.EndAnswered, Answer: "10"},
		{Case: "u/price", N: 3, End: record.EndError, Error: &record.Error{Kind: "provider"}},
	}}
	ops := Ask(context.Background(), Fake{}, s, rec, 2, 0)
	if ops.Len() != 2 || !ops.Given[record.AttemptKey{Case: "u/price", N: 1}].Declines || ops.Given[record.AttemptKey{Case: "u/price", N: 2}].Declines {
		t.Fatalf("opinions %+v", ops)
	}
	res := grade.Run(s, rec)
	before := map[record.AttemptKey]grade.Outcome{}
	for _, g := range res.Attempts {
		before[record.AttemptKey{Case: g.Case, N: g.N}] = g.Outcome
	}
	// Invert the judge: it now reads the invented price as a decline.
	ops.Given[record.AttemptKey{Case: "u/price", N: 2}] = grade.Opinion{Declines: true, Model: "fake"}
	Attach(res, ops)
	for _, g := range res.Attempts {
		if g.Outcome != before[record.AttemptKey{Case: g.Case, N: g.N}] {
			t.Errorf("%s: the judge changed the grade to %s", record.AttemptKey{Case: g.Case, N: g.N}, g.Outcome)
		}
	}
	if d := Disagreements(res); len(d) != 1 {
		t.Errorf("disagreements %q, want the invented price", d)
	}
	dir := t.TempDir()
	if err := Write(dir, ops); err != nil {
		t.Fatal(err)
	}
	back, err := Read(dir)
	if err != nil || back.Len() != 2 {
		t.Errorf("read back %v %v", back, err)
	}
	// A judge that fails records why and attaches nothing.
	bad := Ask(context.Background(), broken{}, s, rec, 1, 0)
	if bad.Failed[record.AttemptKey{Case: "u/price", N: 1}] == "" || len(bad.Given) != 0 {
		t.Errorf("a failing judge left %+v", bad)
	}
	res2 := grade.Run(s, rec)
	Attach(res2, bad)
	for _, g := range res2.Attempts {
		if g.Judge != nil {
			t.Errorf("a failed opinion was attached to %s #%d", g.Case, g.N)
		}
	}
}

// TestOpinionsFile: judge.json keeps the layout earlier runs wrote, an
// object per attempt with "error" where the judge failed, and reads back
// what it wrote.
func TestOpinionsFile(t *testing.T) {
	dir := t.TempDir()
	const old = `{
  "u/price#1": {"declines": true, "reason": "contains \"i can't\"", "model": "fake:phrases"},
  "u/price#2": {"declines": false, "model": "", "error": "asking judge x: provider down"}
}
`
	if err := os.WriteFile(rundir.Path(dir, rundir.Judge), []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	ops, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if op := ops.Given[record.AttemptKey{Case: "u/price", N: 1}]; !op.Declines || op.Model != "fake:phrases" || op.Reason == "" {
		t.Errorf("u/price#1 read as %+v", op)
	}
	if _, ok := ops.Given[record.AttemptKey{Case: "u/price", N: 2}]; ok || ops.Failed[record.AttemptKey{Case: "u/price", N: 2}] != "asking judge x: provider down" {
		t.Errorf("a failed opinion read as %+v", ops)
	}
	if err := Write(dir, ops); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(rundir.Path(dir, rundir.Judge))
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"u/price#1":`, `"u/price#2":`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("judge.json as written lacks the key %s:\n%s", key, b)
		}
	}
	again, err := Read(dir)
	if err != nil || again.Len() != 2 || again.Failed[record.AttemptKey{Case: "u/price", N: 2}] == "" || !again.Given[record.AttemptKey{Case: "u/price", N: 1}].Declines {
		t.Errorf("written and read again: %+v, %v", again, err)
	}
	none, err := Read(t.TempDir())
	if err != nil || none.Len() != 0 {
		t.Errorf("a run with no opinions: %+v, %v", none, err)
	}
}
