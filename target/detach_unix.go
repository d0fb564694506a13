//go:build unix && !linux

package target

import (
	"os/exec"
	"syscall"
)

// detach starts a stdio server in its own process group, so that the
// terminal's Ctrl-C reaches mcpeval alone: mcpeval then stops starting
// attempts and closes its servers itself, rather than watching them die
// under attempts in flight. Should mcpeval itself be killed, the server
// sees its stdin close.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// watchGroup does nothing here: only Linux kills a server with mcpeval.
func watchGroup(pgid int) (stop func()) { return func() {} }
