package rundir

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// ErrBadOutput is wrapped by the errors of WriteOutput and AppendOutput
// that are the named path's fault (a directory, a missing folder): bad
// input, not a failure.
var ErrBadOutput = errors.New("bad output path")

// WriteOutput writes what write writes to the file a user named: "-", or
// the file stdout is (/dev/stdout), is stdout (nil: os.Stdout); a device,
// a FIFO or a socket (/dev/null, a named pipe) is written through, never
// replaced; a regular file, or a new one,
// is written atomically as WriteFile does (through a symbolic link, the
// file it names). A directory is refused, and so is a path whose folder
// does not exist: no folder is created that the user did not make, and so
// is a file of a run directory (CheckOutput).
//
// A FIFO is written once a reader opens it; when ctx is done first, or
// while a write waits on a reader that stopped reading, the write ends
// with an error: a signal ends the command, which a blocked open(2) would
// outlive.
func WriteOutput(ctx context.Context, path string, stdout io.Writer, write func(io.Writer) error) error {
	if path == "-" {
		return toStdout(stdout, write)
	}
	real, st, err := outputTarget(path)
	if err != nil {
		return err
	}
	if isStdout(st) {
		return toStdout(stdout, write)
	}
	if st != nil && st.Mode()&fs.ModeNamedPipe != 0 {
		return writeFIFO(ctx, path, os.O_WRONLY, write)
	}
	if st != nil && !st.Mode().IsRegular() || throughDevice(path) {
		return writeThrough(path, os.O_WRONLY, write)
	}
	return writeAtomic(real, write)
}

// AppendOutput appends what write writes to the file a user named,
// creating a regular file when there is none (as GitHub's
// $GITHUB_STEP_SUMMARY expects); "-" is stdout. Like WriteOutput it refuses
// a directory and a missing folder, and it writes to a FIFO as WriteOutput
// does.
func AppendOutput(ctx context.Context, path string, stdout io.Writer, write func(io.Writer) error) error {
	if path == "-" {
		return toStdout(stdout, write)
	}
	_, st, err := outputTarget(path)
	if err != nil {
		return err
	}
	if isStdout(st) {
		return toStdout(stdout, write)
	}
	if st != nil && st.Mode()&fs.ModeNamedPipe != 0 {
		return writeFIFO(ctx, path, os.O_WRONLY|os.O_APPEND, write)
	}
	return writeThrough(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, write)
}

// toStdout writes to stdout (nil: os.Stdout).
func toStdout(stdout io.Writer, write func(io.Writer) error) error {
	if stdout == nil {
		stdout = os.Stdout
	}
	if err := write(stdout); err != nil {
		return fmt.Errorf("writing to stdout: %w", err)
	}
	return nil
}

// readBack are the files of a run directory that mcpeval reads back: an
// output written over one of them would break every later command on the
// run.
var readBack = []string{Record, Grades, Actions, Judge, Agreement, Usage, Reviews, Ladder, LockFile}

// CheckOutput refuses a path a user named for output that is, or leads
// through symbolic links to, a file of a run directory that mcpeval reads
// (record.jsonl, reviews.jsonl, grades.json...), wherever it stands: its
// error wraps ErrBadOutput. WriteOutput and AppendOutput check every path
// with it; a command checks its output flags with it too, before it
// starts any work.
func CheckOutput(path string) error {
	if path == "-" {
		return nil
	}
	p := path
	for range 40 { // as many links as a system follows
		if name := filepath.Base(p); slices.Contains(readBack, name) {
			return fmt.Errorf("writing %s: %w: %s is a file of a run directory, which mcpeval reads back (name the output otherwise)", path, ErrBadOutput, name)
		}
		st, err := os.Lstat(p)
		if err != nil || st.Mode()&fs.ModeSymlink == 0 {
			return nil
		}
		to, err := os.Readlink(p)
		if err != nil {
			return nil
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(filepath.Dir(p), to)
		}
		p = to
	}
	return nil
}

// outputTarget checks the path a user named for output and returns the
// file a write replaces (the path with its symbolic links resolved) and
// what stands there now (nil: nothing yet).
func outputTarget(path string) (string, fs.FileInfo, error) {
	if path == "" {
		return "", nil, fmt.Errorf("writing output: %w: an empty path", ErrBadOutput)
	}
	if err := CheckOutput(path); err != nil {
		return "", nil, err
	}
	st, err := os.Stat(path)
	switch {
	case err == nil && st.IsDir():
		return "", nil, fmt.Errorf("writing %s: %w: it is a directory (name a file in it)", path, ErrBadOutput)
	case err == nil:
		real, rerr := filepath.EvalSymlinks(path)
		if rerr != nil {
			real = path
		}
		return real, st, nil
	case !errors.Is(err, fs.ErrNotExist):
		return "", nil, fmt.Errorf("writing %s: %w", path, err)
	}
	// Nothing there yet (or a dangling link, which is replaced): its folder
	// must exist.
	dir := filepath.Dir(path)
	dst, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", nil, fmt.Errorf("writing %s: %w: the folder %s does not exist (create it first)", path, ErrBadOutput, dir)
	case err != nil:
		return "", nil, fmt.Errorf("writing %s: %w", path, err)
	case !dst.IsDir():
		return "", nil, fmt.Errorf("writing %s: %w: %s is not a folder", path, ErrBadOutput, dir)
	}
	return path, nil, nil
}

// isStdout reports whether st is the file this process's stdout is
// (/dev/stdout, /proc/self/fd/1, or the file the shell redirected it to):
// a new descriptor would write over what stdout wrote before, so the
// output goes to stdout itself.
func isStdout(st fs.FileInfo) bool {
	if st == nil {
		return false
	}
	out, err := os.Stdout.Stat()
	return err == nil && os.SameFile(st, out)
}

// throughDevice reports whether path names a file of the system's device
// trees: /dev/stdout resolves to the file the shell redirected stdout to,
// which must be written through its open descriptor, not replaced.
func throughDevice(path string) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	return strings.HasPrefix(abs, "/dev/") || strings.HasPrefix(abs, "/proc/")
}

// writeFIFO writes to the named pipe at path once a reader opens it
// (openFIFO). When ctx is done while a write waits on the reader, the
// write ends with an error.
func writeFIFO(ctx context.Context, path string, flag int, write func(io.Writer) error) error {
	f, err := openFIFO(ctx, path, flag)
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if ctx.Err() == nil { // once stopped, a reader already there is still written to
		stop := context.AfterFunc(ctx, func() { f.SetWriteDeadline(time.Now()) })
		defer stop()
	}
	werr := write(f)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if errors.Is(werr, os.ErrDeadlineExceeded) {
		werr = errors.New("its reader stopped reading before mcpeval was stopped")
	}
	if werr != nil {
		return fmt.Errorf("writing %s: %w", path, werr)
	}
	return nil
}

// writeThrough opens path with flag and writes to it in place.
func writeThrough(path string, flag int, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, flag, 0o644)
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	werr := write(f)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return fmt.Errorf("writing %s: %w", path, werr)
	}
	return nil
}
