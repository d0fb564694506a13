package retry

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpeval/mcpeval/model"
)

// waits records every wait Do asks for, without waiting.
type waits []time.Duration

func (w *waits) sleep(ctx context.Context, d time.Duration) error {
	*w = append(*w, d)
	return ctx.Err()
}

func TestDoSucceedsAfterRefusals(t *testing.T) {
	var w waits
	p := Policy{MaxTries: 4, Base: time.Second, Max: 8 * time.Second, Sleep: w.sleep}
	n := 0
	v, tries, err := Do(context.Background(), p, func(context.Context) (string, error) {
		n++
		switch n {
		case 1:
			return "", &Refusal{Status: 429, Message: "rate_limit_error: slow down", RetryAfter: 3 * time.Second, Again: true}
		case 2:
			return "", &Refusal{Status: 529, Message: "overloaded_error: Overloaded", Again: true}
		}
		return "ok", nil
	})
	if err != nil || v != "ok" {
		t.Fatalf("Do = %q, %v; want ok, nil", v, err)
	}
	if len(w) != 2 || w[0] != 3*time.Second {
		t.Fatalf("waits = %v, want [3s, backoff]", w)
	}
	if w[1] < time.Second || w[1] > 2*time.Second {
		t.Errorf("backoff after the second refusal = %v, want within [1s, 2s]", w[1])
	}
	want := []model.Try{
		{Status: 429, Error: "rate_limit_error: slow down", WaitMS: 3000},
		{Status: 529, Error: "overloaded_error: Overloaded", WaitMS: w[1].Milliseconds()},
	}
	if d := cmp.Diff(want, tries); d != "" {
		t.Errorf("tries (-want +got):\n%s", d)
	}
}

func TestDoGivesUpAfterMaxTries(t *testing.T) {
	var w waits
	p := Policy{MaxTries: 3, Sleep: w.sleep}
	calls := 0
	_, tries, err := Do(context.Background(), p, func(context.Context) (int, error) {
		calls++
		return 0, &Refusal{Status: 500, Message: "api_error: boom", Again: true}
	})
	var pe *model.ProviderError
	if !errors.As(err, &pe) {
		t.Fatalf("err = %v, want a *model.ProviderError", err)
	}
	if calls != 3 || len(tries) != 3 || len(pe.Tries) != 3 || len(w) != 2 {
		t.Fatalf("calls %d, tries %d, error tries %d, waits %d; want 3, 3, 3, 2", calls, len(tries), len(pe.Tries), len(w))
	}
	if tries[2].WaitMS != 0 {
		t.Errorf("the last try waited %dms, want 0", tries[2].WaitMS)
	}
}

func TestDoStopsAtOnce(t *testing.T) {
	for _, r := range []error{
		&Refusal{Status: 401, Message: "authentication_error: invalid x-api-key"},
		&Refusal{Status: 429, Message: "quota", RetryAfter: time.Hour, Again: true},
		errors.New("something else"),
	} {
		calls := 0
		_, tries, err := Do(context.Background(), Policy{Sleep: func(context.Context, time.Duration) error {
			t.Fatal("slept")
			return nil
		}}, func(context.Context) (int, error) {
			calls++
			return 0, r
		})
		if !model.IsProviderError(err) || calls != 1 || len(tries) != 1 {
			t.Errorf("%v: err %v, calls %d, tries %d; want a provider error after 1 call", r, err, calls, len(tries))
		}
	}
}

func TestDoHonoursContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	_, _, err := Do(ctx, Policy{}, func(context.Context) (int, error) {
		cancel()
		return 0, &Refusal{Status: 500, Again: true}
	})
	if !errors.Is(err, context.Canceled) || model.IsProviderError(err) {
		t.Fatalf("err = %v, want context.Canceled and no provider error", err)
	}
}

func TestBackoffGrowsAndCaps(t *testing.T) {
	p := Policy{Base: time.Second, Max: 10 * time.Second}
	for n, hi := range map[int]time.Duration{1: time.Second, 2: 2 * time.Second, 3: 4 * time.Second, 4: 8 * time.Second, 5: 10 * time.Second, 40: 10 * time.Second} {
		for range 50 {
			d := p.Backoff(n)
			if d < hi/2 || d > hi {
				t.Fatalf("Backoff(%d) = %v, want within [%v, %v]", n, d, hi/2, hi)
			}
		}
	}
}

func TestHTTP(t *testing.T) {
	h := http.Header{}
	h.Set("Retry-After", "7")
	for _, c := range []struct {
		status int
		body   string
		want   Refusal
	}{
		{529, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, Refusal{529, "overloaded_error: Overloaded", 7 * time.Second, true, true}},
		{429, `{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`, Refusal{429, "requests: Rate limit reached", 7 * time.Second, true, true}},
		{404, `{"error":"model 'x' not found"}`, Refusal{404, "model 'x' not found", 7 * time.Second, true, false}},
		{502, "<html>\n<h1>Bad   Gateway</h1></html>", Refusal{502, "<html> <h1>Bad Gateway</h1></html>", 7 * time.Second, true, true}},
		{400, "", Refusal{400, "Bad Request", 7 * time.Second, true, false}},
	} {
		got := HTTP(c.status, h, []byte(c.body))
		if d := cmp.Diff(c.want, *got); d != "" {
			t.Errorf("HTTP(%d, %q) (-want +got):\n%s", c.status, c.body, d)
		}
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		k, v string
		want time.Duration
	}{
		{"Retry-After", "2", 2 * time.Second},
		{"Retry-After", "0.5", 500 * time.Millisecond},
		{"Retry-After-Ms", "250", 250 * time.Millisecond},
		{"Retry-After", now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second},
		{"Retry-After", "soon", 0},
		{"Retry-After", "-3", 0},
	} {
		h := http.Header{}
		h.Set(c.k, c.v)
		if got := RetryAfter(h, now); got != c.want {
			t.Errorf("RetryAfter(%s: %s) = %v, want %v", c.k, c.v, got, c.want)
		}
	}
}

func TestTransport(t *testing.T) {
	ctx := context.Background()
	expired, cancel := context.WithTimeout(ctx, -time.Second)
	defer cancel()
	for _, c := range []struct {
		ctx   context.Context
		err   error
		again bool
		text  string
	}{
		{expired, errors.New("request canceled"), true, "no answer within 2m0s"},
		{ctx, fmt.Errorf("post: %w", syscall.ECONNRESET), true, "connection reset"},
		{ctx, fmt.Errorf("post: %w", io.ErrUnexpectedEOF), true, "connection reset"},
		{ctx, fmt.Errorf("post: %w", syscall.ECONNREFUSED), false, "sending the request"},
	} {
		r := Transport(c.ctx, c.err, 2*time.Minute)
		if r.Again != c.again || !strings.Contains(r.Message, c.text) || r.Status != 0 {
			t.Errorf("Transport(%v) = %+v, want Again %v and %q", c.err, r, c.again, c.text)
		}
	}
}

func TestRedact(t *testing.T) {
	key := "sk-ant-api03-PLANTEDsecretKEY0123456789"
	for _, s := range []string{
		"bad key " + key,
		"Authorization: Bearer abc.def-ghi",
		`{"x-api-key": "hunter2hunter2"}`,
		"key sk-proj-ABCDEFGH12345678 leaked",
	} {
		got := Redact(s, key)
		for _, bad := range []string{key, "abc.def-ghi", "hunter2hunter2", "sk-proj-ABCDEFGH12345678"} {
			if strings.Contains(got, bad) {
				t.Errorf("Redact(%q) = %q, still holds %q", s, got, bad)
			}
		}
		if !strings.Contains(got, "[redacted]") {
			t.Errorf("Redact(%q) = %q, want a [redacted] mark", s, got)
		}
	}
	if got := Redact("invalid x-api-key"); got != "invalid x-api-key" {
		t.Errorf("Redact changed plain text: %q", got)
	}
}

func TestShort(t *testing.T) {
	if got := Short("héllo wörld", 2); got != "h…" {
		t.Errorf("Short cut inside a rune: %q", got)
	}
	if got := Short("abc", 3); got != "abc" {
		t.Errorf("Short(abc, 3) = %q", got)
	}
}

func TestRetryAfterZeroMeansNow(t *testing.T) {
	now := time.Now()
	h := http.Header{}
	h.Set("Retry-After", "0")
	if d, set := RetryAfterSet(h, now); d != 0 || !set {
		t.Errorf("retry-after 0: %v %v, want 0 true", d, set)
	}
	if _, set := RetryAfterSet(http.Header{}, now); set {
		t.Error("no header reads as set")
	}
	var waits []time.Duration
	p := Policy{MaxTries: 2, Base: time.Second, Max: time.Minute, Sleep: func(_ context.Context, d time.Duration) error {
		waits = append(waits, d)
		return nil
	}}
	n := 0
	_, _, err := Do(context.Background(), p, func(context.Context) (int, error) {
		if n++; n == 1 {
			return 0, HTTP(429, h, nil)
		}
		return 1, nil
	})
	if err != nil || len(waits) != 1 || waits[0] != 0 {
		t.Errorf("err %v waits %v, want one zero wait", err, waits)
	}
}

// Sleep ends when the context does, with its error, however long the wait
// asked for; a wait of nothing ends at once without error.
func TestSleep(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Sleep(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled: %v, want context.Canceled", err)
	}
	if err := Sleep(context.Background(), 0); err != nil {
		t.Errorf("no wait: %v", err)
	}
}
