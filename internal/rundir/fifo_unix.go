//go:build unix

package rundir

import (
	"context"
	"errors"
	"os"
	"syscall"
	"time"
)

// openFIFO opens the named pipe at path for writing once a reader has it
// open. It does not block in open(2) as a plain open does, which no signal
// would end: it tries again until a reader comes or ctx is done. The file
// it returns does not block either, so that a write to a reader that
// stopped reading can be ended too (see writeFIFO).
func openFIFO(ctx context.Context, path string, flag int) (*os.File, error) {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		f, err := os.OpenFile(path, flag|syscall.O_NONBLOCK, 0o644)
		if !errors.Is(err, syscall.ENXIO) { // ENXIO: no reader yet
			return f, err
		}
		select {
		case <-ctx.Done():
			return nil, errors.New("no reader opened the FIFO before mcpeval was stopped")
		case <-tick.C:
		}
	}
}
