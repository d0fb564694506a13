package view

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/internal/review"
	"github.com/mcpeval/mcpeval/internal/rundir"
	"github.com/mcpeval/mcpeval/internal/usage"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// GradeFunc grades a run against its suite as it is now, and returns the
// suite too (for what each case expects).
type GradeFunc func(rec *record.Run) (*grade.Result, *suite.Suite, error)

// run is one run directory as last read: its record, graded, with its
// reviews applied.
type run struct {
	Key   string
	Dir   string
	Rec   *record.Run
	Res   *grade.Result
	Suite *suite.Suite
	// SuiteErr says why the suite could not be loaded; the grades then
	// come from grades.json, and what was expected is not shown.
	SuiteErr string
	Log      *review.Log
	RV       *review.Reviewed
	Usage    *usage.Summary
	// Err says why the run could not be read at all.
	Err error
	sig string
}

// InProgress reports whether the run's record has no end yet.
func (r *run) InProgress() bool { return r.Rec != nil && r.Rec.End == nil }

// store reads run directories and keeps each as last read, reading it
// again when its record or reviews change.
type store struct {
	roots []string
	grade GradeFunc

	mu   sync.Mutex
	runs map[string]*run // by directory
}

func newStore(roots []string, g GradeFunc) *store {
	return &store{roots: roots, grade: g, runs: map[string]*run{}}
}

// dirs finds the run directories under the roots: a root that holds a
// record is a run; otherwise its subdirectories (two levels down, for the
// runs of a ladder) that hold one are.
func (s *store) dirs() []string {
	var out []string
	seen := map[string]bool{}
	add := func(d string) {
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	has := func(d string) bool {
		st, err := os.Stat(filepath.Join(d, record.FileName))
		return err == nil && st.Mode().IsRegular()
	}
	var walk func(d string, depth int)
	walk = func(d string, depth int) {
		if has(d) {
			add(d)
			return
		}
		if depth == 0 {
			return
		}
		ents, err := os.ReadDir(d)
		if err != nil {
			return
		}
		for _, e := range ents {
			if e.IsDir() && e.Name()[0] != '.' {
				walk(filepath.Join(d, e.Name()), depth-1)
			}
		}
	}
	for _, r := range s.roots {
		walk(filepath.Clean(r), 2)
	}
	sort.Strings(out)
	return out
}

// signature changes when a run's record or reviews change.
func signature(dir string) string {
	sig := ""
	for _, name := range []string{rundir.Record, rundir.Reviews, rundir.Grades, rundir.Usage} {
		if st, err := os.Stat(filepath.Join(dir, name)); err == nil {
			sig += name + ":" + strconv.FormatInt(st.Size(), 10) + ":" + strconv.FormatInt(st.ModTime().UnixNano(), 10) + ";"
		}
	}
	return sig
}

// all returns every run, newest first, each read again if it changed.
func (s *store) all() []*run {
	dirs := s.dirs()
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*run
	keys := map[string]bool{}
	for _, d := range dirs {
		r := s.runs[d]
		if sig := signature(d); r == nil || r.sig != sig {
			r = s.read(d, sig)
			s.runs[d] = r
		}
		// Keys are run ids; a second directory with the same id is told
		// apart by its directory's name.
		key := r.Key
		for i := 2; keys[key]; i++ {
			key = r.Key + "~" + strconv.Itoa(i)
		}
		keys[key] = true
		cp := *r
		cp.Key = key
		out = append(out, &cp)
	}
	sort.SliceStable(out, func(i, j int) bool { return start(out[i]).After(start(out[j])) })
	return out
}

func start(r *run) time.Time {
	if r.Rec == nil {
		return time.Time{}
	}
	return r.Rec.Header.Start
}

// get returns the run with key k, or nil.
func (s *store) get(k string) *run {
	for _, r := range s.all() {
		if r.Key == k {
			return r
		}
	}
	return nil
}

// read reads run directory dir: its record, graded against its suite (or
// its grades.json when the suite cannot be loaded), its reviews and usage.
func (s *store) read(dir, sig string) *run {
	r := &run{Dir: dir, Key: filepath.Base(dir), sig: sig}
	rec, err := record.Read(dir)
	if err != nil {
		r.Err = err
		return r
	}
	r.Rec = rec
	if rec.Header.RunID != "" {
		r.Key = rec.Header.RunID
	}
	if s.grade != nil {
		r.Res, r.Suite, err = s.grade(rec)
		if err != nil {
			r.SuiteErr = err.Error()
		}
	} else {
		r.SuiteErr = "no suite loader"
	}
	if r.Res == nil {
		res, gerr := rundir.ReadGrades(dir)
		if gerr != nil {
			r.Err = fmt.Errorf("grading %s: %s; and %v", dir, r.SuiteErr, gerr)
			return r
		}
		r.Res = res
	}
	log, err := review.Load(rec)
	if err != nil {
		r.Err = fmt.Errorf("reading reviews of %s: %w", dir, err)
		log = review.New(rec, nil)
		log.Dir = dir
	}
	r.Log = log
	r.RV = review.Apply(r.Res, log)
	if b, err := os.ReadFile(rundir.Path(dir, rundir.Usage)); err == nil {
		var u usage.Summary
		if json.Unmarshal(b, &u) == nil {
			r.Usage = &u
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		r.Err = fmt.Errorf("reading usage of %s: %w", dir, err)
	}
	return r
}

// forget drops dir so that it is read again on the next request.
func (s *store) forget(dir string) {
	s.mu.Lock()
	delete(s.runs, dir)
	s.mu.Unlock()
}
