package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/runner"
)

// hundredK is how many times the household run of 190 attempts is
// replayed to make a record of at least 100,000 attempts (100,130).
const hundredK = 527

// BenchmarkMemoryAt100k reports the peak resident memory (peak-MiB) of
// score, report, compare, view, merge and run, each a process of its own
// (measured), on a household run of 190 attempts and one of 100,130: the
// record made by replaying the household run as the memory tests do at
// 19,000 attempts, the shards merged cut from the same replay, and run
// running that many attempts with fake:perfect. It takes most of an hour
// on a loaded machine, so it is a benchmark, run only when asked:
//
//	go test ./cmd/mcpeval -run '^$' -bench BenchmarkMemoryAt100k -benchtime 1x -timeout 3h
//
// Making the records takes a good part of that. With
// $MCPEVAL_MEMORY_100K set to a directory, they are made there and kept,
// and records found complete there are used again, so that one command
// is measured at a time without making them each time:
//
//	MCPEVAL_MEMORY_100K=/tmp/mem100k go test ./cmd/mcpeval -run '^$' -bench 'BenchmarkMemoryAt100k/score' -benchtime 1x -timeout 3h
//
// A command that writes beside a record (score writes its grades) writes
// in the kept directory too.
func BenchmarkMemoryAt100k(b *testing.B) {
	dir := b.TempDir()
	small, big := filepath.Join(dir, "small"), filepath.Join(dir, "big")
	keep := os.Getenv("MCPEVAL_MEMORY_100K")
	if keep != "" {
		small, big = filepath.Join(keep, "small"), filepath.Join(keep, "big")
	}
	records := dir // where the records are, the outputs staying in dir
	if keep != "" {
		records = keep
	}
	if keep == "" || !complete(small) || !complete(big) {
		if keep != "" {
			if err := os.MkdirAll(keep, 0o755); err != nil {
				b.Fatal(err)
			}
			os.RemoveAll(small)
			os.RemoveAll(big)
		}
		small, big = householdRecords(b, records, hundredK)
	}
	base, err := record.Read(small)
	if err != nil {
		b.Fatal(err)
	}
	shards := func(root string, times int) []string {
		var dirs []string
		for k := 1; k <= 2; k++ {
			d := filepath.Join(root, "shard", string(rune('0'+k)))
			if keep != "" && complete(d) {
				dirs = append(dirs, d)
				continue
			}
			os.RemoveAll(d)
			if err := replayShard(base, d, times, record.Shard{K: k, N: 2}); err != nil {
				b.Fatal(err)
			}
			dirs = append(dirs, d)
		}
		return dirs
	}
	sizes := []struct {
		name, rec string
		shards    []string
		attempts  string
	}{
		{"attempts=190", small, shards(filepath.Join(records, "s"), 1), "10"},
		{"attempts=100130", big, shards(filepath.Join(records, "b"), hundredK), "5270"},
	}
	out := 0
	next := func() string { out++; return filepath.Join(dir, fmt.Sprintf("out%d", out)) }
	for _, c := range []struct {
		name string
		args func(rec string, shards []string, attempts string) []string
	}{
		{"score", func(rec string, _ []string, _ string) []string { return []string{"score", rec} }},
		{"report", func(rec string, _ []string, _ string) []string { return []string{"report", rec} }},
		{"report-json", func(rec string, _ []string, _ string) []string { return []string{"report", rec, "--json"} }},
		{"report-html", func(rec string, _ []string, _ string) []string {
			return []string{"report", rec, "--html", next() + ".html"}
		}},
		{"compare", func(rec string, _ []string, _ string) []string { return []string{"compare", rec, rec} }},
		{"view", nil},
		{"merge", func(_ string, shards []string, _ string) []string {
			return append([]string{"merge", "--out", next()}, shards...)
		}},
		{"run", func(_ string, _ []string, attempts string) []string {
			return []string{"run", "--model", "fake:perfect", "--attempts", attempts, "--concurrency", "16", "--quiet", "--out", next()}
		}},
	} {
		for _, sz := range sizes {
			b.Run(c.name+"/"+sz.name, func(b *testing.B) {
				peak := 0.0
				for range b.N {
					if c.args == nil {
						p, _ := viewPeak(b, sz.rec)
						peak = max(peak, p)
						continue
					}
					peak = max(peak, peakRSS(b, c.args(sz.rec, sz.shards, sz.attempts)...))
				}
				b.ReportMetric(peak, "peak-MiB")
			})
		}
	}
}

// replayShard writes in dir shard sh of the record replay(base, times)
// would write: the header plans the shard's slice of that plan
// (runner.ShardOf) and says which shard it is, and only the attempts it
// plans are written, unsynced as replay writes them.
func replayShard(base *record.Run, dir string, times int, sh record.Shard) error {
	perCase := map[string]int{}
	for _, a := range base.Attempts {
		perCase[a.Case] = max(perCase[a.Case], a.N)
	}
	h := base.Header
	h.Planned = nil
	for k := 0; k < times; k++ {
		for _, p := range base.Header.Planned {
			h.Planned = append(h.Planned, record.Planned{Case: p.Case, N: k*perCase[p.Case] + p.N})
		}
	}
	h.Attempts = len(h.Planned) / max(1, len(perCase))
	h.Planned = runner.ShardOf(h.Planned, sh)
	h.Shard = &sh
	in := map[record.AttemptKey]bool{}
	for _, p := range h.Planned {
		in[p.Key()] = true
	}
	w, err := record.Create(dir, &h)
	if err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	f, err := os.OpenFile(filepath.Join(dir, record.FileName), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	enc := json.NewEncoder(bw)
	for k := 0; k < times; k++ {
		for _, a := range base.Attempts {
			a.N += k * perCase[a.Case]
			if !in[a.Key()] {
				continue
			}
			if err := enc.Encode(struct {
				Attempt *record.Attempt `json:"attempt"`
			}{&a}); err != nil {
				return err
			}
		}
	}
	if err := enc.Encode(struct {
		End *record.End `json:"end"`
	}{&record.End{Finish: base.End.Finish, Complete: true}}); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return f.Close()
}
