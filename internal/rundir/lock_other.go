//go:build !unix

package rundir

import "os"

// flockWorks says that this system has no flock here: the lock file and
// its holder's PID are the whole lock.
const flockWorks = false

func flock(*os.File) (bool, error) { return true, nil }

// alive cannot tell here whether a process runs, so every holder is
// taken to: a stale lock is removed by hand.
func alive(pid int) bool { return pid > 0 }
