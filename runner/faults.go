package runner

import (
	"errors"
	"io"
	"sync"
	"time"

	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/target"
)

// closeWait bounds how long a failed connection is waited for as it
// closes: a stdio server that ignores its closed stdin is sent SIGTERM
// after 2s and SIGKILL after 2s more; an HTTP or builtin server that hangs
// may never let its session close, and is then left to it.
const closeWait = 5 * time.Second

// closeFor closes conn, waiting at most closeWait for a stdio server to
// exit and its stderr to be read to the end.
func closeFor(conn io.Closer) {
	closed := make(chan struct{})
	go func() {
		conn.Close()
		close(closed)
	}()
	t := time.NewTimer(closeWait)
	defer t.Stop()
	select {
	case <-closed:
	case <-t.C:
	}
}

// restart closes a connection whose target failed or hung, so that the
// next attempt starts it anew, and then takes the server's last stderr
// lines again: a stdio server's stderr is whole only once it has exited.
// Closing is safe on the run's first connection too (closing twice is).
func restart(a *record.Attempt, conn *target.Conn) {
	closeFor(conn)
	if s := conn.Stderr(); len(s) > 0 {
		a.Error.Stderr = s
	}
}

// explainDial adds why the target could not be started to an attempt that
// ended for want of it.
func explainDial(a *record.Attempt, err error) {
	if a.Error == nil {
		return
	}
	a.Error.Message += ": " + err.Error()
	var se *target.StderrError
	if errors.As(err, &se) {
		a.Error.Stderr = se.Stderr
	}
}

// capTurn cuts a turn's text, its thinking and the text of its blocks to
// max bytes each, flagging the turn when anything was cut.
func capTurn(rt *record.Turn, max int) {
	cut := func(s *string) {
		if len(*s) > max {
			*s = truncate(*s, max)
			rt.Truncated = true
		}
	}
	cut(&rt.Text)
	cut(&rt.Thinking)
	for i := range rt.Blocks {
		cut(&rt.Blocks[i].Text)
	}
}

// StoppedMoved begins the reason a run ended early (record.End.Reason)
// when its target redirected mcpeval to another origin: the run started no
// further attempt, since each would fail the same way.
const StoppedMoved = "the target redirected to another origin"

// halt is why a run must stop starting attempts, shared by the run's
// copies: a target that redirected mcpeval to another origin has moved,
// and every further attempt would only fail the same way.
type halt struct {
	mu  sync.Mutex
	why string
}

// check records err as the reason to stop when it is a refused redirect.
func (h *halt) check(err error) {
	var re *target.RedirectError
	if !errors.As(err, &re) {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.why == "" {
		h.why = StoppedMoved + ": " + re.Error()
	}
}

// reason returns why the run must stop, or "".
func (h *halt) reason() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.why
}
