package runner

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/mcpeval/mcpeval/model"
)

// control is the adaptive concurrency's controller: how many model
// requests may be in flight, between 1 and Max. It is additive increase,
// multiplicative decrease: a refusal for the rate limit halves Limit; a
// round of Limit answers with headroom left raises it by one, up to Max;
// an answer near the limit holds it. It is a pure value: next returns the
// controller after one observation.
type control struct {
	Limit, Max int
	ok         int // answers with headroom since Limit last changed
}

// observation is what one answer (or refusal) said of the rate limits.
type observation struct {
	// Throttled is true when the provider refused a try for its rate limit
	// (429) before answering, or in the end.
	Throttled bool
	// Headroom is how many more requests the window allows before its
	// reset, as far as the rate-limit headers say, counting those sent
	// since; -1 when they say nothing.
	Headroom int
}

func (c control) next(o observation) control {
	switch {
	case o.Throttled:
		c.Limit, c.ok = max(1, c.Limit/2), 0
	case o.Headroom >= 0 && o.Headroom < 2*c.Limit:
		c.ok = 0 // near the limit: hold
	default:
		c.ok++
		if c.ok >= c.Limit && c.Limit < c.Max {
			c.Limit, c.ok = c.Limit+1, 0
		}
	}
	return c
}

// window is what is left of one rate-limit window, as far as the answers
// so far say: the least any of them said was left, which counts every
// request answered so far. The requests still in flight may or may not be
// counted in it; they are taken out again (pending), which errs on the
// safe side only until they are answered.
type window struct {
	known bool
	left  float64   // requests (or tokens) left, the least said
	reset time.Time // when the window is full again
}

// observe takes what an answer said of the window.
func (w *window) observe(left int64, reset time.Time) {
	switch {
	case !w.known || reset.After(w.reset.Add(time.Millisecond)): // a later window
		w.known, w.left, w.reset = true, float64(left), reset
	case reset.Before(w.reset.Add(-time.Millisecond)): // an earlier window's straggler
	default:
		w.left = min(w.left, float64(left))
	}
}

// room returns how much is left at now once pending is taken out, and the
// window's reset; ok is false when nothing is known of the window (it was
// never described, or it has been refilled since).
func (w *window) room(now time.Time, pending float64) (left float64, reset time.Time, ok bool) {
	if !w.known {
		return 0, time.Time{}, false
	}
	if !now.Before(w.reset) {
		w.known = false // refilled: the next answer says how much
		return 0, time.Time{}, false
	}
	return w.left - pending, w.reset, true
}

// adaptive is a model whose requests in flight follow the provider's rate
// limits: a request waits while control's limit is reached, or while the
// window of requests (or of tokens) the headers described is spent, until
// it resets. It is safe for concurrent use.
type adaptive struct {
	m   model.Model
	now func() time.Time

	mu       sync.Mutex
	changed  chan struct{} // closed when a request ends and some wait
	waiting  int
	ctl      control
	inflight int
	sent     int64
	reqs     window
	toks     window
	perReq   float64 // tokens a request takes, on average
	lowest   int     // the lowest limit reached
	throttle int     // refusals for the rate limit seen
	cut      int64   // requests up to this one were sent before the last decrease
}

// newAdaptive wraps m; at most max requests are ever in flight.
func newAdaptive(m model.Model, max int) *adaptive {
	return &adaptive{m: m, now: time.Now, changed: make(chan struct{}), ctl: control{Limit: max, Max: max}, lowest: max}
}

// Generate waits for room under the limits, then asks the model.
func (g *adaptive) Generate(ctx context.Context, req *model.Request) (*model.Response, error) {
	seq, err := g.acquire(ctx)
	if err != nil {
		return nil, err
	}
	resp, err := g.m.Generate(ctx, req)
	g.release(seq, resp, err)
	return resp, err
}

func (g *adaptive) acquire(ctx context.Context) (int64, error) {
	for {
		g.mu.Lock()
		now := g.now()
		var until time.Time
		shut := false
		if left, reset, ok := g.reqs.room(now, float64(g.inflight)); ok && left < 1 {
			shut, until = true, reset
		}
		if left, reset, ok := g.toks.room(now, float64(g.inflight)*g.perReq); ok && left < g.perReq {
			shut, until = true, later(until, reset)
		}
		if g.inflight < g.ctl.Limit && !shut {
			g.inflight++
			g.sent++
			seq := g.sent
			g.mu.Unlock()
			return seq, nil
		}
		changed := g.changed
		g.waiting++
		g.mu.Unlock()
		var timer *time.Timer
		var fired <-chan time.Time
		if !until.IsZero() {
			timer = time.NewTimer(until.Sub(now))
			fired = timer.C
		}
		select {
		case <-ctx.Done():
		case <-changed:
		case <-fired:
		}
		if timer != nil {
			timer.Stop()
		}
		g.mu.Lock()
		g.waiting--
		g.mu.Unlock()
		if ctx.Err() != nil {
			return 0, ctx.Err()
		}
	}
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func (g *adaptive) release(seq int64, resp *model.Response, err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.inflight--
	if g.waiting > 0 {
		close(g.changed)
		g.changed = make(chan struct{})
	}
	o := observation{Headroom: -1}
	var tries []model.Try
	if resp != nil {
		tries = resp.Tries
	}
	if err != nil { // errors.As's target would escape for every answer
		var pe *model.ProviderError
		if errors.As(err, &pe) {
			tries = pe.Tries
		}
	}
	for _, t := range tries {
		if t.Status == http.StatusTooManyRequests {
			g.throttle++
			// The window is spent, whatever the headers said; and one
			// decrease answers every refusal of the requests already in
			// flight when it was made.
			g.reqs.left, g.toks.left = 0, 0
			if seq > g.cut {
				o.Throttled = true
				g.cut = g.sent
			}
		}
	}
	if resp != nil {
		u := resp.Usage
		if cost := float64(u.Input + u.CacheWrite + u.Output); cost > 0 {
			if g.perReq == 0 {
				g.perReq = cost
			}
			g.perReq = 0.8*g.perReq + 0.2*cost
		}
		if rl := resp.RateLimit; rl != nil {
			now := g.now()
			if rl.Requests > 0 {
				g.reqs.observe(rl.RequestsLeft, rl.RequestsReset)
				if left, _, ok := g.reqs.room(now, float64(g.inflight)); ok {
					o.Headroom = max(0, int(left))
				}
			}
			if rl.Tokens > 0 && g.perReq > 0 {
				g.toks.observe(rl.TokensLeft, rl.TokensReset)
				if left, _, ok := g.toks.room(now, float64(g.inflight)*g.perReq); ok {
					if h := max(0, int(left/g.perReq)); o.Headroom < 0 || h < o.Headroom {
						o.Headroom = h
					}
				}
			}
		}
	}
	g.ctl = g.ctl.next(o)
	g.lowest = min(g.lowest, g.ctl.Limit)
}

// rateWarnings says, for the record's end, how often the provider refused
// a request for its rate limit and how far the requests in flight came
// down; nothing when it never did.
func (r *run) rateWarnings() []string {
	g, ok := r.cfg.Model.(*adaptive)
	if !ok {
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.throttle == 0 {
		return nil
	}
	return []string{fmt.Sprintf("the provider refused %d model requests for its rate limit (each was tried again after the wait it asked for); requests in flight came down to %d of --concurrency %d",
		g.throttle, g.lowest, g.ctl.Max)}
}
