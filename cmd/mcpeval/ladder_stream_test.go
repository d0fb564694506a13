package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/ladder"
	"github.com/mcpeval/mcpeval/record"
)

// TestLadderReadsRunsAsStreams: mcpeval ladder, which grades, counts and
// prices each run as a stream, prints what ladder.Build makes of the runs
// read whole: the same rungs, costs, attempt counts and warnings, an
// unfinished run's count included.
func TestLadderReadsRunsAsStreams(t *testing.T) {
	dir := t.TempDir()
	var dirs []string
	for _, m := range []string{"fake:perfect", "fake:invent"} {
		out := filepath.Join(dir, strings.TrimPrefix(m, "fake:"))
		var o, e bytes.Buffer
		if code := Main(context.Background(), []string{"run", "--suite", "household", "--model", m, "--attempts", "2", "--quiet", "--out", out}, nil, &o, &e); code != 0 && code != 1 {
			t.Fatalf("run %s: exit %d\n%s", m, code, e.String())
		}
		dirs = append(dirs, out)
	}
	// The second run unfinished: its end line cut off, and an attempt.
	p := filepath.Join(dirs[1], record.FileName)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(b), "\n"), "\n")
	if err := os.WriteFile(p, []byte(strings.Join(lines[:len(lines)-2], "")), 0o644); err != nil {
		t.Fatal(err)
	}

	var runs []*record.Run
	var results []*grade.Result
	for _, d := range dirs {
		rec, err := record.Read(d)
		if err != nil {
			t.Fatal(err)
		}
		s, err := loadSuite(rec.Header.Suite.Path)
		if err != nil {
			t.Fatal(err)
		}
		runs, results = append(runs, rec), append(results, grade.Run(s, rec))
	}
	var want bytes.Buffer
	if err := ladder.JSON(&want, ladder.Build(runs, results)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(want.String(), "is incomplete: 39 of 40 planned attempts recorded") {
		t.Fatalf("the whole ladder does not count the unfinished run's attempts:\n%s", want.String())
	}
	var got, errb bytes.Buffer
	if code := Main(context.Background(), append([]string{"ladder", "--json"}, dirs...), nil, &got, &errb); code != 0 {
		t.Fatalf("ladder: exit %d\n%s", code, errb.String())
	}
	if got.String() != want.String() {
		t.Errorf("mcpeval ladder --json read as streams:\n%s\nwant, read whole:\n%s", got.String(), want.String())
	}
}
