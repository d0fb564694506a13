package retry

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mcpeval/mcpeval/internal/lazyregexp"
)

// maxBody bounds how much of an answer is read.
const maxBody = 32 << 20

// Exchange watches one try's HTTP exchange so that a failed try can be told
// apart: refused by the provider (and with what), cut off on the way, or
// answered in full in a form that could not be read. Install Middleware in
// the SDK call (both official SDKs accept it through option.WithMiddleware),
// then pass the call's error to Refusal. An Exchange serves one try.
type Exchange struct {
	// Timeout is the try's timeout, named in the refusal when it runs out.
	Timeout time.Duration
	// Secrets are redacted from every message (the API key).
	Secrets []string

	mu       sync.Mutex
	status   int
	header   http.Header
	received time.Time
	body     []byte
	readErr  error
}

// Middleware passes req on and reads the whole answer before the SDK sees
// it, remembering its status, headers, error body, and whether the body came
// in full: a body cut off is the connection's failure, a complete body the
// SDK cannot read is the provider's.
func (e *Exchange) Middleware(req *http.Request, next func(*http.Request) (*http.Response, error)) (*http.Response, error) {
	resp, err := next(req)
	if err != nil || resp == nil {
		return resp, err
	}
	var b []byte
	var rerr error
	if resp.Body != nil {
		b, rerr = io.ReadAll(io.LimitReader(resp.Body, maxBody))
		resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(b))
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.status, e.header, e.readErr = resp.StatusCode, resp.Header.Clone(), rerr
	e.received = time.Now()
	if resp.StatusCode >= 400 {
		e.body = b
	}
	if rerr != nil {
		return nil, rerr
	}
	return resp, nil
}

// Refusal says why a try failed with err, ctx being the try's own context
// (the one carrying the per-try timeout). It is never nil.
func (e *Exchange) Refusal(ctx context.Context, err error) *Refusal {
	e.mu.Lock()
	status, header, body, readErr := e.status, e.header, e.body, e.readErr
	e.mu.Unlock()
	switch {
	case status >= 400 && readErr == nil:
		return HTTP(status, header, body, e.Secrets...)
	case status == 0 || readErr != nil:
		return Transport(ctx, err, e.Timeout, e.Secrets...)
	}
	return &Refusal{Status: status, Message: "reading the answer: " + Short(Redact(err.Error(), e.Secrets...), 300)}
}

// Call makes one HTTP call of an SDK as often as p allows, each try under
// timeout with an Exchange watching it (install ex.Middleware and the
// timeout in the call): an error call returns is the refusal the exchange
// explains, or, when call returns a *Refusal of its own (an answer it
// could not use), that refusal. The tries refused before success are not
// kept.
func Call[T any](ctx context.Context, p Policy, timeout time.Duration, secret string, call func(ctx context.Context, ex *Exchange) (T, error)) (T, error) {
	v, _, err := Do(ctx, p, func(ctx context.Context) (T, error) {
		ex := &Exchange{Timeout: timeout, Secrets: []string{secret}}
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		v, err := call(ctx, ex)
		if err != nil {
			var zero T
			if r, ok := err.(*Refusal); ok {
				return zero, r
			}
			return zero, ex.Refusal(ctx, err)
		}
		return v, nil
	})
	return v, err
}

// HTTP builds the refusal for an answer with an error status, taking the
// provider's own message from an error body such as
// {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}
// or {"error":{"message":"…","type":"…","code":"…"}}.
func HTTP(status int, header http.Header, body []byte, secrets ...string) *Refusal {
	msg := errorText(body)
	if msg == "" {
		msg = http.StatusText(status)
		if msg == "" {
			msg = "no status text"
		}
	}
	wait, set := RetryAfterSet(header, time.Now())
	return &Refusal{
		Status:        status,
		Message:       Short(Redact(msg, secrets...), 300),
		RetryAfter:    wait,
		RetryAfterSet: set,
		Again:         Again(status),
	}
}

// errorText returns the provider's message from an error body, or a snippet
// of a body that is not JSON.
func errorText(body []byte) string {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return ""
	}
	var v struct {
		Message string          `json:"message"`
		Error   json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &v) != nil {
		return strings.Join(strings.Fields(string(body)), " ")
	}
	var inner struct {
		Type    string `json:"type"`
		Code    any    `json:"code"`
		Message string `json:"message"`
	}
	var s string
	switch {
	case json.Unmarshal(v.Error, &inner) == nil && (inner.Message != "" || inner.Type != ""):
		kind := inner.Type
		if kind == "" && inner.Code != nil {
			kind = fmt.Sprint(inner.Code)
		}
		if kind != "" && inner.Message != "" {
			return kind + ": " + inner.Message
		}
		return kind + inner.Message
	case json.Unmarshal(v.Error, &s) == nil && s != "":
		return s
	case v.Message != "":
		return v.Message
	}
	return strings.Join(strings.Fields(string(body)), " ")
}

// Transport builds the refusal for a try that got no readable answer: no
// answer within timeout, or a connection reset, are worth another try; a
// refused connection or any other failure is not.
func Transport(ctx context.Context, err error, timeout time.Duration, secrets ...string) *Refusal {
	var ne net.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded) ||
		(errors.As(err, &ne) && ne.Timeout()):
		return &Refusal{Message: fmt.Sprintf("no answer within %s", timeout), Again: true}
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE), errors.Is(err, syscall.ECONNABORTED),
		errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return &Refusal{Message: "connection reset before the answer was complete", Again: true}
	}
	return &Refusal{Message: "sending the request: " + Short(Redact(err.Error(), secrets...), 300)}
}

// RetryAfter returns the wait a provider asked for in its retry-after-ms
// (milliseconds) or retry-after (seconds, or an HTTP date) header, or zero.
func RetryAfter(h http.Header, now time.Time) time.Duration {
	d, _ := RetryAfterSet(h, now)
	return d
}

// RetryAfterSet is RetryAfter, also reporting whether the provider asked
// for a wait at all: "retry-after: 0" asks to try again at once, which is
// not the same as saying nothing.
func RetryAfterSet(h http.Header, now time.Time) (time.Duration, bool) {
	if h == nil {
		return 0, false
	}
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && ms >= 0 {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s < 0 {
			return 0, false
		}
		return time.Duration(s * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		if t.After(now) {
			return t.Sub(now), true
		}
		return 0, true
	}
	return 0, false
}

var secretPatterns = []*lazyregexp.Regexp{
	lazyregexp.New(`(?i)(bearer\s+)[^\s"',;]+`),
	lazyregexp.New(`(?i)((?:x-api-key|api-key|authorization)["']?\s*[:=]\s*["']?)[^\s"',;]+`),
	lazyregexp.New(`\bsk-[A-Za-z0-9_\-]{8,}`),
}

// Redact removes every given secret, and anything that looks like a bearer
// token, an API key header or an "sk-" key, from s.
func Redact(s string, secrets ...string) string {
	for _, sec := range secrets {
		if sec != "" {
			s = strings.ReplaceAll(s, sec, "[redacted]")
		}
	}
	for i, re := range secretPatterns {
		if i < 2 {
			s = re.ReplaceAllString(s, "${1}[redacted]")
		} else {
			s = re.ReplaceAllString(s, "[redacted]")
		}
	}
	return s
}

// Short returns s cut to at most n bytes on a rune boundary, marked with "…"
// when cut.
func Short(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8Start(s[i]) {
		i--
	}
	return s[:i] + "…"
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
