package pipeline

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mcpeval/mcpeval/internal/shard"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/runner"
	"github.com/mcpeval/mcpeval/suite"
)

// ErrCannotMerge marks shards that do not make one run: different suites,
// models or plans, a shard missing or given twice. Nothing is written.
var ErrCannotMerge = errors.New("cannot merge")

// Merge combines the records of a sharded run (one directory per shard,
// of any size: each is read line by line and the merged record written an
// attempt at a time) into dir, then grades and writes the merged run as
// Score does, as a stream. s is the suite the shards ran.
func Merge(ctx context.Context, s *suite.Suite, dir string, shardDirs []string, opts Options) (*Graded, error) {
	if len(shardDirs) == 0 {
		return nil, fmt.Errorf("%w: no shards", ErrCannotMerge)
	}
	h, err := record.ReadHeader(shardDirs[0])
	if err != nil {
		return nil, err
	}
	id := runner.NewRunID(time.Now(), h.Model.Spec)
	if _, err := shard.MergeDirs(dir, shardDirs, shard.Options{RunID: id}); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCannotMerge, err)
	}
	return ScoreDir(ctx, s, dir, opts)
}

// ParseShard reads a shard as a person writes it, "K/N" (the K-th of N,
// from 1).
func ParseShard(s string) (record.Shard, error) { return shard.Parse(s) }
