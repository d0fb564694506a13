package runner

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"sync"
	"time"

	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/target"
)

// attempts runs the planned attempts on at most cfg.Concurrency workers,
// and never more workers than attempts, and says how the run ended. The
// first worker uses first, the run's connection; the others dial their
// own.
func (r *run) attempts(ctx context.Context, first *target.Conn, planned []record.Planned) *record.End {
	cfg := r.cfg
	workers := max(1, min(cfg.Concurrency, len(planned)))
	t := &tally{total: len(planned), skipped: map[string]int{}, slots: make(chan struct{}, workers)}
	jobs := make(chan record.Planned)
	var wg sync.WaitGroup
	pl := r.newPool(first) // nil unless the attempts share connections
	for i := 0; i < workers; i++ {
		w := &worker{r: r, t: t, first: first, pool: pl}
		if i == 0 && pl == nil {
			w.conn = first
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.work(ctx, jobs)
		}()
	}
	before := func() string {
		if why := r.halt.reason(); why != "" {
			return why
		}
		if cfg.BeforeAttempt != nil {
			return cfg.BeforeAttempt()
		}
		return ""
	}
	stopReason := t.hand(ctx, planned, jobs, before)
	close(jobs)
	wg.Wait()
	if pl != nil {
		pl.close()
	}
	if ctx.Err() != nil {
		stopReason = "interrupted"
	}
	e := t.end(cfg.Now(), stopReason)
	if why := r.halt.reason(); why != "" {
		// Even when the attempt that met it was the last one: a run whose
		// target moved under it is not a complete measure of the target.
		e.Complete = false
		if e.Reason == "" {
			e.Reason = why
		}
	}
	return e
}

// end says how the run ended at now, for reason (or a failed write's):
// complete when nothing was skipped and every write succeeded.
func (t *tally) end(now time.Time, reason string) *record.End {
	e := &record.End{Finish: now.UTC(), Complete: len(t.skipped) == 0 && t.writeErr == nil, Reason: reason}
	if len(t.skipped) > 0 {
		e.Skipped = t.skipped
	}
	if t.writeErr != nil {
		e.Reason = t.writeErr.Error()
	}
	return e
}

// tally is what the workers of a run share: the attempts done and
// skipped, the first failure to write the record, and the slots that bound
// the attempts started but not yet recorded, so that BeforeAttempt (a
// budget) sees every earlier attempt's spending except those still in
// flight.
type tally struct {
	total int
	slots chan struct{}

	mu       sync.Mutex
	done     int
	skipped  map[string]int
	writeErr error
}

// hand gives the planned attempts to the workers one by one, each once a
// slot is free, and stops at an interruption, a refusal by before, or a
// failed write. It returns why it stopped early, or "".
func (t *tally) hand(ctx context.Context, planned []record.Planned, jobs chan<- record.Planned, before func() string) string {
	for i, p := range planned {
		select {
		case t.slots <- struct{}{}: // a worker is free, or will be
		case <-ctx.Done():
		}
		why := ""
		switch {
		case ctx.Err() != nil:
			why = "interrupted"
		case before != nil:
			why = before()
		}
		if why == "" && t.writeFailed() {
			why = "record write failed"
		}
		if why != "" {
			t.skip(why, len(planned)-i)
			return why
		}
		jobs <- p // a slot is held, so a worker takes it
	}
	return ""
}

func (t *tally) skip(why string, n int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.skipped[why] += n
}

func (t *tally) writeFailed() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.writeErr != nil
}

// recorded counts an attempt written (err nil) or not, and reports
// progress.
func (t *tally) recorded(a *record.Attempt, err error, progress func(Progress), h *record.Header) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err != nil && t.writeErr == nil {
		t.writeErr = err
	}
	t.done++
	if progress != nil {
		progress(Progress{Done: t.done, Total: t.total, Attempt: a, Header: h})
	}
}

// worker runs attempts one after another over its own connection to the
// target, dialling it again when it is missing: for a fresh target on
// every attempt, or after the target failed.
type worker struct {
	r     *run
	t     *tally
	first *target.Conn // the run's connection: never closed here but after a failure
	conn  *target.Conn // nil when there is none yet
	pool  *pool        // set when the attempts share connections
}

// work runs the attempts it is given until jobs is closed.
func (w *worker) work(ctx context.Context, jobs <-chan record.Planned) {
	defer func() {
		if w.conn != nil && w.conn != w.first {
			w.conn.Close()
		}
	}()
	for p := range jobs {
		w.one(ctx, p)
		<-w.t.slots
	}
}

// one runs, scrubs and records one attempt. An attempt that failed while
// the run is being interrupted is abandoned instead: the error may be the
// interruption's doing (a stdio server gets the terminal's Ctrl-C too), so
// it is not recorded and --resume runs it again.
func (w *worker) one(ctx context.Context, p record.Planned) {
	if w.pool != nil {
		if a := w.pool.attempt(ctx, p); a != nil {
			w.keep(a)
		} else {
			w.t.skip("interrupted", 1)
		}
		return
	}
	dialErr := w.connect(ctx)
	a := w.r.attempt(ctx, w.conn, p)
	if ctx.Err() != nil && a.End == record.EndError {
		w.t.skip("interrupted", 1)
		return
	}
	if w.conn == nil && dialErr != nil {
		explainDial(a, dialErr)
	}
	if a.End == record.EndError && (a.Error.Kind == record.KindTarget || a.Error.Kind == record.KindTimeout) && w.conn != nil {
		restart(a, w.conn)
		w.conn = nil // restart the server for the next attempt
	}
	w.keep(a)
}

// keep scrubs and records a finished attempt.
func (w *worker) keep(a *record.Attempt) {
	cfg := w.r.cfg
	if cfg.AfterAttempt != nil {
		cfg.AfterAttempt(a)
	}
	w.r.scrub.attempt(a)
	w.t.recorded(a, w.r.w.Attempt(a), cfg.Progress, w.r.header)
}

// connect drops the connection when every attempt gets a fresh target,
// and dials one when there is none.
func (w *worker) connect(ctx context.Context) error {
	if w.r.cfg.FreshTarget && w.conn != nil {
		if w.conn != w.first {
			w.conn.Close()
		}
		w.conn = nil
	}
	if w.conn != nil {
		return nil
	}
	c, err := target.Dial(ctx, w.r.cfg.Target)
	w.r.halt.check(err)
	if err == nil {
		w.conn = c
	}
	return err
}

// attempt puts case p to the model over conn (nil when the target could
// not be started): it builds the case's fixtures, when it has any, holds
// the conversation (conversation.go) until it ends, and tears the fixtures
// down. It returns the attempt's record.
func (r *run) attempt(ctx context.Context, conn *target.Conn, p record.Planned) *record.Attempt {
	cfg := r.cfg
	c := cfg.Suite.Case(p.Case)
	r = r.forCase(c) // only the tools this case is shown
	start := cfg.Now()
	a := &record.Attempt{Case: p.Case, N: p.N, Prompt: c.Prompt, Start: start.UTC()}
	defer func() { a.DurationMS = cfg.Now().Sub(start).Milliseconds() }()
	if conn == nil {
		return endInError(a, record.KindTarget, "the target could not be started for this attempt", nil)
	}
	turnCap := cfg.TurnCap
	if cfg.Fixtures != nil && c.Action != nil {
		prompt, f, err := cfg.Fixtures.Setup(ctx, conn, c, newToken())
		a.Fixture = f
		if err != nil {
			return endInError(a, record.KindFixture, err.Error(), conn.Stderr())
		}
		defer func() { cfg.Fixtures.Finish(context.WithoutCancel(ctx), conn, c, f, a) }()
		a.Prompt = prompt
		turnCap = cfg.Suite.ActionTurnCap(c)
		if sf := cfg.Surface; sf != nil && sf.TurnCap > 0 {
			turnCap = sf.TurnCap // a surface's cap holds for its action cases too
		}
	}
	r.newConversation(conn, c, a).converse(ctx, turnCap)
	return a
}

// newToken returns a fresh token for fixture names: 6 lowercase hex digits.
func newToken() string {
	var b [3]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
