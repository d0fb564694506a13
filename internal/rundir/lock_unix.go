//go:build unix

package rundir

import (
	"errors"
	"os"
	"syscall"
)

// flockWorks says that flock releases a dead holder's lock, so a lock
// file that can be flocked is not held.
const flockWorks = true

// flock takes an exclusive flock on f without waiting; held is false when
// another open file holds it.
func flock(f *os.File) (held bool, err error) {
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}

// alive reports whether process pid runs.
func alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
