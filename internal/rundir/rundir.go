package rundir

import (
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

// The files of a run directory.
const (
	// Record is the run's record, written once by the runner.
	Record = record.FileName
	// Grades is the graded run (grade.Result), question verdicts and
	// action columns together.
	Grades = "grades.json"
	// Actions is the action columns alone (actions.Report), present when
	// the suite graded has action cases.
	Actions = "actions.json"
	// Judge is the advisory judge's opinions, by attempt.
	Judge = "judge.json"
	// Agreement is the judge's measured agreement with people
	// (agreement.Saved), from "mcpeval judge-agreement RUN --save".
	Agreement = "agreement.json"
	// Usage is what the run cost (usage.Summary), for a real model.
	Usage = "usage.json"
	// Reviews is the append-only file of people's verdicts on failed
	// attempts.
	Reviews = "reviews.jsonl"
	// Ladder is a model ladder (ladder.Ladder), in the directory that
	// holds the ladder's runs.
	Ladder = "ladder.json"
)

// Path returns the path of the file name in run directory dir.
func Path(dir, name string) string { return filepath.Join(dir, name) }

// WriteJSON writes v to path as indented JSON ending in a newline,
// atomically (see WriteFile).
func WriteJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding %s: %w", filepath.Base(path), err)
	}
	b = append(b, '\n')
	return WriteFile(path, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}

// WriteFile writes what write writes to path, atomically: into a
// temporary file in path's directory (created if missing), synced to disk,
// then renamed over path. A crash or a failed write leaves the old file,
// or none, never part of a new one; a failed write removes the temporary
// file.
func WriteFile(path string, write func(io.Writer) error) (err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return writeAtomic(path, write)
}

// writeAtomic is WriteFile in a directory that exists.
func writeAtomic(path string, write func(io.Writer) error) (err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			os.Remove(tmp)
		}
	}()
	werr := write(f)
	if werr == nil {
		werr = f.Chmod(0o644)
	}
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return fmt.Errorf("writing %s: %w", path, werr)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	syncDir(dir)
	return nil
}

// syncDir makes a rename in dir durable where the system allows it.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync() // not every system can sync a directory; the rename stands either way
		d.Close()
	}
}

// Remove removes the derived file name from run directory dir, when there
// is one: a file the current grading no longer produces must not outlive
// it.
func Remove(dir, name string) error {
	if err := os.Remove(Path(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("removing stale %s: %w", Path(dir, name), err)
	}
	return nil
}

// Graded reports whether run directory dir holds a grades file, without
// reading it: a grades file ReadGrades cannot read is there all the same.
func Graded(dir string) bool {
	_, err := os.Stat(Path(dir, Grades))
	return !errors.Is(err, fs.ErrNotExist)
}

// ErrNoGrades is returned by ReadGrades for a run that was never graded.
var ErrNoGrades = errors.New("no grades")

// ReadGrades reads the grades last written to run directory dir. A run
// with no grades file returns an error wrapping ErrNoGrades.
func ReadGrades(dir string) (*grade.Result, error) { return EachGrade(dir, nil) }

// EachGrade reads the grades last written to run directory dir as a stream
// (grade.ReadResult): each attempt's grade is handed to each, in the
// file's order, and not kept, and the rest of the graded run is returned
// (its Attempts nil). It is the way to read the grades of a run of any
// size holding only what is shown of its attempts. With each nil it is
// ReadGrades. A run with no grades file returns an error wrapping
// ErrNoGrades; an error of each is returned as it is.
func EachGrade(dir string, each func(*grade.AttemptGrade) error) (*grade.Result, error) {
	p := Path(dir, Grades)
	f, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w", p, ErrNoGrades)
	}
	if err != nil {
		return nil, fmt.Errorf("reading grades: %w", err)
	}
	defer f.Close()
	var eachErr error
	fn := each
	if each != nil {
		fn = func(a *grade.AttemptGrade) error {
			eachErr = each(a)
			return eachErr
		}
	}
	res, err := grade.ReadResult(f, fn)
	if err != nil {
		if eachErr != nil {
			return nil, eachErr
		}
		return nil, fmt.Errorf("%s: %v", p, err)
	}
	return res, nil
}

// WriteGrades writes res to run directory dir's grades file, atomically
// (WriteFile), as WriteJSON would write it, an attempt at a time
// (grade.WriteResult).
func WriteGrades(dir string, res *grade.Result) error {
	return WriteFile(Path(dir, Grades), func(w io.Writer) error { return grade.WriteResult(w, res) })
}
