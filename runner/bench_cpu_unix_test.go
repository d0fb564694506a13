//go:build unix

package runner

import (
	"syscall"
	"time"
)

// processCPU is the CPU time this process has used so far, user and
// system, its garbage collector's included; ok is false where it cannot be
// read.
func processCPU() (d time.Duration, ok bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
