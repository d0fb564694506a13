//go:build !unix

package rundir

import (
	"context"
	"os"
)

// openFIFO opens the named pipe at path for writing.
func openFIFO(ctx context.Context, path string, flag int) (*os.File, error) {
	return os.OpenFile(path, flag, 0o644)
}
