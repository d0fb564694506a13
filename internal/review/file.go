package review

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mcpeval/mcpeval/grade"
	"github.com/mcpeval/mcpeval/record"
)

// Log is a run's reviews together with the answers of its attempts, which
// fingerprints are computed from.
type Log struct {
	// Dir is the run directory; Add appends to Dir/reviews.jsonl. Empty for
	// a log kept in memory only.
	Dir string
	// RunID is the run's id.
	RunID string
	// Reviews are every review in the order written, replaced ones
	// included.
	Reviews []Review
	// Warnings are problems that were safe to pass over (a torn last
	// line), as file:line messages.
	Warnings []string
	answers  map[record.AttemptKey]string
}

// Load reads the reviews of the run rec (RUN/reviews.jsonl); a run with no
// reviews file has no reviews.
func Load(rec *record.Run) (*Log, error) {
	l := New(rec, nil)
	l.Dir = rec.Dir
	p := filepath.Join(rec.Dir, FileName)
	f, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return l, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading reviews: %w", err)
	}
	defer f.Close()
	l.Reviews, l.Warnings, err = Parse(f, p)
	if err != nil {
		return nil, err
	}
	return l, nil
}

// Open reads the reviews of the run rd reads, as Load does, for the run as
// graded in res. A log needs the answers of the failures only (a review is
// fingerprinted by a failed attempt's answer and reasons), so only theirs
// are read back, one at a time, and kept: a run of any size is read in
// memory that grows with its failures, not its transcripts.
func Open(rd *record.Reader, res *grade.Result) (*Log, error) {
	failed, err := Failures(rd, res)
	if err != nil {
		return nil, fmt.Errorf("reading the answers reviews are checked against: %w", err)
	}
	return Load(failed)
}

// Failures reads back from rd the answers of res's failed attempts: the
// run with only those attempts, each with its case, number and answer,
// which is all a Log needs to fingerprint reviews (only failures are
// reviewed). The rest of the record is never held.
func Failures(rd *record.Reader, res *grade.Result) (*record.Run, error) {
	run := rd.Run()
	failed := &record.Run{Dir: run.Dir, Header: run.Header}
	for _, g := range res.Attempts {
		if g.Outcome != grade.Fail {
			continue
		}
		a, err := rd.Load(record.AttemptKey{Case: g.Case, N: g.N})
		if err != nil {
			return nil, err
		}
		if a != nil {
			failed.Attempts = append(failed.Attempts, record.Attempt{Case: a.Case, N: a.N, Answer: a.Answer})
		}
	}
	return failed, nil
}

// New returns a log of reviews of rec kept in memory.
func New(rec *record.Run, reviews []Review) *Log {
	l := &Log{RunID: rec.Header.RunID, Reviews: reviews, answers: map[record.AttemptKey]string{}}
	for _, a := range rec.Attempts {
		l.answers[record.AttemptKey{Case: a.Case, N: a.N}] = a.Answer
	}
	return l
}

// Fingerprint returns the fingerprint of a graded attempt of the log's run.
func (l *Log) Fingerprint(a *grade.AttemptGrade) string {
	return Fingerprint(l.answers[record.AttemptKey{Case: a.Case, N: a.N}], a.Reasons)
}

// Add checks r and appends it to the log and, when the log has a Dir, to
// its reviews file, synced to disk before Add returns. Reviews are never
// rewritten: a later review of the same attempt replaces an earlier one.
func (l *Log) Add(r Review) error {
	if r.RunID == "" {
		r.RunID = l.RunID
	}
	if err := r.Check(); err != nil {
		return err
	}
	if l.Dir != "" {
		if err := appendLine(filepath.Join(l.Dir, FileName), &r); err != nil {
			return err
		}
	}
	l.Reviews = append(l.Reviews, r)
	return nil
}

func appendLine(p string, r *Review) error {
	b, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("encoding review: %w", err)
	}
	// The reviews file is the run's own: a symbolic link in its place
	// (to a file outside the run) is refused before anything is read,
	// cut or written, and not followed when the file is opened.
	if err := ownFile(p); err != nil {
		return err
	}
	// A line torn by a crash (no newline) is cut off first, as a record's
	// is on resume, so that this review stays readable.
	if data, err := os.ReadFile(p); err == nil && len(data) > 0 && data[len(data)-1] != '\n' {
		if err := os.Truncate(p, int64(bytes.LastIndexByte(data, '\n')+1)); err != nil {
			return fmt.Errorf("cutting torn line from reviews: %w", err)
		}
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE|noFollow, 0o644)
	if err != nil {
		return fmt.Errorf("writing review: %w", err)
	}
	if err := sameFile(f, p); err != nil {
		f.Close()
		return err
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		return fmt.Errorf("writing review: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("syncing review: %w", err)
	}
	return f.Close()
}

// ownFile refuses p unless it is a regular file or does not exist yet.
func ownFile(p string) error {
	fi, err := os.Lstat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("writing review: %w", err)
	case fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("writing review: %s is a symbolic link: reviews are written only into the run's own file", p)
	case !fi.Mode().IsRegular():
		return fmt.Errorf("writing review: %s is not a regular file", p)
	}
	return nil
}

// sameFile refuses f, opened as p, unless p is still that regular file: a
// symbolic link put in its place meanwhile is not written through.
func sameFile(f *os.File, p string) error {
	if err := ownFile(p); err != nil {
		return err
	}
	opened, err := f.Stat()
	if err != nil {
		return fmt.Errorf("writing review: %w", err)
	}
	named, err := os.Lstat(p)
	if err != nil {
		return fmt.Errorf("writing review: %w", err)
	}
	if !os.SameFile(opened, named) {
		return fmt.Errorf("writing review: %s changed while it was opened", p)
	}
	return nil
}

// Parse reads a reviews file from rd; name is used in messages. A line
// that is not a review is an error, except a torn last line, which is
// passed over with a warning.
func Parse(rd io.Reader, name string) ([]Review, []string, error) {
	var (
		out      []Review
		warnings []string
	)
	br := bufio.NewReader(rd)
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if len(line) == 0 && err == io.EOF {
			break
		}
		if err != nil && err != io.EOF {
			return nil, nil, fmt.Errorf("%s:%d: %w", name, n, err)
		}
		torn := err == io.EOF
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		var r Review
		perr := json.Unmarshal(line, &r)
		if perr == nil {
			perr = r.Check()
		}
		if perr != nil {
			if torn {
				warnings = append(warnings, fmt.Sprintf("%s:%d: torn last line; ignored", name, n))
				break
			}
			return nil, nil, fmt.Errorf("%s:%d: not a review: %v", name, n, perr)
		}
		out = append(out, r)
		if torn {
			break
		}
	}
	return out, warnings, nil
}
