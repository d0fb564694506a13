package rundir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"time"
)

// LockFile is the lock a process holds on a run directory while it writes
// the directory's record: its PID and when it started, one line.
const LockFile = ".lock"

// ErrLocked is wrapped by Lock's error when another process, still
// running, holds the directory: a second writer would corrupt the record.
var ErrLocked = errors.New("run directory is locked")

// A DirLock is a held lock on a run directory; Unlock releases it.
type DirLock struct {
	f    *os.File
	path string
}

// Lock locks run directory dir against other writers, creating dir when
// it does not exist. The lock is the file LockFile, created exclusively
// and held with flock(2) where the system has it, so that it is released
// when its holder dies however it dies. A lock left by a process that is
// no longer running is stale: it is taken over, and warn (when not nil)
// is told. A lock held by a running process is refused with an error that
// wraps ErrLocked and names the holder's PID.
func Lock(dir string, warn func(string)) (*DirLock, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("locking run directory %s: %w", dir, err)
	}
	p := Path(dir, LockFile)
	for try := 0; ; try++ {
		l, retry, err := lockOnce(p, warn)
		if !retry || try == 50 {
			return l, err
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// lockOnce tries once to take the lock at p; retry says the lock file
// changed under it (created or removed by another process) and the
// attempt should be made again.
func lockOnce(p string, warn func(string)) (l *DirLock, retry bool, err error) {
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	created := err == nil
	if errors.Is(err, fs.ErrExist) {
		f, err = os.OpenFile(p, os.O_RDWR, 0o644)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, true, nil // released meanwhile
		}
	}
	if err != nil {
		return nil, false, fmt.Errorf("locking %s: %w", p, err)
	}
	fail := func(retry bool, err error) (*DirLock, bool, error) {
		f.Close()
		return nil, retry, err
	}
	held, err := flock(f)
	if err != nil {
		return fail(false, fmt.Errorf("locking %s: %w", p, err))
	}
	if !held {
		pid, since := readHolder(p)
		return fail(false, fmt.Errorf("%w: process %d has held %s since %s and is writing it; wait for it to finish, or stop it (if no such process runs, remove %s)", ErrLocked, pid, p, since, p))
	}
	// The lock is ours unless the file was removed or replaced meanwhile.
	if same, err := sameFile(f, p); err != nil || !same {
		return fail(true, nil)
	}
	if !created {
		pid, since := readHolder(p)
		switch {
		case pid == 0 && since == "":
			// Just created by a process that has not yet flocked or
			// written it: give it the time to.
			return fail(true, nil)
		case pid != os.Getpid() && alive(pid):
			if !flockWorks {
				return fail(false, fmt.Errorf("%w: process %d has held %s since %s and is writing it; wait for it to finish, or stop it (if no such process runs, remove %s)", ErrLocked, pid, p, since, p))
			}
		}
		if warn != nil {
			warn(fmt.Sprintf("taking over the stale lock %s of process %d (started %s), which no longer runs", p, pid, since))
		}
	}
	line := fmt.Sprintf("%d %s\n", os.Getpid(), time.Now().UTC().Format(time.RFC3339))
	err = f.Truncate(0)
	if err == nil {
		_, err = f.WriteAt([]byte(line), 0)
	}
	if err == nil {
		err = f.Sync()
	}
	if err != nil {
		os.Remove(p)
		return fail(false, fmt.Errorf("locking %s: %w", p, err))
	}
	return &DirLock{f: f, path: p}, false, nil
}

// Unlock releases the lock and removes its file.
func (l *DirLock) Unlock() error {
	if l == nil || l.f == nil {
		return nil
	}
	// Removed while still held, so that no process can lock the old file
	// after it is closed and before it is gone.
	err := os.Remove(l.path)
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	l.f = nil
	if err != nil {
		return fmt.Errorf("unlocking %s: %w", l.path, err)
	}
	return nil
}

// readHolder reads the PID and start time a lock file holds (0 and ""
// when it holds none).
func readHolder(p string) (int, string) {
	b, err := os.ReadFile(p)
	if err != nil {
		return 0, ""
	}
	fields := strings.Fields(string(b))
	if len(fields) < 2 {
		return 0, ""
	}
	pid, _ := strconv.Atoi(fields[0])
	return pid, fields[1]
}

// sameFile reports whether the open file f is still the file at path p.
func sameFile(f *os.File, p string) (bool, error) {
	a, err := f.Stat()
	if err != nil {
		return false, err
	}
	b, err := os.Stat(p)
	if err != nil {
		return false, err
	}
	return os.SameFile(a, b), nil
}
