package shard

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/builtin"
	"github.com/mcpeval/mcpeval/model"
	"github.com/mcpeval/mcpeval/model/fake"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/runner"
	"github.com/mcpeval/mcpeval/suite"
	"github.com/mcpeval/mcpeval/target"
)

func TestParse(t *testing.T) {
	for in, want := range map[string]record.Shard{"1/1": {K: 1, N: 1}, "2/4": {K: 2, N: 4}, " 4/4 ": {K: 4, N: 4}} {
		got, err := Parse(in)
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "2", "0/4", "5/4", "a/b", "1/0", "-1/2", "1/2/3"} {
		if _, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) succeeded", in)
		}
	}
}

// mixed answers the fx group as fake:refuse and everything else as
// fake:perfect, so that the grades hold passes and fails.
type mixed struct{ perfect, refuse model.Model }

func (m mixed) Generate(ctx context.Context, req *model.Request) (*model.Response, error) {
	if strings.HasPrefix(req.CaseID, "fx/") {
		return m.refuse.Generate(ctx, req)
	}
	return m.perfect.Generate(ctx, req)
}

func run(t *testing.T, s *suite.Suite, dir string, sh *record.Shard) *record.Run {
	t.Helper()
	p, _ := fake.New("perfect", s)
	r, _ := fake.New("refuse", s)
	clock := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	var mu sync.Mutex // the runner asks the clock from every attempt at once
	rec, err := runner.Run(context.Background(), runner.Config{
		Suite: s, Target: target.Config{Builtins: builtin.All()}, Model: mixed{p, r}, ModelInfo: model.Info{Spec: "test:mixed", Provider: "test", Name: "mixed", Fake: true},
		Attempts: 2, Concurrency: 3, OutDir: dir, Shard: sh,
		Now: func() time.Time {
			mu.Lock()
			defer mu.Unlock()
			clock = clock.Add(time.Millisecond)
			return clock
		},
		NewID: func() string { return filepath.Base(dir) },
	})
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

func household(t *testing.T) *suite.Suite {
	t.Helper()
	s, err := builtin.LoadSuite("household")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestFourShardsEqualOneRun: the household suite run whole, and run as four
// shards merged, plan the same attempts in the same order and grade the
// same.
func TestFourShardsEqualOneRun(t *testing.T) {
	s := household(t)
	tmp := t.TempDir()
	whole := run(t, s, filepath.Join(tmp, "whole"), nil)
	var shards []*record.Run
	for _, k := range []int{3, 1, 4, 2} { // any order
		shards = append(shards, run(t, s, filepath.Join(tmp, "shard", string(rune('0'+k))), &record.Shard{K: k, N: 4}))
	}
	for _, sh := range shards {
		if n := len(sh.Attempts); n < 9 || n > 10 {
			t.Errorf("shard %v made %d attempts, want 9 or 10 of 38", sh.Header.Shard, n)
		}
	}
	merged, err := Merge(filepath.Join(tmp, "merged"), shards, Options{RunID: "merged"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(whole.Header.Planned, merged.Header.Planned); diff != "" {
		t.Errorf("planned attempts (-whole +merged):\n%s", diff)
	}
	if !merged.Complete() || merged.Header.Shard != nil || merged.Header.RunID != "merged" {
		t.Errorf("merged: complete %v, shard %v, id %q", merged.Complete(), merged.Header.Shard, merged.Header.RunID)
	}
	if got := Shards(&merged.Header); len(got) != 4 || got[0].K != 1 || got[3].K != 4 {
		t.Errorf("merged header lists shards %+v", got)
	}
	gw, gm := grade.Run(s, whole), grade.Run(s, merged)
	gw.RunID, gm.RunID = "", ""
	if diff := cmp.Diff(gw, gm); diff != "" {
		t.Errorf("grades (-whole +merged):\n%s", diff)
	}
	if gw.Totals.Failed == 0 || gw.Totals.Passed == 0 {
		t.Errorf("the test needs passes and fails: %+v", gw.Totals)
	}
	// A merged run's attempts are in plan order.
	for i, a := range merged.Attempts {
		if p := merged.Header.Planned[i]; a.Key() != p.Key() {
			t.Fatalf("attempt %d is %s, plan says %s", i, a.Key(), p.Key())
		}
	}
	if _, err := Merge(filepath.Join(tmp, "merged"), shards, Options{}); err == nil || !strings.Contains(err.Error(), "already holds a record") {
		t.Errorf("merging into a run directory again: %v", err)
	}
}

// TestRefuse: shards of different runs, overlapping or missing shards, and
// records that are not shards are refused, with the reason.
func TestRefuse(t *testing.T) {
	s := household(t)
	tmp := t.TempDir()
	var shards []*record.Run
	for k := 1; k <= 3; k++ {
		shards = append(shards, run(t, s, filepath.Join(tmp, string(rune('0'+k))), &record.Shard{K: k, N: 3}))
	}
	whole := run(t, s, filepath.Join(tmp, "whole"), nil)
	other := *shards[1]
	other.Header.Model.Spec = "test:other"
	otherTools := *shards[2]
	otherTools.Header.ToolsHash = "0000"
	otherAttempts := *shards[2]
	otherAttempts.Header.Attempts = 5
	tests := []struct {
		name   string
		shards []*record.Run
		want   string
	}{
		{"model", []*record.Run{shards[0], &other, shards[2]}, "differ in model spec and options"},
		{"tools", []*record.Run{shards[0], shards[1], &otherTools}, "differ in tools hash"},
		{"attempts", []*record.Run{shards[0], shards[1], &otherAttempts}, "differ in attempts"},
		{"overlap", []*record.Run{shards[0], shards[1], shards[1], shards[2]}, "shard 2/3 is given twice"},
		{"missing", []*record.Run{shards[0], shards[2]}, "missing shard 2/3"},
		{"not a shard", []*record.Run{shards[0], whole}, "is not a shard's record"},
		{"none", nil, "no shards"},
	}
	for _, tt := range tests {
		_, err := Merge(filepath.Join(tmp, "m-"+tt.name), tt.shards, Options{})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Merge error %v, want %q", tt.name, err, tt.want)
		}
	}
	cut := *shards[1]
	cut.Header.Shard = &record.Shard{K: 2, N: 4}
	if _, err := Merge(filepath.Join(tmp, "m-n"), []*record.Run{shards[0], &cut}, Options{}); err == nil || !strings.Contains(err.Error(), "cut the same number of ways") {
		t.Errorf("shards of 3 and of 4: %v", err)
	}
}

// TestIncompleteShard: a shard that did not finish makes the merged run
// incomplete, saying which.
func TestIncompleteShard(t *testing.T) {
	s := household(t)
	tmp := t.TempDir()
	a := run(t, s, filepath.Join(tmp, "1"), &record.Shard{K: 1, N: 2})
	b := run(t, s, filepath.Join(tmp, "2"), &record.Shard{K: 2, N: 2})
	cut := *b
	cut.End = nil
	cut.Attempts = cut.Attempts[:3]
	m, err := Merge(filepath.Join(tmp, "m"), []*record.Run{a, &cut}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Complete() || !strings.Contains(m.End.Reason, "shard 2/2 did not finish") {
		t.Errorf("merged end %+v", m.End)
	}
	if len(m.Attempts) != len(a.Attempts)+3 {
		t.Errorf("merged %d attempts, want %d", len(m.Attempts), len(a.Attempts)+3)
	}
}
