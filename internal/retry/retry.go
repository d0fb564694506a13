package retry

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/mcpeval/mcpeval/model"
)

// Policy says how often and how patiently a refused request is sent again.
// The zero Policy is usable: 4 tries, backoff from 1s doubling up to 60s.
type Policy struct {
	// MaxTries is the most requests sent for one turn, the first included;
	// zero means 4, and 1 means never try again.
	MaxTries int
	// Base is the first backoff wait; zero means 1s. Each further wait
	// doubles, with jitter.
	Base time.Duration
	// Max caps a backoff wait; zero means 60s. A retry-after the provider asks
	// for is honoured as given, but one longer than Max ends the attempt
	// instead of stalling the run.
	Max time.Duration
	// Sleep waits d or until ctx is done, returning ctx's error then; nil
	// means a real timer. Tests inject one that returns at once.
	Sleep func(ctx context.Context, d time.Duration) error
}

func (p Policy) tries() int {
	if p.MaxTries <= 0 {
		return 4
	}
	return p.MaxTries
}

func (p Policy) base() time.Duration {
	if p.Base <= 0 {
		return time.Second
	}
	return p.Base
}

func (p Policy) max() time.Duration {
	if p.Max <= 0 {
		return 60 * time.Second
	}
	return p.Max
}

func (p Policy) sleep(ctx context.Context, d time.Duration) error {
	if p.Sleep != nil {
		return p.Sleep(ctx, d)
	}
	return Sleep(ctx, d)
}

// Sleep waits d, or until ctx is done and returns its error.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Backoff returns the wait before try n+1 after n refused tries (n >= 1):
// Base doubled n-1 times, capped at Max, of which a random upper half is
// kept (so waits spread out but never drop below half the step).
func (p Policy) Backoff(n int) time.Duration {
	d := p.base()
	for i := 1; i < n && d < p.max(); i++ {
		d *= 2
	}
	d = min(d, p.max())
	half := d / 2
	return half + rand.N(d-half+1)
}

// Refusal is a try the provider refused, or that failed on the way. Its
// Message never holds a secret: build it with HTTP, Transport or Exchange,
// or pass it through Redact.
type Refusal struct {
	// Status is the HTTP status, or 0 when no answer came.
	Status int
	// Message says what the provider answered, short and redacted.
	Message string
	// RetryAfter is the wait the provider asked for, zero when it did not.
	RetryAfter time.Duration
	// RetryAfterSet is true when the provider asked for a wait, even a
	// zero one; otherwise the policy's backoff applies.
	RetryAfterSet bool
	// Again reports whether sending the request again may help.
	Again bool
}

// Error returns the refusal as text: the status, if any, and the message.
func (r *Refusal) Error() string {
	if r.Status == 0 {
		return r.Message
	}
	return fmt.Sprintf("status %d: %s", r.Status, r.Message)
}

// Again reports whether a provider answering status is worth asking again:
// a request timeout (408), a rate limit (429), an overload (529) or any other
// server error (5xx).
func Again(status int) bool {
	return status == 408 || status == 429 || status >= 500
}

// Do calls try until it succeeds, returns an error that is not worth another
// try, or MaxTries are spent. try gets ctx and must report a refusal as a
// *Refusal; any other error ends the attempt at once and is recorded by its
// text, so it must hold no secret.
//
// Do returns try's value and the refused tries that came before it. When it
// gives up it returns a *model.ProviderError listing every refused try, the
// last included. When ctx ends first it returns ctx's error, wrapped, with the
// tries made so far.
func Do[T any](ctx context.Context, p Policy, try func(context.Context) (T, error)) (T, []model.Try, error) {
	var (
		zero  T
		tries []model.Try
	)
	for n := 1; ; n++ {
		v, err := try(ctx)
		if err == nil {
			return v, tries, nil
		}
		if ctx.Err() != nil {
			return zero, tries, fmt.Errorf("asking the provider: %w", ctx.Err())
		}
		var r *Refusal
		if !errors.As(err, &r) {
			r = &Refusal{Message: Short(err.Error(), 300)}
		}
		t := model.Try{Status: r.Status, Error: r.Message}
		if !r.Again || n >= p.tries() || r.RetryAfter > p.max() {
			tries = append(tries, t)
			return zero, tries, &model.ProviderError{Tries: tries, Err: r}
		}
		wait := r.RetryAfter
		if !r.RetryAfterSet && wait <= 0 {
			wait = p.Backoff(n)
		}
		t.WaitMS = wait.Milliseconds()
		tries = append(tries, t)
		if err := p.sleep(ctx, wait); err != nil {
			return zero, tries, fmt.Errorf("waiting to ask the provider again: %w", err)
		}
	}
}
