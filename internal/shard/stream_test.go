package shard

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/record"
)

// TestMergeDirsEqualsMerge: merging four shards from their directories
// writes the same record as merging them in memory, and it grades as the
// whole run does.
func TestMergeDirsEqualsMerge(t *testing.T) {
	s := household(t)
	tmp := t.TempDir()
	whole := run(t, s, filepath.Join(tmp, "whole"), nil)
	var shards []*record.Run
	var dirs []string
	for _, k := range []int{2, 4, 1, 3} {
		d := filepath.Join(tmp, "shard", fmt.Sprint(k))
		shards = append(shards, run(t, s, d, &record.Shard{K: k, N: 4}))
		dirs = append(dirs, d)
	}
	dirs[1] = filepath.Join(dirs[1], record.FileName) // a record file names its run too
	opts := Options{RunID: "merged"}
	inMemory, err := Merge(filepath.Join(tmp, "memory"), shards, opts)
	if err != nil {
		t.Fatal(err)
	}
	m, err := MergeDirs(filepath.Join(tmp, "streamed"), dirs, opts)
	if err != nil {
		t.Fatal(err)
	}
	if m.Attempts != len(whole.Attempts) || len(m.Warnings) != 0 {
		t.Errorf("merged %d attempts with warnings %v, want %d and none", m.Attempts, m.Warnings, len(whole.Attempts))
	}
	streamed, err := record.Read(m.Dir)
	if err != nil {
		t.Fatal(err)
	}
	inMemory.Dir, streamed.Dir = "", ""
	if diff := cmp.Diff(inMemory, streamed); diff != "" {
		t.Errorf("merged record (-in memory +streamed):\n%s", diff)
	}
	if diff := cmp.Diff(streamed.Header, m.Header); diff != "" {
		t.Errorf("returned header (-as written +returned):\n%s", diff)
	}
	gw, gm := grade.Run(s, whole), grade.Run(s, streamed)
	gw.RunID, gm.RunID = "", ""
	if diff := cmp.Diff(gw, gm); diff != "" {
		t.Errorf("grades (-whole +streamed):\n%s", diff)
	}
	if _, err := MergeDirs(filepath.Join(tmp, "missing"), dirs[:3], opts); err == nil || !strings.Contains(err.Error(), "missing shard 3/4") {
		t.Errorf("three shards of four: %v", err)
	}
	if _, err := MergeDirs(filepath.Join(tmp, "whole2"), append(dirs[:3:3], filepath.Join(tmp, "whole")), opts); err == nil || !strings.Contains(err.Error(), "whole is not a shard's record") {
		t.Errorf("a whole run among shards: %v", err)
	}
	if _, err := MergeDirs(filepath.Join(tmp, "none"), []string{filepath.Join(tmp, "nowhere")}, opts); err == nil || !strings.Contains(err.Error(), "reading shard record") {
		t.Errorf("a shard that does not exist: %v", err)
	}
}

// TestMergeDirsReadsAsRecordDoes: an errored attempt retried later is
// merged as the retry, an attempt recorded twice keeps the first with a
// warning, a torn last line is passed over with a warning, and a shard
// that did not finish makes the merged run incomplete.
func TestMergeDirsReadsAsRecordDoes(t *testing.T) {
	tmp := t.TempDir()
	plan := []record.Planned{{Case: "a", N: 1}, {Case: "b", N: 1}, {Case: "c", N: 1}, {Case: "d", N: 1}}
	one := writeShard(t, filepath.Join(tmp, "1"), 1, 2, plan, func(w func(any)) {
		w(map[string]any{"attempt": attempt("c", 1, record.EndError, "first try")})
		w(map[string]any{"attempt": attempt("a", 1, record.EndAnswered, "A")})
		w(map[string]any{"attempt": attempt("c", 1, record.EndAnswered, "retried")})
		w(map[string]any{"attempt": attempt("a", 1, record.EndAnswered, "again")})
		w(map[string]any{"end": record.End{Complete: true, Finish: time.Date(2026, 11, 30, 1, 0, 0, 0, time.UTC)}})
	})
	two := writeShard(t, filepath.Join(tmp, "2"), 2, 2, plan, func(w func(any)) {
		w(map[string]any{"attempt": attempt("b", 1, record.EndAnswered, "B")})
	})
	f, err := os.OpenFile(filepath.Join(two, record.FileName), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"attempt":{"case":"d","n":1,"prom`)
	f.Close()
	m, err := MergeDirs(filepath.Join(tmp, "m"), []string{one, two}, Options{RunID: "m"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := record.Read(m.Dir)
	if err != nil {
		t.Fatal(err)
	}
	var answers []string
	for _, a := range got.Attempts {
		answers = append(answers, a.Case+"="+a.Answer)
	}
	if want := []string{"a=A", "b=B", "c=retried"}; !cmp.Equal(answers, want) {
		t.Errorf("merged attempts %v, want %v", answers, want)
	}
	warned := strings.Join(m.Warnings, "\n")
	for _, w := range []string{"1/record.jsonl:5: attempt a #1 already recorded at line 3; ignored", "2/record.jsonl:3: torn last line"} {
		if !strings.Contains(warned, w) {
			t.Errorf("warnings %q do not say %q", m.Warnings, w)
		}
	}
	if got.Complete() || !strings.Contains(got.End.Reason, "shard 2/2 did not finish") {
		t.Errorf("merged end %+v", got.End)
	}
}

// TestMergeDirsFlatMemory: merging four shards of 80 MB of records in
// all holds no shard in memory: the heap grows by a small fraction of the
// records' size, which reading them whole (record.Read) cannot do.
func TestMergeDirsFlatMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 160 MB")
	}
	const shards, cases, size = 4, 1000, 40 << 10
	tmp := t.TempDir()
	var plan []record.Planned
	for c := range cases {
		for n := 1; n <= 2; n++ {
			plan = append(plan, record.Planned{Case: fmt.Sprintf("case/%04d", c), N: n})
		}
	}
	answer := strings.Repeat("x", size)
	var dirs []string
	var total int64
	for k := 1; k <= shards; k++ {
		d := writeShard(t, filepath.Join(tmp, fmt.Sprint(k)), k, shards, plan, func(w func(any)) {
			for i := len(plan) - 1; i >= 0; i-- { // the reverse of plan order
				if i%shards == k-1 {
					w(map[string]any{"attempt": attempt(plan[i].Case, plan[i].N, record.EndAnswered, answer)})
				}
			}
			w(map[string]any{"end": record.End{Complete: true, Finish: time.Date(2026, 11, 30, 1, 0, 0, 0, time.UTC)}})
		})
		st, err := os.Stat(filepath.Join(d, record.FileName))
		if err != nil {
			t.Fatal(err)
		}
		total += st.Size()
		dirs = append(dirs, d)
	}

	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	peak := base.HeapAlloc
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		var ms runtime.MemStats
		for {
			select {
			case <-done:
				return
			case <-time.After(2 * time.Millisecond):
			}
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
		}
	})
	m, err := MergeDirs(filepath.Join(tmp, "merged"), dirs, Options{RunID: "merged"})
	close(done)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	grew := int64(peak - base.HeapAlloc)
	t.Logf("merged %d attempts, %d MB of records: heap grew by at most %.1f MiB", m.Attempts, total>>20, float64(grew)/(1<<20))
	if m.Attempts != len(plan) || !m.End.Complete {
		t.Errorf("merged %d attempts of %d, complete %v", m.Attempts, len(plan), m.End.Complete)
	}
	if limit := total / 5; grew > limit {
		t.Errorf("merging %d MB of records grew the heap by %d MB, over %d MB: merge holds the records in memory", total>>20, grew>>20, limit>>20)
	}
	// The merged record is in plan order.
	f, err := os.Open(filepath.Join(m.Dir, record.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	i := -1
	for sc.Scan() {
		var l struct {
			Attempt *record.Planned `json:"attempt"`
		}
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		if i >= 0 && i < len(plan) && l.Attempt != nil && *l.Attempt != plan[i] {
			t.Fatalf("merged attempt %d is %v, plan says %v", i, *l.Attempt, plan[i])
		}
		i++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}

// writeShard writes the record of shard k of n of plan into dir without
// the record writer's syncs: a header, then whatever lines gives.
func writeShard(t *testing.T, dir string, k, n int, plan []record.Planned, lines func(w func(any))) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, record.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	bw := bufio.NewWriter(f)
	enc := json.NewEncoder(bw)
	w := func(v any) {
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
	}
	h := record.Header{
		Format: record.Format, RunID: fmt.Sprintf("shard-%d", k),
		Start:     time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC),
		Suite:     record.SuiteInfo{Name: "synthetic", Hash: "s"},
		Attempts:  2,
		Shard:     &record.Shard{K: k, N: n},
		Preflight: record.Preflight{Valid: true},
	}
	for i, p := range plan {
		if i%n == k-1 {
			h.Planned = append(h.Planned, p)
		}
	}
	w(map[string]any{"header": h})
	lines(w)
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	return dir
}

func attempt(c string, n int, end, answer string) record.Attempt {
	a := record.Attempt{Case: c, N: n, Prompt: "q", Start: time.Date(2026, 11, 30, 0, 0, 1, 0, time.UTC), End: end, Answer: answer}
	if end == record.EndError {
		a.Error = &record.Error{Kind: record.KindProvider, Message: "overloaded"}
	}
	return a
}

// FuzzIndex: reading a record line by line for merging never panics,
// refuses only what record.Read refuses, and, when both read it, finds
// the same attempts in the same order with the same warnings.
func FuzzIndex(f *testing.F) {
	h := `{"header":{"format":"` + record.Format + `","run_id":"r","shard":{"k":1,"n":1},"planned":[{"case":"a","n":1}]}}` + "\n"
	f.Add([]byte(h))
	f.Add([]byte(h + `{"attempt":{"case":"a","n":1,"end":"error","error":{"kind":"provider","message":"x"}}}` + "\n" + `{"attempt":{"case":"a","n":1,"end":"answered"}}` + "\n"))
	f.Add([]byte(h + `{"attempt":{"case":"a","n":1,"end":"answered"}}` + "\n" + `{"attempt":{"case":"a","n":1,"end":"answered"}}` + "\n" + `{"end":{"complete":true,"warnings":["w"]}}` + "\n"))
	f.Add([]byte(h + `{"attempt":{"case":"a","n":1,"end":"error"}}` + "\n"))
	f.Add([]byte(h + `{"attempt":{"case":"a","n":1,"pro`))
	f.Add([]byte(h + "{}\n"))
	f.Add([]byte(h + h))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, record.FileName), data, 0o644); err != nil {
			t.Fatal(err)
		}
		s, ierr := index(dir)
		run, rerr := record.Read(dir)
		if ierr != nil {
			if rerr == nil {
				t.Fatalf("index refuses what record.Read reads: %v", ierr)
			}
			return
		}
		defer s.f.Close()
		if rerr != nil {
			return // a line only a whole attempt's decoding refuses
		}
		var keys []record.AttemptKey
		for _, a := range run.Attempts {
			keys = append(keys, a.Key())
		}
		if !cmp.Equal(keys, s.keys, cmpopts.EquateEmpty()) {
			t.Errorf("attempts: record.Read %v, index %v", keys, s.keys)
		}
		if !cmp.Equal(run.Warnings, s.warnings, cmpopts.EquateEmpty()) {
			t.Errorf("warnings: record.Read %q, index %q", run.Warnings, s.warnings)
		}
		if (run.End == nil) != (s.end == nil) {
			t.Errorf("end: record.Read %v, index %v", run.End, s.end)
		}
	})
}
