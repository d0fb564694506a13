//go:build unix

package target

import "syscall"

// killGroup kills every process left in the process group a stdio server
// led (detach made its pid the group's id): the children a wrapper
// started, and a server that ignored SIGTERM.
func killGroup(pgid int) {
	if pgid > 0 {
		syscall.Kill(-pgid, syscall.SIGKILL)
	}
}
