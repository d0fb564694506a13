package export

import (
	"errors"
	"iter"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/builtin"
	"github.com/mcpeval/mcpeval/internal/export/otlp"
	"github.com/mcpeval/mcpeval/internal/rundir"
	"github.com/mcpeval/mcpeval/internal/testkit/recordtest"
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

// gather ranges over the attempts Gather hands.
func gather(t *testing.T, items iter.Seq2[otlp.Attempt, error]) []otlp.Attempt {
	t.Helper()
	var out []otlp.Attempt
	for it, err := range items {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, it)
	}
	return out
}

func TestGatherGradesAgainstTheSuiteWhenTheRunHasNoGrades(t *testing.T) {
	s, _ := builtin.LoadSuite("household")
	rec := household(t)
	seq, err := Gather(recordtest.Open(t, rec), Options{Suite: s}, true)
	if err != nil {
		t.Fatal(err)
	}
	want := grade.Run(s, rec)
	// Langfuse ranges over the attempts three times: each time gives them all.
	for range 3 {
		items := gather(t, seq)
		if len(items) != 2 {
			t.Fatalf("got %d items, want 2", len(items))
		}
		for i, it := range items {
			if it.Grade == nil {
				t.Fatalf("item %d has no grade", i)
			}
			if it.Grade.Outcome != want.Attempts[i].Outcome {
				t.Errorf("item %d: outcome %q, want %q", i, it.Grade.Outcome, want.Attempts[i].Outcome)
			}
			if diff := cmp.Diff(&rec.Attempts[i], it.Attempt); it.Group != s.Cases[0].Group || diff != "" {
				t.Errorf("item %d: group %q, want %q; attempt (-recorded +gathered):\n%s", i, it.Group, s.Cases[0].Group, diff)
			}
		}
	}
}

// TestGatherSaysWhenTheRecordCannotBeReadBack: a record changed under an
// export (cut short) is an error, not a shorter run sent.
func TestGatherSaysWhenTheRecordCannotBeReadBack(t *testing.T) {
	s, _ := builtin.LoadSuite("household")
	rec := household(t)
	rd := recordtest.Open(t, rec)
	if err := rundir.WriteJSON(rundir.Path(rec.Dir, rundir.Grades), grade.Run(s, rec)); err != nil {
		t.Fatal(err)
	}
	seq, err := Gather(rd, Options{Suite: s}, true)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(filepath.Join(rec.Dir, record.FileName), 10); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, err = range seq {
		if err != nil {
			break
		}
		n++
	}
	if err == nil || !strings.Contains(err.Error(), rec.Dir) {
		t.Errorf("after %d attempts, err = %v: want an error naming the run", n, err)
	}
}

func TestGatherPrefersTheRunsGrades(t *testing.T) {
	s, _ := builtin.LoadSuite("household")
	rec := household(t)
	rd := recordtest.Open(t, rec)
	g := grade.Run(s, rec)
	g.Attempts[0].Outcome = "recorded-verdict" // a verdict grading could not produce
	if err := rundir.WriteJSON(rundir.Path(rec.Dir, rundir.Grades), g); err != nil {
		t.Fatal(err)
	}
	var warned []string
	seq, err := Gather(rd, Options{SuiteErr: errors.New("suite x: gone"), Warn: func(m string) { warned = append(warned, m) }}, false)
	if err != nil {
		t.Fatal(err)
	}
	items := gather(t, seq)
	if items[0].Grade == nil || items[0].Grade.Outcome != "recorded-verdict" {
		t.Errorf("first item's grade = %+v, want the recorded verdict", items[0].Grade)
	}
	if items[0].Group != "" || len(warned) != 1 || !strings.Contains(warned[0], "without groups and datasets") {
		t.Errorf("group %q, warnings %q: want no group and one warning", items[0].Group, warned)
	}
	if _, err := Gather(rd, Options{SuiteErr: errors.New("suite x: gone")}, true); err == nil || !strings.Contains(err.Error(), "loading the run's suite: suite x: gone") {
		t.Errorf("needing the suite without one: err = %v", err)
	}
}

func TestGatherRefusesABrokenGradesFile(t *testing.T) {
	rec := household(t)
	rd := recordtest.Open(t, rec)
	if err := os.WriteFile(rundir.Path(rec.Dir, rundir.Grades), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, _ := builtin.LoadSuite("household")
	_, err := Gather(rd, Options{Suite: s}, false)
	if !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "mcpeval score") {
		t.Errorf("err = %v, want bad input naming mcpeval score", err)
	}
}

func TestLangfuseWithoutKeysIsBadInput(t *testing.T) {
	_, err := Langfuse(t.Context(), recordtest.Open(t, household(t)), Options{Getenv: func(string) string { return "" }})
	if !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "LANGFUSE_PUBLIC_KEY") {
		t.Errorf("err = %v, want bad input naming the keys", err)
	}
}
