package runner

import (
	"context"
	"io"
	"slices"
	"sync"

	"github.com/mcpeval/mcpeval/record"
	"github.com/mcpeval/mcpeval/target"
)

// DefaultTargetPool is how many connections to the target the attempts of a
// shared run use when Config.TargetPool is zero.
const DefaultTargetPool = 2

// Shares reports whether the attempts of a run of cfg share a small pool of
// connections to the target instead of one per concurrency slot: when no
// case is an action case (whose fixtures and checks need a target of their
// own) and the target is not made fresh for every attempt. MCP allows
// concurrent requests on one session, so a read-only suite loses nothing
// by it, and 32 concurrent attempts on a stdio server start 2 processes
// instead of 32.
func Shares(cfg Config) bool {
	if cfg.FreshTarget || cfg.TargetPool < 0 || cfg.Suite == nil {
		return false
	}
	for _, c := range cfg.Suite.Cases {
		if c.Action != nil {
			return false
		}
	}
	return true
}

// pool holds the connections the attempts of a shared run lease. A slot
// holds one session at a time, dialled when first needed; a session that
// failed (its server crashed, hung or broke the protocol) is retired from
// its slot at once, so the next lease dials a replacement, and closed when
// its last lease comes back.
//
// On a target of several servers, a session retired for the servers that
// failed (target.Conn.FailedServers) passes its other servers on: its
// slot's replacement starts the failed servers alone and shares the
// healthy ones' sessions, which keep their state, as they would stay up
// for a real client; the attempts that share connections have no fixtures
// that would want them anew. Only the failed servers are closed when its
// last lease comes back.
type pool struct {
	r     *run
	first *target.Conn // the run's own connection, session 1

	mu      sync.Mutex
	slots   []*session // nil: no live session in the slot
	heirs   []*session // per slot, a session retired for some of its servers, whose others the slot's next session takes
	load    []int      // the leases held on each slot
	started int        // sessions started in the run, for numbering
	dialing []sync.Mutex
}

// session is one connection of the pool.
type session struct {
	conn    *target.Conn
	n       int // from 1 in the order started; recorded on every call
	leases  int
	retired bool
	// partial is set on a session retired for the servers that failed
	// alone: its other servers live on in its slot's next session.
	partial bool
}

// poolSize is how many connections the attempts of a run of cfg share at
// most: 0 when they do not share (Shares), else the pool size asked for
// (DefaultTargetPool when zero), at most one per concurrency slot.
func poolSize(cfg Config) int {
	if !Shares(cfg) {
		return 0
	}
	n := cfg.TargetPool
	if n == 0 {
		n = DefaultTargetPool
	}
	return max(1, min(n, cfg.Concurrency))
}

// newPool returns the pool for the run's attempts, holding first in its
// first slot, or nil when the run does not share (Shares).
func (r *run) newPool(first *target.Conn) *pool {
	if !Shares(r.cfg) {
		return nil
	}
	n := poolSize(r.cfg)
	pl := &pool{r: r, first: first, slots: make([]*session, n), heirs: make([]*session, n), load: make([]int, n), dialing: make([]sync.Mutex, n)}
	if first != nil {
		pl.started = 1
		pl.slots[0] = &session{conn: first, n: 1}
	}
	return pl
}

// pick chooses the least loaded slot for a lease and counts it; among
// slots equally loaded, one with a live session comes first, so a new
// server is started only when every live one is busy.
func (pl *pool) pick() int {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	best := 0
	for i := 1; i < len(pl.slots); i++ {
		switch {
		case pl.load[i] < pl.load[best]:
			best = i
		case pl.load[i] == pl.load[best] && pl.slots[best] == nil && pl.slots[i] != nil:
			best = i
		}
	}
	pl.load[best]++
	return best
}

// lease returns a live session from slot i, dialling one when the slot is
// empty: only the failed servers of the slot's heir when it has one, every
// server otherwise. On a failure to dial it returns a nil session and the
// error.
func (pl *pool) lease(ctx context.Context, i int) (*session, error) {
	pl.dialing[i].Lock() // one dial per slot at a time; the others wait for it
	defer pl.dialing[i].Unlock()
	pl.mu.Lock()
	if s := pl.slots[i]; s != nil {
		s.leases++
		pl.mu.Unlock()
		return s, nil
	}
	heir := pl.heirs[i]
	pl.mu.Unlock()
	var c *target.Conn
	var err error
	if heir != nil {
		c, err = heir.conn.RedialFailed(ctx, pl.r.cfg.Target)
	} else {
		c, err = target.Dial(ctx, pl.r.cfg.Target)
		pl.r.halt.check(err)
	}
	if err != nil {
		return nil, err
	}
	pl.mu.Lock()
	defer pl.mu.Unlock()
	pl.heirs[i] = nil // its healthy servers are c's now
	pl.started++
	s := &session{conn: c, n: pl.started, leases: 1}
	pl.slots[i] = s
	return s, nil
}

// release gives a lease on slot i back. A failed session is retired from
// its slot; the result says whether this was the retired session's last
// lease, so that the caller closes it.
func (pl *pool) release(i int, s *session, failed bool) (last bool) {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	pl.load[i]--
	if s == nil {
		return false
	}
	s.leases--
	if failed && !s.retired {
		s.retired = true
		s.partial = len(s.conn.FailedServers()) > 0
		if pl.slots[i] == s {
			pl.slots[i] = nil
			if s.partial {
				pl.heirs[i] = s
			}
		}
	}
	return s.retired && s.leases == 0
}

// close closes every session still in a slot, and every heir's servers
// that no session took, but the run's own connection, which the run
// closes after its leftovers check.
func (pl *pool) close() {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	for _, s := range slices.Concat(pl.slots, pl.heirs) {
		if s != nil && s.conn != pl.first {
			s.conn.Close()
		}
	}
	clear(pl.slots)
	clear(pl.heirs)
}

// attempt runs attempt p on a leased session. It returns nil for an
// attempt abandoned to an interruption (which is not recorded, so that
// --resume runs it again), as worker.one does.
func (pl *pool) attempt(ctx context.Context, p record.Planned) *record.Attempt {
	i := pl.pick()
	s, dialErr := pl.lease(ctx, i)
	var conn *target.Conn
	if s != nil {
		conn = s.conn
	}
	a := pl.r.attempt(ctx, conn, p)
	failed := a.End == record.EndError && a.Error != nil &&
		(a.Error.Kind == record.KindTarget || a.Error.Kind == record.KindTimeout)
	last := pl.release(i, s, failed && s != nil)
	if ctx.Err() != nil && a.End == record.EndError {
		if last {
			s.closer().Close()
		}
		return nil
	}
	if s == nil {
		if dialErr != nil {
			explainDial(a, dialErr)
		}
		return a
	}
	stampSession(a, s.n)
	switch {
	case failed && last:
		// Its stderr is whole once its servers have exited.
		closeFor(s.closer())
		fallthrough
	case failed:
		// Other attempts may still hold the session; the last of them
		// closes it. Its stderr is this attempt's evidence.
		if st := conn.Stderr(); len(st) > 0 {
			a.Error.Stderr = st
		}
	case last:
		s.closer().Close() // retired by another attempt's failure
	}
	return a
}

// closer is what closes a retired session: the servers that failed alone,
// when the others live on in its slot's next session, else all of it.
func (s *session) closer() io.Closer {
	if s.partial {
		return failedServers{s.conn}
	}
	return s.conn
}

// failedServers closes the servers of a connection to several that
// failed, and them alone.
type failedServers struct{ conn *target.Conn }

func (f failedServers) Close() error { return f.conn.CloseFailed() }

// stampSession records on every call sent to the target the session that
// served it.
func stampSession(a *record.Attempt, n int) {
	for ti := range a.Turns {
		for ci := range a.Turns[ti].Calls {
			c := &a.Turns[ti].Calls[ci]
			if c.Shown && !c.NotSent && c.Rejected != invalidArgs {
				c.Session = n
			}
		}
	}
}

// invalidArgs is the refusal of a call whose arguments are not JSON; such
// a call never reaches the target.
const invalidArgs = "invalid arguments: not valid JSON"
