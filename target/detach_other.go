//go:build !unix

package target

import "os/exec"

// detach does nothing where process groups are not available.
func detach(cmd *exec.Cmd) {}
