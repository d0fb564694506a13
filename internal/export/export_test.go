package export

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/builtin"
	"github.com/mcpeval/mcpeval/internal/rundir"
	"github.com/mcpeval/mcpeval/record"
)

// household is a two-attempt record of the embedded household suite: one
// case answered, one errored.
func household(t *testing.T) *record.Run {
	t.Helper()
	s, err := builtin.LoadSuite("household")
	if err != nil {
		t.Fatal(err)
	}
	c := s.Cases[0]
	return &record.Run{
		Dir:    t.TempDir(),
		Header: record.Header{RunID: "r1", Preflight: record.Preflight{Valid: true}},
		Attempts: []record.Attempt{
			{Case: c.ID, N: 1, End: "answered", Answer: "I do not know."},
			{Case: c.ID, N: 2, End: "error", Error: &record.Error{Message: "boom"}},
		},
	}
}

func TestGatherGradesAgainstTheSuiteWhenTheRunHasNoGrades(t *testing.T) {
	s, _ := builtin.LoadSuite("household")
	rec := household(t)
	items, err := Gather(rec, Options{Suite: s}, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 2 {
		t.Fatalf("got %d items, want 2", len(items))
	}
	want := grade.Run(s, rec)
	for i, it := range items {
		if it.Grade == nil {
			t.Fatalf("item %d has no grade", i)
		}
		if it.Grade.Outcome != want.Attempts[i].Outcome {
			t.Errorf("item %d: outcome %q, want %q", i, it.Grade.Outcome, want.Attempts[i].Outcome)
		}
		if it.Group != s.Cases[0].Group || it.Attempt != &rec.Attempts[i] {
			t.Errorf("item %d: group %q attempt %p, want %q %p", i, it.Group, it.Attempt, s.Cases[0].Group, &rec.Attempts[i])
		}
	}
}

func TestGatherPrefersTheRunsGrades(t *testing.T) {
	s, _ := builtin.LoadSuite("household")
	rec := household(t)
	g := grade.Run(s, rec)
	g.Attempts[0].Outcome = "recorded-verdict" // a verdict grading could not produce
	if err := rundir.WriteJSON(rundir.Path(rec.Dir, rundir.Grades), g); err != nil {
		t.Fatal(err)
	}
	var warned []string
	items, err := Gather(rec, Options{SuiteErr: errors.New("suite x: gone"), Warn: func(m string) { warned = append(warned, m) }}, false)
	if err != nil {
		t.Fatal(err)
	}
	if items[0].Grade == nil || items[0].Grade.Outcome != "recorded-verdict" {
		t.Errorf("first item's grade = %+v, want the recorded verdict", items[0].Grade)
	}
	if items[0].Group != "" || len(warned) != 1 || !strings.Contains(warned[0], "without groups and datasets") {
		t.Errorf("group %q, warnings %q: want no group and one warning", items[0].Group, warned)
	}
	if _, err := Gather(rec, Options{SuiteErr: errors.New("suite x: gone")}, true); err == nil || !strings.Contains(err.Error(), "loading the run's suite: suite x: gone") {
		t.Errorf("needing the suite without one: err = %v", err)
	}
}

func TestGatherRefusesABrokenGradesFile(t *testing.T) {
	rec := household(t)
	if err := os.WriteFile(rundir.Path(rec.Dir, rundir.Grades), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, _ := builtin.LoadSuite("household")
	_, err := Gather(rec, Options{Suite: s}, false)
	if !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "mcpeval score") {
		t.Errorf("err = %v, want bad input naming mcpeval score", err)
	}
}

func TestLangfuseWithoutKeysIsBadInput(t *testing.T) {
	_, err := Langfuse(t.Context(), household(t), Options{Getenv: func(string) string { return "" }})
	if !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "LANGFUSE_PUBLIC_KEY") {
		t.Errorf("err = %v, want bad input naming the keys", err)
	}
}
