//go:build !unix

package target

import "os/exec"

// detach does nothing where process groups are not available: a server
// sees its stdin close when mcpeval goes.
func detach(cmd *exec.Cmd) {}

// killGroup does nothing where process groups are not available.
func killGroup(pgid int) {}

// watchGroup does nothing where process groups are not available.
func watchGroup(pgid int) (stop func()) { return func() {} }
