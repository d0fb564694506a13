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
	"github.com/mcpeval/mcpeval/internal/agreement"
	"github.com/mcpeval/mcpeval/internal/judge"
	"github.com/mcpeval/mcpeval/internal/review"
	"github.com/mcpeval/mcpeval/internal/rundir"
	"github.com/mcpeval/mcpeval/internal/usage"
	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/suite"
)

// SuiteFunc returns the suite a run with header h is graded against, as
// it is now.
type SuiteFunc func(h *record.Header) (*suite.Suite, error)

// run is one run directory as last read: its record's header and end,
// graded as a stream, with its reviews applied. No attempt is held: a page
// that shows one reads it back from the record (loadAttempt, eachAttempt).
type run struct {
	Key string
	Dir string
	// Rec is the run without its attempts: header, end and warnings.
	Rec *record.Run
	// N is how many attempts the record holds.
	N     int
	Res   *grade.Result
	Suite *suite.Suite
	// SuiteErr says why the suite could not be loaded; the grades then
	// come from grades.json, and what was expected is not shown.
	SuiteErr string
	Log      *review.Log
	RV       *review.Reviewed
	Usage    *usage.Summary
	// Agreement is the judge's measured agreement with people (the run's
	// agreement.json), shown beside the cases graded by a judge; nil when
	// none is saved. AgreementErr says why a saved one could not be read.
	Agreement    *agreement.Saved
	AgreementErr string
	// In and Out are the tokens the run's attempts used, as tally totals
	// them; tally prices them.
	In, Out int64
	tally   *usage.Tally
	// charts are the run's distributions, drawn as it was read.
	charts []*histogram
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
	suite SuiteFunc

	mu   sync.Mutex
	runs map[string]*run // by directory
}

func newStore(roots []string, sf SuiteFunc) *store {
	return &store{roots: roots, suite: sf, runs: map[string]*run{}}
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

// signature changes when a run's record or reviews change, or what is
// derived from it: its grades, usage, the judge's rulings and its
// measured agreement.
func signature(dir string) string {
	sig := ""
	for _, name := range []string{rundir.Record, rundir.Reviews, rundir.Grades, rundir.Usage, rundir.Judge, rundir.Agreement} {
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
// The record is read as a stream: what is kept are verdicts, counters and
// the answers of failed attempts (which reviews are fingerprinted by),
// never an attempt.
func (s *store) read(dir, sig string) *run {
	r := &run{Dir: dir, Key: filepath.Base(dir), sig: sig}
	rd, err := record.Open(dir)
	if err != nil {
		r.Err = err
		return r
	}
	defer rd.Close()
	rec := rd.Run()
	r.Rec, r.N = rec, rd.Len()
	if rec.Header.RunID != "" {
		r.Key = rec.Header.RunID
	}
	var gr *grade.Grader
	if s.suite != nil {
		// The suite is found from the run directory (Locate), not from
		// the folder the run was made in.
		h := rec.Header
		if h.Suite.Path, err = h.Suite.Locate(rec.Dir); err == nil {
			r.Suite, err = s.suite(&h)
		}
		if err != nil {
			r.SuiteErr = err.Error()
		} else {
			gr = grade.NewGrader(r.Suite, rec)
		}
	} else {
		r.SuiteErr = "no suite loader"
	}
	r.tally = usage.NewTally(&rec.Header, nil)
	var c chartValues
	err = rd.Each(func(a *record.Attempt) error {
		if gr != nil {
			gr.Add(a)
		}
		r.tally.Add(a)
		c.add(a)
		return nil
	})
	if err != nil {
		r.Err = fmt.Errorf("reading %s: %w", dir, err)
		return r
	}
	tok := r.tally.Summary().Total.Tokens
	r.In, r.Out = tok.Input, tok.Output
	r.charts = c.charts()
	if gr != nil {
		// The cases graded by their judge are graded by its stored rulings
		// (judge.json), as scoring the run does.
		ops, err := judge.Read(dir)
		if err != nil {
			r.Err = fmt.Errorf("grading %s: %w", dir, err)
			return r
		}
		r.Res = gr.Result()
		judge.Apply(r.Suite, r.Res, ops)
	} else {
		res, gerr := rundir.ReadGrades(dir)
		if gerr != nil {
			r.Err = fmt.Errorf("grading %s: %s; and %v", dir, r.SuiteErr, gerr)
			return r
		}
		r.Res = res
	}
	// Reviews are fingerprinted by a failed attempt's answer and reasons:
	// the answers of the failures are read back, and only theirs kept.
	failed, err := review.Failures(rd, r.Res)
	if err != nil {
		r.Err = fmt.Errorf("reading %s: %w", dir, err)
		return r
	}
	log, err := review.Load(failed)
	if err != nil {
		r.Err = fmt.Errorf("reading reviews of %s: %w", dir, err)
		log = review.New(failed, nil)
		log.Dir = dir
	}
	r.Log = log
	r.RV = review.Apply(r.Res, log)
	if r.Agreement, err = agreement.Read(dir); err != nil {
		r.AgreementErr = err.Error()
	}
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

// cost prices the run as graded.
func (r *run) cost() *usage.Cost { return r.tally.Cost(r.Res.Totals.Passed) }

// loadAttempt reads attempt caseID #n back from the run's record; nil
// when the record has no such attempt.
func (r *run) loadAttempt(caseID string, n int) (*record.Attempt, error) {
	rd, err := record.Open(r.Dir)
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	return rd.Load(record.AttemptKey{Case: caseID, N: n})
}

// eachOf reads the attempts of keys back from the run's record one at a
// time, in keys' order, and hands each to fn (nil for a key the record
// lacks); it stops at fn's first error.
func (r *run) eachOf(keys []record.AttemptKey, fn func(record.AttemptKey, *record.Attempt) error) error {
	rd, err := record.Open(r.Dir)
	if err != nil {
		return err
	}
	defer rd.Close()
	for _, k := range keys {
		a, err := rd.Load(k)
		if err != nil {
			return err
		}
		if err := fn(k, a); err != nil {
			return err
		}
	}
	return nil
}

// eachAttempt hands fn every attempt of the run's record, one at a time.
func (r *run) eachAttempt(fn func(*record.Attempt) error) error {
	rd, err := record.Open(r.Dir)
	if err != nil {
		return err
	}
	defer rd.Close()
	return rd.Each(fn)
}

// forget drops dir so that it is read again on the next request.
func (s *store) forget(dir string) {
	s.mu.Lock()
	delete(s.runs, dir)
	s.mu.Unlock()
}

// forgetSuiteFile forgets every run graded against a suite read from
// file, for each to be graded again against the file as it is now.
func (s *store) forgetSuiteFile(file string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for dir, r := range s.runs {
		if r.Suite == nil {
			continue
		}
		for _, c := range r.Suite.Cases {
			if c.File == file {
				delete(s.runs, dir)
				break
			}
		}
	}
}
