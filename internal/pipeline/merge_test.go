package pipeline

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/mcpeval/mcpeval/record"
)

// TestMerge runs a suite as two shards, merges them and checks the merged
// run is graded like the two together; shards that do not make one run
// are refused with ErrCannotMerge and nothing graded.
func TestMerge(t *testing.T) {
	s := loadSuite(t, opsMini)
	m, info := perfect(t, s)
	var dirs []string
	attempts := 0
	for k := 1; k <= 2; k++ {
		cfg := config(t, s, m, info)
		cfg.Shard = &record.Shard{K: k, N: 2}
		g, err := Run(context.Background(), cfg, Options{})
		if err != nil {
			t.Fatalf("shard %d/2: %v", k, err)
		}
		attempts += g.Result.Totals.Passed + g.Result.Totals.Failed + g.Result.Totals.Errors
		dirs = append(dirs, g.Record.Dir)
	}
	out := filepath.Join(t.TempDir(), "merged")
	g, err := Merge(context.Background(), s, out, dirs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tot := g.Result.Totals; tot.Passed != attempts || tot.Failed != 0 || attempts != 4 {
		t.Errorf("merged totals %+v over %d attempts in the shards, want all 4 passed", tot, attempts)
	}
	// docs/ci.md: merge grades the merged run as a stream, never holding
	// its attempts.
	if len(g.Record.Attempts) != 0 || g.Attempts != 4 {
		t.Errorf("the merged run was graded holding %d attempts (of %d): want it streamed", len(g.Record.Attempts), g.Attempts)
	}
	for _, bad := range [][]string{nil, {dirs[0]}, {dirs[0], dirs[0]}} {
		if _, err := Merge(context.Background(), s, filepath.Join(t.TempDir(), "m"), bad, Options{}); !errors.Is(err, ErrCannotMerge) {
			t.Errorf("merging %d shard(s) %v: err = %v, want ErrCannotMerge", len(bad), bad, err)
		}
	}
}
