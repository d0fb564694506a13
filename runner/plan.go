package runner

import (
	"crypto/rand"
	"encoding/hex"
	"regexp"
	"strings"
	"time"

	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// NewRunID returns a run id: the UTC time, the model spec made safe for a
// directory name, and a random suffix.
func NewRunID(t time.Time, spec string) string {
	var b [3]byte
	rand.Read(b[:])
	safe := regexp.MustCompile(`[^A-Za-z0-9._-]+`).ReplaceAllString(spec, "-")
	if len(safe) > 40 {
		safe = safe[:40]
	}
	return t.UTC().Format("20060102-150405") + "-" + strings.Trim(safe, "-") + "-" + hex.EncodeToString(b[:])
}

// Plan lists the attempts a configuration sets out to make, in run order:
// case by case, attempt by attempt.
func Plan(s *suite.Suite, attempts int, filter []string) []record.Planned {
	var p []record.Planned
	for _, c := range s.Cases {
		if !Selected(c.ID, filter) {
			continue
		}
		n := attempts
		if n <= 0 {
			n = s.AttemptsFor(c)
		}
		for i := 1; i <= n; i++ {
			p = append(p, record.Planned{Case: c.ID, N: i})
		}
	}
	return p
}

// ShardOf returns slice K of N of a plan: the attempts whose index i has
// i % N == K-1. The N shards of a plan together hold it exactly once.
func ShardOf(plan []record.Planned, sh record.Shard) []record.Planned {
	var out []record.Planned
	for i, p := range plan {
		if i%sh.N == sh.K-1 {
			out = append(out, p)
		}
	}
	return out
}

func filterDataset(s *suite.Suite, plan []record.Planned, dataset string) []record.Planned {
	var out []record.Planned
	for _, p := range plan {
		if c := s.Case(p.Case); c != nil && s.DatasetOf(c) == dataset {
			out = append(out, p)
		}
	}
	return out
}

// Selected reports whether case id is selected by filter (all when empty).
func Selected(id string, filter []string) bool {
	if len(filter) == 0 {
		return true
	}
	for _, f := range filter {
		if id == f || (strings.HasSuffix(f, "/") && strings.HasPrefix(id, f)) || strings.HasPrefix(id, f+"/") {
			return true
		}
	}
	return false
}
